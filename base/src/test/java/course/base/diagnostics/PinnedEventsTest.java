package course.base.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class PinnedEventsTest {
    static final CountDownLatch ENTERED = new CountDownLatch(1);
    static final CountDownLatch RELEASE = new CountDownLatch(1);

    /** A class initialiser that parks until the test releases it: a virtual thread running it is pinned. */
    static final class ParksInInit {
        static final int VALUE;

        static {
            ENTERED.countDown();
            try {
                RELEASE.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            VALUE = 42;
        }
    }

    @Test
    void recordsAParkInsideAClassInitialiser() throws Exception {
        List<PinnedEvents.Pin> pins = PinnedEvents.during(Duration.ZERO, () -> {
            Thread t = Thread.ofVirtual().name("initialiser").start(() -> assertEquals(42, ParksInInit.VALUE));
            ENTERED.await();
            // Released only once it is parked inside the initialiser (a pinned park shows as WAITING).
            while (t.getState() != Thread.State.WAITING) Thread.onSpinWait();
            RELEASE.countDown();
            t.join();
        });
        List<PinnedEvents.Pin> ours = PinnedEvents.of(pins, n -> n.startsWith("initialiser"));
        assertEquals(1, ours.size(), "pinned parks of the initialising thread: " + pins);
        assertTrue(
                ours.getFirst().reason().contains("<clinit>"), ours.getFirst().reason());
        assertTrue(
                ours.getFirst().frames().stream().anyMatch(f -> f.contains("ParksInInit.<clinit>")),
                ours.getFirst().frames().toString());
    }

    @Test
    void recordsNothingForALockOrAMonitor() throws Exception {
        var lock = new ReentrantLock();
        Object monitor = new Object();
        var held = new CountDownLatch(2);
        var go = new CountDownLatch(1);
        List<PinnedEvents.Pin> pins = PinnedEvents.during(Duration.ZERO, () -> {
            Thread a = Thread.ofVirtual().name("locked").start(() -> {
                lock.lock();
                try {
                    held.countDown();
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    lock.unlock();
                }
            });
            Thread b = Thread.ofVirtual().name("synchronized").start(() -> {
                synchronized (monitor) {
                    held.countDown();
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            held.await();
            go.countDown();
            a.join();
            b.join();
        });
        assertEquals(List.of(), PinnedEvents.of(pins, n -> n.startsWith("locked") || n.startsWith("synchronized")));
    }

    @Test
    void replShortNames() {
        assertEquals("Config", PinnedEvents.shortType("REPL.$JShell$12$Config"));
        assertEquals("cell", PinnedEvents.shortType("REPL.$JShell$26"));
        assertEquals("java.lang.Thread", PinnedEvents.shortType("java.lang.Thread"));
    }
}
