package course.kit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class MeasureTest {

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(3.0, Measure.median(new long[] {5, 1, 3}));
        assertEquals(2.5, Measure.median(new long[] {4, 1, 3, 2}));
        assertEquals(7.0, Measure.median(new long[] {7}));
        assertEquals(5.0, Measure.median(new long[] {1, 1, 9, 9, 5}));
    }

    @Test
    void medianLeavesItsInputAlone() {
        long[] v = {3, 1, 2};
        Measure.median(v);
        assertArrayEquals(new long[] {3, 1, 2}, v);
    }

    @Test
    void medianOfNothingIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Measure.median(new long[0]));
    }

    @Test
    void medianOfDoubles() {
        double[] v = {2.5, 0.5, 1.5, 9.0};
        assertEquals(2.0, Measure.median(v));
        assertArrayEquals(new double[] {2.5, 0.5, 1.5, 9.0}, v, "the input is left alone");
        assertEquals(1.5, Measure.median(new double[] {1.5}));
        assertThrows(IllegalArgumentException.class, () -> Measure.median(new double[0]));
    }

    @Test
    void repeatRunsWarmupsThenTimedReps() throws Exception {
        var calls = new AtomicInteger();
        Measure.Measurement m = Measure.repeat("count", 2, 5, 7, () -> {
            calls.incrementAndGet();
            Thread.sleep(1);
        });
        assertEquals(7, calls.get(), "2 warm-ups + 5 timed runs");
        assertEquals("count", m.name());
        assertEquals(2, m.warmups());
        assertEquals(7, m.opsPerRun());
        assertEquals(5, m.wallNanos().length);
        assertEquals(5, m.cpuNanos().length);
        for (long w : m.wallNanos()) assertTrue(w >= 1_000_000, "each timed run covers its 1 ms sleep: " + w + " ns");
    }

    @Test
    void zeroWarmupsAreAllowed() throws Exception {
        var calls = new AtomicInteger();
        assertEquals(1, Measure.repeat("once", 0, 1, 1, calls::incrementAndGet).wallNanos().length);
        assertEquals(1, calls.get());
    }

    @Test
    void methodStatesHowTheFigureWasObtained() throws Exception {
        String method = Measure.repeat("m", 3, 4, 9, () -> {}).method();
        assertTrue(method.startsWith("median of 4 timed runs after 3 warm-up runs, 9 operations per run"), method);
        assertTrue(method.contains("System.nanoTime") && method.contains("CPU time"), method);
    }

    @Test
    void argumentsAreChecked() {
        var w = assertThrows(IllegalArgumentException.class, () -> Measure.repeat("x", -1, 1, 1, () -> {}));
        assertTrue(w.getMessage().contains("warmups"), w.getMessage());
        var r = assertThrows(IllegalArgumentException.class, () -> Measure.repeat("x", 0, 0, 1, () -> {}));
        assertTrue(r.getMessage().contains("reps"), r.getMessage());
        var o = assertThrows(IllegalArgumentException.class, () -> Measure.repeat("x", 0, 1, 0, () -> {}));
        assertTrue(o.getMessage().contains("opsPerRun"), o.getMessage());
        assertThrows(NullPointerException.class, () -> Measure.repeat("x", 0, 1, 1, null));
    }

    @Test
    void anActionsExceptionPropagates() {
        var boom = new IOException("disk");
        assertSame(
                boom,
                assertThrows(
                        IOException.class,
                        () -> Measure.repeat("x", 0, 3, 1, () -> {
                            throw boom;
                        })));
    }

    @Test
    void interruptionStopsTheMeasurement() {
        var calls = new AtomicInteger();
        var e = assertThrows(
                InterruptedException.class,
                () -> Measure.repeat("warm", 5, 5, 1, () -> {
                    calls.incrementAndGet();
                    Thread.currentThread().interrupt();
                }));
        assertEquals("warm interrupted during warm-up", e.getMessage());
        assertEquals(1, calls.get());
        assertTrue(!Thread.currentThread().isInterrupted(), "the flag was consumed by the exception");

        var timed = new AtomicInteger();
        var f = assertThrows(
                InterruptedException.class,
                () -> Measure.repeat("timed", 0, 5, 1, () -> {
                    if (timed.incrementAndGet() == 2) Thread.currentThread().interrupt();
                }));
        assertEquals("timed interrupted", f.getMessage());
        assertEquals(2, timed.get());
    }

    @Test
    void measurementDerivesItsFiguresFromTheRuns() {
        var m = new Measure.Measurement("op", 1, 2, new long[] {3_000, 1_000, 2_000}, new long[] {400, 800, 600});
        assertEquals(2_000.0, m.medianWallNanos());
        assertEquals(600.0, m.medianCpuNanos());
        assertEquals(1.0, m.perOpMicros(), 1e-12);
        assertEquals(0.3, m.cpuPerOpMicros(), 1e-12);
        assertArrayEquals(new double[] {0.5, 1.5}, m.rangePerOpMicros(), 1e-12);
        String s = m.toString();
        assertTrue(s.startsWith("op: "), s);
        assertTrue(s.endsWith(m.method()), s);
        assertTrue(
                m.method().startsWith("median of 3 timed runs after 1 warm-up runs, 2 operations per run"), m.method());
    }

    @Test
    void processCpuTimeIsKnownAndGrowsWithWork() throws Exception {
        long a = Measure.processCpuNanos();
        Tasks.burn(5_000_000);
        long b = Measure.processCpuNanos();
        assertTrue(a > 0, "HotSpot reports process CPU time (-1 where it cannot): " + a);
        assertTrue(b > a, "burning moves it forward: " + a + " then " + b);
    }
}
