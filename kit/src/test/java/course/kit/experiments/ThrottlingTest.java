package course.kit.experiments;

import static java.time.Duration.ofMillis;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Recorder;
import course.kit.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ThrottlingTest {
    // a hold far longer than the connection time-out: a burst of 100 virtual threads arrives well within it
    static final Duration HOLD = ofMillis(200), WAIT = ofMillis(10);

    @Test
    void theDatabaseLendsAtMostItsConnectionsAndTurnsTheNextCallerAway() throws Exception {
        var db = new SimulatedDatabase(2, Duration.ofMinutes(1), ofMillis(5));
        var holders = new Thread[2];
        var interrupted = new AtomicInteger();
        for (int i = 0; i < 2; i++) {
            int id = i;
            holders[i] = Thread.ofVirtual().start(() -> {
                try {
                    db.query(id);
                } catch (InterruptedException e) {
                    interrupted.incrementAndGet();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
        }
        while (db.inUse() < 2) Thread.onSpinWait(); // both queries hold their connections
        var e = assertThrows(SQLTransientConnectionException.class, () -> db.query(3));
        assertTrue(e.getMessage().contains("total=2, active=2"), e.getMessage());
        for (Thread t : holders) t.interrupt();
        for (Thread t : holders) t.join();
        assertEquals(2, interrupted.get());
        assertEquals(0, db.inUse());
        assertEquals(2, db.peakInUse());
        assertEquals(2, db.connections());
        assertEquals("row 7", new SimulatedDatabase(1, ofMillis(1), WAIT).query(7));
    }

    @Test
    void rejectsImpossibleDatabasesAndPredictions() {
        assertThrows(IllegalArgumentException.class, () -> new SimulatedDatabase(0, HOLD, WAIT));
        assertThrows(IllegalArgumentException.class, () -> new SimulatedDatabase(5, Duration.ZERO, WAIT));
        assertThrows(IllegalArgumentException.class, () -> new SimulatedDatabase(5, HOLD, ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> Throttling.drain(10, 0, HOLD, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> Throttling.predictedTimeouts(-1, 5, HOLD, 0));
        assertThrows(IllegalArgumentException.class, () -> Throttling.throughput(50, Duration.ZERO));
    }

    @Test
    void predictionsFollowTheWaves() {
        // every caller gave up before the first connection came back: every caller past the pool's size timed out
        assertArrayEquals(new int[] {90, 90}, Throttling.predictedTimeouts(100, 10, HOLD, 150_000_000));
        // the last gave up at 450 ms: up to ⌊450 / 200⌋ = 2 more waves of 10 came back while someone waited
        assertArrayEquals(new int[] {70, 90}, Throttling.predictedTimeouts(100, 10, HOLD, 450_000_000));
        // T = 2.5 t: permits freed at t and 2t, 3 × 50; a caller that gave up at 3.1 t lets one more wave in
        assertArrayEquals(new int[] {150, 150}, Throttling.predictedAccepted(500, 50, ofMillis(250), ofMillis(100), 0));
        assertArrayEquals(
                new int[] {150, 150}, Throttling.predictedAccepted(500, 50, ofMillis(250), ofMillis(100), 290_000_000));
        assertArrayEquals(
                new int[] {150, 200}, Throttling.predictedAccepted(500, 50, ofMillis(250), ofMillis(100), 310_000_000));
        assertArrayEquals(new int[] {30, 30}, Throttling.predictedAccepted(30, 50, ofMillis(250), ofMillis(100), 0));
        assertEquals(500.0, Throttling.throughput(50, ofMillis(100)), 1e-9);
        var drain = Throttling.drain(500, 50, ofMillis(100), ofMillis(7));
        assertEquals(1_000.0, drain.lo(), 1e-9); // ⌈500/50⌉ = 10 waves of 100 ms
        assertTrue(drain.hi() > drain.lo() + 70); // 10 measured trips of 7 ms on top of the slack
        assertEquals(
                300.0,
                Throttling.deadline(500, 50, ofMillis(250), ofMillis(100), Duration.ZERO)
                        .lo(),
                1e-9);
        assertEquals(
                100.0,
                Throttling.deadline(30, 50, ofMillis(250), ofMillis(100), Duration.ZERO)
                        .lo(),
                1e-9); // one wave is all
    }

    @Test
    void countsFailuresByTheirExceptionClass() throws Exception {
        var rec = Recorder.start("mixed", 4);
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            threads.submit(rec.task(() -> {
                throw new SQLTransientConnectionException("timed out");
            }));
            threads.submit(rec.task(() -> {
                throw new SQLTransientConnectionException();
            }));
            threads.submit(rec.task(() -> {
                throw new IllegalStateException("call 4 failed");
            }));
            threads.submit(rec.task(() -> {}));
        }
        RunResult r = rec.stop();
        assertEquals(2, Throttling.timeouts(r));
        assertEquals(1, Throttling.failedWith(r, IllegalStateException.class));
        long lastTimeout = r.records().stream()
                .filter(t -> t.failure() != null && t.failure().startsWith("SQLTransient"))
                .mapToLong(t -> t.endNanos())
                .max()
                .orElseThrow();
        // the one call that returned got going at least 1 ns before its end: the time-outs are the latest waits
        assertEquals(
                lastTimeout,
                Throttling.lastWaitNanos(
                        r, SQLTransientConnectionException.class, Duration.ofNanos(1_000_000_000_000L)));
        assertEquals(3, r.failed());
    }

    @Test
    void anUnthrottledBurstExhaustsThePool() throws Exception {
        var db = new SimulatedDatabase(10, HOLD, WAIT);
        RunResult r = Throttling.unthrottled("raw", db, 100);
        long gaveUp = Throttling.lastWaitNanos(r, SQLTransientConnectionException.class, HOLD);
        assertTrue(gaveUp >= WAIT.toNanos(), "last give-up " + gaveUp);
        int[] range = Throttling.predictedTimeouts(100, 10, HOLD, gaveUp);
        int timeouts = Throttling.timeouts(r);
        assertTrue(timeouts >= range[0] && timeouts <= range[1], "time-outs " + timeouts);
        assertTrue(timeouts > 0);
        assertEquals(timeouts, r.failed());
        assertEquals(10, db.peakInUse());
        assertTrue(r.peakConcurrency() > 10, "calls in flight " + r.peakConcurrency()); // every call started, not 10
        assertEquals(100, r.virtualTasks());
    }

    @Test
    void aSemaphoreKeepsTheCallsWithinItsPermitsAndLosesNone() throws Exception {
        var db = new SimulatedDatabase(10, ofMillis(5), WAIT);
        var permits = new Semaphore(10);
        RunResult r = Throttling.throttled("throttled", db, permits, 60);
        assertEquals(60, r.count());
        assertEquals(60, r.started());
        assertEquals(0, r.failed());
        assertTrue(r.peakConcurrency() <= 10, "in flight " + r.peakConcurrency());
        assertTrue(db.peakInUse() <= 10);
        assertEquals(10, permits.availablePermits());
        for (double y : r.inFlightOverTime(50)[1]) assertTrue(y <= 10, "in flight " + y);
    }

    @Test
    void theGuardEndsARunWhosePermitsLeaked() throws Exception {
        var permits = new Semaphore(2);
        var out = new ByteArrayOutputStream();
        var gaveUp = new AtomicInteger();
        ExecutorService threads = Throttling.deadlockGuard(
                permits,
                Executors.newVirtualThreadPerTaskExecutor(),
                ofMillis(100),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        try (threads) {
            for (int i = 0; i < 5; i++) {
                threads.submit(() -> {
                    try {
                        permits.acquire(); // the first two take the permits and never give them back
                    } catch (InterruptedException e) {
                        gaveUp.incrementAndGet();
                    }
                });
            }
        }
        assertTrue(Throttling.stopped(threads));
        assertEquals(3, gaveUp.get());
        String said = out.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("3 callers wait in acquire()") && said.contains("the permits leaked"), said);
    }

    @Test
    void theGuardTellsPermitsHeldByStuckCallsFromLeakedOnes() throws Exception {
        var permits = new Semaphore(1);
        var never = new CountDownLatch(1);
        var out = new ByteArrayOutputStream();
        ExecutorService threads = Throttling.deadlockGuard(
                permits,
                Executors.newVirtualThreadPerTaskExecutor(),
                ofMillis(100),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        try (threads) {
            for (int i = 0; i < 3; i++) {
                threads.submit(() -> {
                    permits.acquire();
                    try {
                        never.await(); // holds its permit and waits for ever
                    } finally {
                        permits.release();
                    }
                    return null;
                });
            }
        }
        assertTrue(Throttling.stopped(threads));
        String said = out.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("1 callers hold permits"), said);
    }

    @Test
    void theGuardStaysQuietWhenEveryPermitComesBack() throws Exception {
        var permits = new Semaphore(2);
        var out = new ByteArrayOutputStream();
        var ran = new AtomicInteger();
        ExecutorService threads = Throttling.deadlockGuard(
                permits,
                Executors.newVirtualThreadPerTaskExecutor(),
                ofMillis(100),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        try (threads) {
            for (int i = 0; i < 50; i++) {
                threads.submit(() -> {
                    permits.acquire();
                    try {
                        ran.incrementAndGet();
                    } finally {
                        permits.release();
                    }
                    return null;
                });
            }
        }
        assertFalse(Throttling.stopped(threads));
        assertEquals(50, ran.get());
        assertEquals(2, permits.availablePermits());
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theChartDrawsTheLimit() throws Exception {
        RunResult r = Throttling.throttled("curve", new SimulatedDatabase(5, ofMillis(3), WAIT), new Semaphore(5), 30);
        var chart = Throttling.inFlight("t", 5, r);
        assertTrue(
                chart.getSeriesCollection().stream().anyMatch(s -> s.getName().equals("limit: 5")));
        assertTrue(
                chart.getSeriesCollection().stream().anyMatch(s -> s.getName().equals("curve")));
        var table = Throttling.table("t", r);
        assertEquals(1, table.rowCount());
        assertEquals(30, table.intColumn("rows returned").get(0));
        assertEquals(0, table.intColumn("pool time-outs").get(0));
    }

    @Test
    void reproductionRowsNameArticle002sPoolOf50() throws Exception {
        var rows = Throttling.reproduce(course.kit.Scale.QUICK);
        assertEquals(2, rows.size());
        assertEquals(50.0, rows.get(0).predicted(), 1e-9);
        assertEquals(50.0, rows.get(0).measured(), 1e-9); // the pool's own count: the cap binds, exactly
        assertEquals(125.0, rows.get(1).predicted(), 1e-9); // 50 permits / 400 ms, on the real database
        assertTrue(rows.stream().allMatch(r -> r.article().equals("002")));
    }
}
