package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The GC pause instrument: a real collection is recorded on the right clock; the arithmetic of stretches is exact. */
class GcPausesTest {
    private static final long MS = 1_000_000L;

    private static GcPauses.Pause at(long startMs, long ms) {
        return new GcPauses.Pause("G1 Young Generation", "G1 Evacuation Pause", startMs * MS, ms * MS);
    }

    @Test
    void aCollectionIsRecordedWithItsCollectorAndWhenItRan() throws Exception {
        var seen = new CountDownLatch(1);
        long before = System.nanoTime();
        try (var gc = GcPauses.listen(p -> seen.countDown())) {
            System.gc(); // a full, stop-the-world collection with G1, Parallel and Serial
            assertTrue(seen.await(60, TimeUnit.SECONDS), "the JVM reported no collection after System.gc()");
            long after = System.nanoTime();
            var pauses = gc.pauses();
            assertFalse(pauses.isEmpty());
            var p = pauses.getLast();
            assertFalse(p.collector().contains("Cycles"), p.collector());
            // placed to within a few milliseconds, on the nanoTime clock
            assertTrue(p.startNanos() >= before - 5 * MS && p.endNanos() <= after + 5 * MS, p + " outside the call");
            assertEquals(pauses, gc.pausesBetween(before - 5 * MS, after + 5 * MS));
            assertEquals(List.of(), gc.pausesBetween(after + 6 * MS, after + 20 * MS));
        }
    }

    @Test
    void afterCloseNothingMoreIsRecorded() throws Exception {
        var closed = GcPauses.listen();
        closed.close();
        var seen = new CountDownLatch(1);
        try (var open = GcPauses.listen(p -> seen.countDown())) {
            System.gc();
            assertTrue(seen.await(60, TimeUnit.SECONDS));
        }
        assertEquals(List.of(), closed.pauses());
    }

    @Test
    void theMostPauseTimeInOneStretch() {
        var pauses = List.of(at(0, 80), at(1_000, 30), at(1_200, 120));
        assertEquals(Duration.ofMillis(150), GcPauses.mostWithin(pauses, Duration.ofMillis(500)));
        assertEquals(Duration.ofMillis(100), GcPauses.mostWithin(pauses, Duration.ofMillis(100)));
        assertEquals(Duration.ofMillis(230), GcPauses.mostWithin(pauses, Duration.ofMillis(2_000)));
        assertEquals(Duration.ZERO, GcPauses.mostWithin(List.of(), Duration.ofMillis(500)));
        assertEquals(Duration.ZERO, GcPauses.mostWithin(pauses, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> GcPauses.mostWithin(pauses, Duration.ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> at(0, -1));
    }
}
