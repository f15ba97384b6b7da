package course.kit.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Band;
import course.kit.Scale;
import course.kit.models.HttpModel;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class HttpServiceTest {
    static final Duration T = Duration.ofMillis(400);

    @Test
    void littlesLawForAClosedLoop() {
        assertEquals(125.0, HttpModel.throughput(50, 200, T), 1e-9); // below the limit: C / t
        assertEquals(500.0, HttpModel.throughput(1_000, 200, T), 1e-9); // above it: slots / t
        assertEquals(400.0, HttpModel.latencyMillis(50, 200, T), 1e-9);
        assertEquals(2_000.0, HttpModel.latencyMillis(1_000, 200, T), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> HttpModel.throughput(0, 200, T));
        assertThrows(IllegalArgumentException.class, () -> HttpModel.latencyMillis(10, 10, Duration.ZERO));
    }

    @Test
    void bandsCountWholeWaves() {
        Duration delta = Duration.ofMillis(10);
        Band q = HttpService.queueBand(1_000, 198, T, delta); // 5.05 waves: 5 at least, 6 + 1 late at most
        assertEquals(5 * 400.0, q.lo(), 1e-9);
        assertEquals(7 * 410.0, q.hi(), 1e-9);
        Band slot = HttpService.slotBand(T, Duration.ofMillis(2_400), delta);
        assertEquals(400.0 * 2_400 / 2_800, slot.lo(), 1e-9); // a window can cut off one wave
        assertEquals(410.0 * 2_400 / 1_990, slot.hi(), 1e-9);
        assertTrue(slot.contains(400) && !slot.contains(800));
        Band shed = HttpService.shedBand(T, Duration.ofMillis(100), delta);
        assertEquals(400.0, shed.lo(), 1e-9);
        assertTrue(shed.hi() > 510 && shed.hi() < 2 * 400, "t + maxWait + δ plus the fixed slack, below two waves");
        assertThrows(IllegalArgumentException.class, () -> HttpService.slotBand(T, T, delta));
        Band paused = HttpService.shedBand(T, Duration.ofMillis(100), delta, Duration.ofMillis(150));
        assertEquals(shed.hi() + 150, paused.hi(), 1e-9, "the GC pauses a request can meet raise the top");
        assertEquals(shed.lo(), paused.lo(), 1e-9, "and never the bottom");
        assertTrue(paused.why().contains("GC pauses 150 ms"), paused.why());
        assertFalse(shed.why().contains("GC"), shed.why());
    }

    @Test
    void aRunCarriesTheGcPausesThatARequestCanMeet() {
        long ms = 1_000_000L;
        var pauses = List.of(
                new course.kit.GcPauses.Pause("G1 Young Generation", "G1 Evacuation Pause", 0, 80 * ms),
                new course.kit.GcPauses.Pause("G1 Young Generation", "G1 Evacuation Pause", 1_000 * ms, 30 * ms),
                new course.kit.GcPauses.Pause("G1 Young Generation", "G1 Evacuation Pause", 1_200 * ms, 120 * ms));
        var r = result("r", pauses);
        assertEquals(Duration.ofMillis(150), r.gcPaused(Duration.ofMillis(500)));
        assertEquals(Duration.ofMillis(100), r.gcPaused(Duration.ofMillis(100)), "100 ms of the 120-ms pause");
        assertEquals(Duration.ZERO, result("none").gcPaused(Duration.ofMillis(500)));
    }

    @Test
    void againHandsBackTheFirstRunThenRunsAgain() throws Exception {
        var first = result("first");
        var second = result("second");
        var attempt = HttpService.again(first, () -> second);
        assertEquals("first", attempt.run().name());
        assertEquals("second", attempt.run().name());
        assertEquals("second", attempt.run().name());
    }

    @Test
    void theLoadGeneratorOnlyTargetsLoopback() {
        for (String ok : List.of("http://127.0.0.1:8080/", "http://localhost:1/", "http://[::1]:9/")) {
            LoadRecorder.requireLoopback(URI.create(ok));
        }
        for (String no : List.of(
                "http://10.1.2.3:8080/", "http://93.184.216.34/", "https://127.0.0.1:8443/", "file:///etc/passwd")) {
            assertThrows(IllegalArgumentException.class, () -> LoadRecorder.requireLoopback(URI.create(no)), no);
            assertThrows(
                    IllegalArgumentException.class,
                    () -> LoadRecorder.start("x", URI.create(no), 1, Duration.ZERO, Duration.ofSeconds(1), 10),
                    no);
        }
    }

    @Test
    void aBackOffEndsWithTheWindow() {
        var open = LoadRecorder.start(
                "open", URI.create("http://127.0.0.1:1/"), 1, Duration.ofMinutes(1), Duration.ofMinutes(5), 1);
        long left = open.millisLeft();
        assertTrue(
                left > Duration.ofMinutes(5).toMillis()
                        && left <= Duration.ofMinutes(6).toMillis(),
                "warm-up and window still ahead: " + left + " ms");
        var ended = LoadRecorder.start(
                "ended", URI.create("http://127.0.0.1:1/"), 1, Duration.ZERO, Duration.ofNanos(1), 1);
        while (ended.more()) {
            Thread.onSpinWait(); // one nanosecond
        }
        assertEquals(0, ended.millisLeft(), "the window has ended: a back-off waits no longer");
        open.stop(new HandlerMeter());
        ended.stop(new HandlerMeter());
    }

    @Test
    void outcomesAreSortedAndTheCountIsBounded() throws Exception {
        var rec = LoadRecorder.start(
                "sorted", URI.create("http://127.0.0.1:1/"), 1, Duration.ZERO, Duration.ofMinutes(5), 7);
        List<LoadRecorder.Exchange> exchanges = List.of(
                () -> 200,
                () -> 204,
                () -> 503,
                () -> 500,
                () -> {
                    throw new HttpTimeoutException("no answer");
                },
                () -> {
                    throw new IOException("connect failed", new ConnectException("Connection refused"));
                },
                () -> {
                    throw new IOException("reset");
                });
        var statuses = new ArrayList<Integer>();
        for (var e : exchanges) {
            assertTrue(rec.more(), "requests are left");
            statuses.add(rec.exchange(e));
        }
        assertFalse(rec.more(), "7 of 7 requests sent");
        assertEquals(-1, rec.exchange(() -> 200), "no request left to send");
        assertEquals(List.of(200, 204, 503, 500, -1, -1, -1), statuses);
        LoadResult r = rec.stop(new HandlerMeter());
        assertEquals(3, r.answers().answered()); // 2xx and 503: the answers whose latency counts
        assertEquals(2, r.answers().ok());
        assertEquals(1, r.answers().shed());
        assertEquals(2, r.answers().errors()); // the 500 and the reset
        assertEquals(1, r.answers().timeouts());
        assertEquals(1, r.answers().refused());
        assertEquals(4, r.answers().failed());
        assertEquals(7, r.requests());
        assertEquals("none", r.threadKind());
    }

    @Test
    void aLoadThisJvmCannotOpenIsRefusedBeforeItStarts() {
        var e = assertThrows(IllegalStateException.class, () -> LoadRecorder.requireSockets(Integer.MAX_VALUE / 2));
        assertTrue(e.getMessage().contains("ulimit -n"), e.getMessage());
        LoadRecorder.requireSockets(10);
    }

    @Test
    void percentilesByNearestRank() {
        long[] ms = {5_000_000, 1_000_000, 3_000_000, 2_000_000, 4_000_000};
        assertEquals(3.0, HandlerMeter.percentile(ms, 5, 0.50), 1e-9);
        assertEquals(5.0, HandlerMeter.percentile(ms, 5, 0.99), 1e-9);
        assertTrue(Double.isNaN(HandlerMeter.percentile(ms, 0, 0.5)));
    }

    @Test
    void theMeterTimesEachVisitAndKeepsOnlyThoseThatEnteredInTheWindow() {
        var meter = new HandlerMeter();
        long before = System.nanoTime();
        try (var quick = meter.enter()) {
            assertEquals(0, quick.id());
        }
        long from = System.nanoTime();
        var held = meter.enter();
        long heldSince = System.nanoTime();
        while (System.nanoTime() - heldSince < 3_000_000) Thread.onSpinWait(); // held at least 3 ms
        held.close();
        held.close(); // a second close counts nothing
        long to = System.nanoTime();
        assertTrue(meter.quantileMillis(0.99, from, to) >= 3.0, "the held visit is in the window");
        assertFalse(Double.isNaN(meter.quantileMillis(0.99, before, from)), "the quick visit is in the earlier window");
        assertTrue(Double.isNaN(meter.quantileMillis(0.99, to, to + 1)), "no visit entered after both ended");
    }

    @Test
    void theMeterCountsRequestsInsideAndTheirThreads() throws Exception {
        var meter = new HandlerMeter();
        int n = 25;
        var inside = new CountDownLatch(n);
        var leave = new CountDownLatch(1);
        var threads = new ArrayList<Thread>();
        for (int i = 0; i < n; i++) {
            threads.add(Thread.ofVirtual().start(() -> {
                try (var visit = meter.enter()) {
                    inside.countDown();
                    leave.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        inside.await();
        assertEquals(n, meter.inside());
        leave.countDown();
        for (Thread t : threads) t.join();
        assertEquals(0, meter.inside());
        assertEquals(n, meter.peak());
        assertEquals(n, meter.entered());
        assertEquals("virtual", meter.threadKind());
        Thread.ofPlatform().start(() -> meter.enter().close()).join();
        assertEquals("mixed", meter.threadKind());
    }

    /** A plan bounded by its count, 200 requests, not by its five-minute window: for counts, never for times. */
    static HttpService.Plan small() {
        var t = Duration.ofMillis(20);
        return new HttpService.Plan(
                t, List.of(20), Duration.ZERO, Duration.ofMinutes(5), 200, t, Duration.ofMillis(10));
    }

    @Test
    void bothServersServeEveryRequestAndLeaveNothingBehind() throws Exception {
        var plan = small();
        var before = HttpService.Leftovers.now();
        Database db = new SimulatedDatabase(5, plan.t(), Duration.ofMinutes(1));
        LoadResult pool = HttpService.run("pool", HttpService.poolOf(20), m -> HttpService.service(db, m), 20, plan);
        LoadResult virtual =
                HttpService.run("virtual", HttpService.virtualThreads(), m -> HttpService.service(db, m), 20, plan);
        var permits = new java.util.concurrent.Semaphore(5);
        LoadResult shedding = HttpService.run(
                "shedding",
                HttpService.virtualThreads(),
                m -> HttpService.shedding(db, m, permits, Duration.ZERO),
                20,
                plan);
        for (LoadResult r : List.of(pool, virtual, shedding)) {
            assertTrue(r.answers().answered() > 0, r.toString());
            assertEquals(0, r.answers().failed(), r.toString());
        }
        assertEquals("platform", pool.threadKind());
        assertEquals("virtual", virtual.threadKind());
        assertTrue(pool.peakInHandler() <= 20, pool.toString());
        assertTrue(virtual.peakInHandler() > 5, "more requests inside than the downstream's 5 connections: " + virtual);
        assertTrue(shedding.answers().shed() > 0, "20 clients, 5 permits, no wait: some turned away: " + shedding);
        assertEquals(5, permits.availablePermits(), "every permit back");
        assertNothingLeft(before);
    }

    @Test
    void anInterruptedRunStopsItsServerAndClients() throws Exception {
        var plan = new HttpService.Plan(
                Duration.ofMillis(20),
                List.of(10),
                Duration.ZERO,
                Duration.ofMinutes(5),
                1_000_000,
                Duration.ofMillis(20),
                Duration.ofMillis(10));
        var before = HttpService.Leftovers.now();
        var downstreamReached = new CountDownLatch(1);
        var inner = new SimulatedDatabase(5, plan.t(), Duration.ofMinutes(1));
        Database db = new Database() {
            @Override
            public String query(int id) throws SQLException, InterruptedException {
                downstreamReached.countDown();
                return inner.query(id);
            }

            @Override
            public Shape shape() {
                return inner.shape();
            }
        };
        var outcome = new AtomicReference<Object>();
        Thread runner = Thread.ofPlatform().start(() -> {
            try {
                outcome.set(HttpService.run(
                        "interrupted", HttpService.virtualThreads(), m -> HttpService.service(db, m), 10, plan));
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        downstreamReached.await(); // the server is up and a request is inside
        runner.interrupt(); // as the kernel does when a learner stops the cell
        runner.join(); // a five-minute run ends now
        assertTrue(
                outcome.get() instanceof LoadResult || outcome.get() instanceof InterruptedException,
                "the run ends, with what it measured or with the interrupt: " + outcome.get());
        assertNothingLeft(before);
    }

    /** No more listening sockets and no more Jetty or HTTP-client threads than {@code before}. */
    static void assertNothingLeft(HttpService.Leftovers before) throws InterruptedException {
        // a stopped pool's last threads may still be on their way out: wait for each to end, then count
        for (var e : Thread.getAllStackTraces().entrySet()) {
            if (HttpService.isServerThread(e.getKey().getName(), e.getValue())
                    && !before.threadNames().contains(e.getKey().getName())) {
                e.getKey().join(Duration.ofSeconds(30));
            }
        }
        var after = HttpService.Leftovers.now();
        assertEquals(before.listeningSockets(), after.listeningSockets(), "listening sockets: " + after);
        assertEquals(before.serverThreads(), after.serverThreads(), "server threads: " + after);
    }

    private static LoadResult result(String name) {
        return result(name, List.of());
    }

    /** One client, one request answered in a window of 1 ms, under {@code pauses}. */
    private static LoadResult result(String name, List<course.kit.GcPauses.Pause> pauses) {
        var answers = new LoadResult.Answers(1, 1, 0, 0, 0, 0);
        return new LoadResult(name, 1, 1, answers, 1, 1, 1, 1, 1, 1, "virtual", 1, pauses);
    }

    @Test
    void thePlanKeepsTheShapeAtBothScales() {
        for (Scale s : Scale.values()) {
            var p = HttpService.Plan.at(s);
            assertTrue(
                    p.levels().getFirst() < HttpService.POOL && p.levels().getLast() > HttpService.DOWNSTREAM_LIMIT,
                    "a level below the pool and one above the downstream's limit at " + s);
            assertTrue(HttpService.DOWNSTREAM_LIMIT > HttpService.POOL, "virtual threads can pass the pool");
            assertTrue(p.window().compareTo(p.t().multipliedBy(2)) > 0, "a window of several waves at " + s);
        }
    }
}
