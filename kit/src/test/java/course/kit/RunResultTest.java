package course.kit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RunResult's derived values, from records written by hand. */
class RunResultTest {

    /**
     * Four tasks over 100 ns: task 0 [0, 50) on thread 11, task 1 [0, 100) on thread 12, task 2 [50, 75) on
     * thread 11 (failed), task 3 never started.
     */
    static RunResult sample() {
        return new RunResult(
                "sample",
                "fixed pool of 2",
                100,
                new long[] {0, 0, 50, -1},
                new long[] {50, 100, 75, -1},
                new long[] {11, 12, 11, 0},
                new boolean[] {false, false, false, false},
                new String[] {null, null, "IllegalStateException: boom", null},
                Map.of(11L, "pool-1-thread-1", 12L, "pool-1-thread-2"));
    }

    static RunResult of(long elapsed, long[] starts, long[] ends, boolean virtual) {
        long[] ids = new long[starts.length];
        boolean[] v = new boolean[starts.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = 100 + i;
            v[i] = virtual;
        }
        return new RunResult("r", "p", elapsed, starts, ends, ids, v, null, Map.of());
    }

    @Test
    void countsAndNames() {
        RunResult r = sample();
        assertEquals("sample", r.name());
        assertEquals("fixed pool of 2", r.pool());
        assertEquals(4, r.count());
        assertEquals(3, r.started());
        assertEquals(1, r.failed());
        assertEquals(0, r.virtualTasks());
        assertEquals(2, r.threadsUsed(), "a task that never ran has no thread");
        assertEquals(50, r.lastStartNanos());
    }

    @Test
    void elapsedInEveryUnit() {
        RunResult r = of(2_500_000_000L, new long[] {0}, new long[] {1}, true);
        assertEquals(Duration.ofMillis(2500), r.elapsed());
        assertEquals(2500.0, r.elapsedMillis(), 1e-9);
        assertEquals(2.5, r.elapsedSeconds(), 1e-12);
        assertEquals(0.4, r.throughputPerSecond(), 1e-12);
    }

    @Test
    void throughputOfAnInstantRunIsZeroNotInfinite() {
        assertEquals(0.0, of(0, new long[0], new long[0], true).throughputPerSecond());
    }

    @Test
    void recordsSkipTasksThatNeverStarted() {
        List<TaskRecord> recs = sample().records();
        assertEquals(
                List.of(
                        new TaskRecord(0, 0, 50, false, "pool-1-thread-1", null),
                        new TaskRecord(1, 0, 100, false, "pool-1-thread-2", null),
                        new TaskRecord(2, 50, 75, false, "pool-1-thread-1", "IllegalStateException: boom")),
                recs);
        assertEquals(25, recs.get(2).durationNanos());
        assertTrue(recs.get(0).ok());
        assertTrue(!recs.get(2).ok());
    }

    @Test
    void unnamedThreadsShowTheirId() {
        RunResult r = of(10, new long[] {0}, new long[] {5}, true);
        assertEquals("#100", r.records().get(0).thread());
        assertNull(r.records().get(0).failure());
    }

    @Test
    void peakConcurrencyIsASweepOverStartsAndEnds() {
        assertEquals(2, sample().peakConcurrency());
        // three nested intervals and one apart
        assertEquals(
                3,
                of(100, new long[] {0, 10, 20, 80}, new long[] {70, 60, 50, 90}, false)
                        .peakConcurrency());
        // a task that starts exactly when another ends does not overlap it
        assertEquals(
                1,
                of(30, new long[] {0, 10, 20}, new long[] {10, 20, 30}, false).peakConcurrency());
        assertEquals(0, of(0, new long[0], new long[0], false).peakConcurrency());
    }

    @Test
    void peakCountsATaskThatNeverEnded() {
        assertEquals(2, of(100, new long[] {0, 10}, new long[] {50, -1}, false).peakConcurrency());
    }

    @Test
    void inFlightOverTimeSamplesEvenly() {
        double[][] pts = sample().inFlightOverTime(5); // t = 0, 25, 50, 75, 100 ns
        assertArrayEquals(new double[] {0, 25e-9, 50e-9, 75e-9, 100e-9}, pts[0], 1e-18);
        assertArrayEquals(new double[] {2, 2, 2, 1, 0}, pts[1]);
    }

    @Test
    void inFlightOverTimeNeedsTwoPoints() {
        assertThrows(IllegalArgumentException.class, () -> sample().inFlightOverTime(1));
        assertEquals(2, sample().inFlightOverTime(2)[0].length);
    }

    @Test
    void nanosArraysAreCopies() {
        RunResult r = sample();
        long[] s = r.startNanos();
        long[] e = r.endNanos();
        assertArrayEquals(new long[] {0, 0, 50, -1}, s);
        assertArrayEquals(new long[] {50, 100, 75, -1}, e);
        s[0] = 99;
        e[0] = 99;
        assertEquals(0, r.startNanos()[0]);
        assertEquals(50, r.endNanos()[0]);
    }

    @Test
    void toStringSummarisesTheRun() {
        String s = sample().toString();
        assertTrue(s.startsWith("sample: 4 tasks on fixed pool of 2"), s);
        assertTrue(s.contains("peak 2 at once on 2 platform threads"), s);
        assertTrue(s.endsWith("(1 failed)"), s);
        assertTrue(of(1, new long[] {0}, new long[] {1}, true).toString().contains("virtual threads"));
        RunResult mixed = new RunResult(
                "m",
                "p",
                10,
                new long[] {0, 0},
                new long[] {5, 5},
                new long[] {1, 2},
                new boolean[] {true, false},
                null,
                Map.of());
        assertTrue(mixed.toString().contains("mixed threads"), mixed.toString());
        assertEquals(1, mixed.virtualTasks());
        assertTrue(!mixed.toString().contains("failed"));
    }
}
