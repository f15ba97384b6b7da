package course.kit.diagnostics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.diagnostics.PinnedEvents;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link PinnedEvents} (in the course's base) on the kit's {@link NativeSort}: a park under a native frame. */
@Timeout(60)
class NativePinTest {
    @Test
    void recordsAParkUnderANativeFrame() throws Exception {
        List<PinnedEvents.Pin> pins = PinnedEvents.during(Duration.ZERO, () -> {
            Thread t = Thread.ofVirtual()
                    .name("upcall")
                    .start(() -> NativeSort.sort(new int[] {2, 1}, (x, y) -> {
                        try {
                            Thread.sleep(1);
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                        return Integer.compare(x, y);
                    }));
            t.join();
        });
        List<PinnedEvents.Pin> ours = PinnedEvents.of(pins, n -> n.startsWith("upcall"));
        assertTrue(ours.size() >= 1, "a sleep inside a qsort comparator is pinned: " + pins);
        assertTrue(
                ours.getFirst().reason().toLowerCase().contains("native"),
                ours.getFirst().reason());
    }
}
