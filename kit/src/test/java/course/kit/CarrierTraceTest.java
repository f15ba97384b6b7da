package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.charts.Charts;
import course.kit.charts.Lanes;
import course.kit.charts.LanesGeometry;
import java.awt.image.BufferedImage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CarrierTraceTest {
    private ExecutorService a, b;

    @AfterEach
    void closeCarriers() {
        if (a != null) a.close();
        if (b != null) b.close();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new RuntimeException(e);
        }
    }

    private static int rgb(BufferedImage img, int x, int y) {
        return img.getRGB(x, y) & 0xffffff;
    }

    private static int colourOf(int thread) {
        return LanesGeometry.colour(thread);
    }

    @Test
    void theCourseJvmsHaveTheOpensTheTraceNeeds() {
        assertTrue(
                CarrierTrace.Jdk.AVAILABLE,
                "surefire's argLine has --add-opens java.base/java.lang: " + CarrierTrace.Jdk.WHY_NOT);
        assertTrue(CarrierTrace.start("x").exact());
    }

    /** Two carriers that take turns: the first mount goes to A, the next to B, and so on. */
    private CarrierTrace alternating(int capacity) {
        a = Executors.newSingleThreadExecutor(r -> new Thread(r, "carrier-A"));
        b = Executors.newSingleThreadExecutor(r -> new Thread(r, "carrier-B"));
        var turn = new AtomicInteger();
        return CarrierTrace.on("A then B", capacity, r -> (turn.getAndIncrement() % 2 == 0 ? a : b).execute(r));
    }

    @Test
    void aThreadThatSleepsIsMountedTwiceAndTheSecondStretchCanBeOnAnotherCarrier() throws Exception {
        var trace = alternating(100);
        trace.startVirtualThread(() -> sleep(20)).join();
        var tl = trace.stop();
        assertEquals(List.of("carrier-A", "carrier-B"), tl.carriersOf(0), tl.toString());
        assertEquals(List.of("carrier-A", "carrier-B"), tl.carriers());
        var first = tl.of(0).get(0);
        var second = tl.of(0).get(1);
        assertTrue(second.startNanos() - first.endNanos() >= 20_000_000, "unmounted for the sleep: " + tl.stretches());
        assertEquals(1, tl.virtualThreads());
        assertTrue(tl.notes().isEmpty(), tl.notes().toString());
        assertTrue(tl.busy("carrier-A").toNanos() > 0 && tl.busy("carrier-B").toNanos() > 0);
    }

    @Test
    void aStretchOnCarrierAThenCarrierBIsDrawnInBothLanes() throws Exception {
        var trace = alternating(100);
        trace.startVirtualThread(() -> sleep(20)).join();
        var tl = trace.stop();
        Lanes lanes = Charts.carriers(tl);
        assertEquals(List.of("carrier-A", "carrier-B"), lanes.lanes());
        BufferedImage img = lanes.image();
        for (var s : tl.stretches()) {
            int lane = lanes.lanes().indexOf(s.carrier());
            int y = LanesGeometry.laneMiddle(lanes, lane);
            assertEquals(
                    colourOf(0),
                    rgb(img, LanesGeometry.x(lanes, s.startNanos()), y),
                    "bar of " + s + " in lane " + lane);
        }
        // between the two stretches both lanes are empty: the thread was asleep, on no carrier
        long asleep = (tl.of(0).get(0).endNanos() + tl.of(0).get(1).startNanos()) / 2;
        for (int lane = 0; lane < 2; lane++) {
            int y = LanesGeometry.laneMiddle(lanes, lane);
            assertNotEquals(colourOf(0), rgb(img, LanesGeometry.x(lanes, asleep), y), "lane " + lane + " while asleep");
        }
        assertTrue(lanes.toString().contains("carrier-A: busy"), lanes.toString());
    }

    @Test
    void onTheJvmsCarriersEveryWakeUpIsAStretchOnACarrierOfTheDefaultScheduler() throws Exception {
        var trace = CarrierTrace.start("sleeper");
        Thread t = trace.startVirtualThread(() -> {
            for (int i = 0; i < 3; i++) sleep(5);
        });
        t.join();
        var tl = trace.stop();
        assertTrue(tl.count() >= 4, "one stretch to the first sleep, one after each: " + tl.stretches());
        for (String c : tl.carriers()) assertTrue(c.startsWith("ForkJoinPool-") && c.contains("-worker-"), c);
        assertEquals(t.threadId(), tl.of(0).get(0).threadId());
        var stretches = tl.of(0);
        for (int i = 1; i < stretches.size(); i++) {
            assertTrue(stretches.get(i).startNanos() >= stretches.get(i - 1).endNanos(), "one mount at a time");
        }
    }

    @Test
    void aRecordersTasksRunOnTracedVirtualThreads() {
        var trace = CarrierTrace.start("recorded and traced");
        var rec = Recorder.quiet("recorded", "a traced virtual thread per task", 20);
        try (var staff = rec.executor(Executors.newThreadPerTaskExecutor(trace.factory()))) {
            for (int i = 0; i < 20; i++) staff.submit(() -> sleep(2));
        }
        RunResult run = rec.stop();
        var tl = trace.stop();
        assertEquals(20, run.virtualTasks());
        assertEquals(20, tl.virtualThreads());
        var recorded = run.records().stream().map(TaskRecord::thread).collect(java.util.stream.Collectors.toSet());
        var traced = tl.stretches().stream().map(s -> "#" + s.threadId()).collect(java.util.stream.Collectors.toSet());
        assertEquals(recorded, traced, "the recorder's tasks ran on the trace's threads");
    }

    @Test
    void aCpuBoundThreadIsOneLongStretch() throws Exception {
        var trace = CarrierTrace.start("cpu");
        trace.startVirtualThread(() -> {
                    long end = System.nanoTime() + 60_000_000;
                    long x = 0;
                    while (System.nanoTime() < end) x += x * 31 + 7;
                    if (x == 42) System.out.println(x);
                })
                .join();
        var tl = trace.stop();
        assertEquals(1, tl.count(), "a virtual thread is never preempted: " + tl.stretches());
        assertTrue(
                tl.stretches().get(0).durationNanos() >= 60_000_000,
                tl.stretches().toString());
    }

    /** A class whose initialiser sleeps: a virtual thread that runs it is pinned, and holds its carrier. */
    static final class SlowInit {
        static final String REGION;

        static {
            sleep(120);
            REGION = "eu-west";
        }
    }

    @Test
    void aSleepInAClassInitialiserIsOneStretchThatCoversTheSleep() throws Exception {
        var trace = CarrierTrace.start("pinned");
        String[] region = new String[1];
        trace.startVirtualThread(() -> region[0] = SlowInit.REGION).join();
        var tl = trace.stop();
        assertEquals("eu-west", region[0]);
        assertEquals(1, tl.count(), "pinned: the sleep never unmounts the thread: " + tl.stretches());
        assertTrue(
                tl.stretches().get(0).durationNanos() >= 120_000_000,
                tl.stretches().toString());
    }

    @Test
    void aVirtualThreadStartedByATracedOneIsTracedAsAThreadOfItsOwn() throws Exception {
        var trace = alternating(100);
        trace.startVirtualThread(() -> {
                    try {
                        Thread.ofVirtual().start(() -> sleep(5)).join();
                    } catch (InterruptedException e) {
                        throw new RuntimeException(e);
                    }
                })
                .join();
        var tl = trace.stop();
        assertEquals(2, tl.virtualThreads(), tl.stretches().toString());
        assertTrue(tl.of(1).size() >= 2, "the child slept once: " + tl.of(1));
        assertEquals(-1, tl.of(1).get(0).threadId(), "the trace never saw the child's Thread");
    }

    @Test
    void stretchesBeyondTheCapacityAreCountedAsDropped() throws Exception {
        var trace = alternating(3);
        trace.startVirtualThread(() -> {
                    for (int i = 0; i < 5; i++) sleep(1);
                })
                .join();
        var tl = trace.stop();
        assertEquals(3, tl.count());
        assertEquals(3, tl.dropped());
        assertTrue(
                tl.notes().get(0).startsWith("3 stretches dropped"), tl.notes().toString());
        assertTrue(Charts.carriers(tl).toString().contains("⚑ 3 stretches dropped"));
    }

    @Test
    void theFallbackSaysWhatItCouldNotAttribute() throws Exception {
        var trace = CarrierTrace.fallback("without the opens", 100);
        assertFalse(trace.exact());
        try (var staff = Executors.newThreadPerTaskExecutor(trace.factory())) {
            for (int i = 0; i < 3; i++) staff.submit(() -> sleep(10));
        }
        var tl = trace.stop();
        assertFalse(tl.exact());
        assertEquals(6, tl.count(), "a mark where each task started, one where it ended: " + tl.stretches());
        assertEquals(3, tl.virtualThreads());
        for (var s : tl.stretches()) assertEquals(0, s.durationNanos());
        for (String c : tl.carriers()) assertTrue(c.startsWith("ForkJoinPool-"), c);
        String note = tl.notes().get(0);
        assertTrue(note.startsWith("not exact: ") && note.contains("stretches in between are unknown"), note);
        var lanes = Charts.carriers(tl);
        var s = tl.stretches().get(0);
        int lane = lanes.lanes().indexOf(s.carrier());
        assertEquals(
                colourOf(s.thread()),
                rgb(lanes.image(), LanesGeometry.x(lanes, s.startNanos()), LanesGeometry.laneTop(lanes, lane) + 2));
        assertTrue(lanes.toString().contains("⚑ not exact"), lanes.toString());
    }

    @Test
    void theCarrierIsReadFromAVirtualThreadsName() {
        assertEquals(
                "ForkJoinPool-1-worker-3",
                CarrierTrace.carrierName("VirtualThread[#22]/runnable@ForkJoinPool-1-worker-3"));
        assertEquals("unknown carrier", CarrierTrace.carrierName("VirtualThread[#22]/runnable"));
        assertEquals("unknown carrier", CarrierTrace.carrierName("VirtualThread[#22]/runnable@"));
    }

    @Test
    void stopIsIdempotentAndLateStretchesAreNotRecorded() throws Exception {
        var trace = alternating(100);
        var tl = trace.stop();
        assertEquals(0, tl.count());
        trace.startVirtualThread(() -> sleep(1)).join();
        assertEquals(tl, trace.stop());
        assertEquals(0, trace.stop().count());
        assertTrue(Charts.carriers(tl).lanes().isEmpty());
        assertTrue(Charts.carriers(tl).png().length > 0, "an empty trace still draws");
    }

    @Test
    void thePictureOfSyntheticStretches() {
        String w2 = "ForkJoinPool-1-worker-2", w10 = "ForkJoinPool-1-worker-10";
        long ms = 1_000_000;
        var tl = new CarrierTimeline(
                "synthetic",
                10 * ms,
                new String[] {w10, w2},
                new int[] {1, 0, 1},
                new int[] {0, 0, 1},
                new long[] {0, 5 * ms, 2 * ms},
                new long[] {ms, 5 * ms + 2_000, 3 * ms},
                new long[] {101, 102},
                true,
                0,
                0,
                0,
                0,
                0,
                null);
        assertEquals(List.of(w2, w10), tl.carriers(), "natural order: worker-2 before worker-10");
        assertEquals(List.of(w2, w10), tl.carriersOf(0));
        assertEquals(Duration.ofMillis(2), tl.busy(w2));
        Lanes lanes = Charts.carriers(tl);
        BufferedImage img = lanes.image();
        int y0 = LanesGeometry.laneMiddle(lanes, 0), y1 = LanesGeometry.laneMiddle(lanes, 1);
        assertEquals(colourOf(0), rgb(img, LanesGeometry.x(lanes, ms / 2), y0), "thread 0 on worker-2");
        assertEquals(colourOf(1), rgb(img, LanesGeometry.x(lanes, 5 * ms / 2), y0), "thread 1 on worker-2");
        assertEquals(
                colourOf(0), rgb(img, LanesGeometry.x(lanes, 5 * ms), y1), "2 µs on worker-10 is still a pixel wide");
        assertNotEquals(colourOf(0), rgb(img, LanesGeometry.x(lanes, 8 * ms), y0));
        assertNotEquals(colourOf(0), rgb(img, LanesGeometry.x(lanes, 8 * ms), y1));
        assertEquals(
                List.of(
                        w2 + ": busy 2 ms of 10 ms (20%), 2 stretches",
                        w10 + ": busy 2 µs of 10 ms (0.020%), 1 stretches"),
                lanes.legend());
        assertTrue(lanes.title().startsWith("Carriers of synthetic — 2 virtual threads on 2 carriers"), lanes.title());
    }

    @Test
    void thePoolsThreadsInTheSamePicture() {
        RunResult run = ChartsTest.waves("café", 6);
        Lanes lanes = Charts.lanes(run);
        assertEquals(List.of("#1", "#2"), lanes.lanes());
        assertEquals(
                List.of("#1: busy 30 ms of 30 ms (100%), 3 tasks", "#2: busy 30 ms of 30 ms (100%), 3 tasks"),
                lanes.legend());
        BufferedImage img = lanes.image();
        int y = LanesGeometry.laneMiddle(lanes, 1);
        assertEquals(colourOf(3), rgb(img, LanesGeometry.x(lanes, 15_000_000), y), "task 3 ran second on thread #2");
    }

    @Test
    void manyLanesAreSummarisedAndCapped() {
        int n = Lanes.MAX_LANES + 10;
        long[] s = new long[n], e = new long[n], ids = new long[n];
        for (int i = 0; i < n; i++) {
            e[i] = 1_000_000;
            ids[i] = i + 1;
        }
        var run = new RunResult("wide", "pool", 1_000_000, s, e, ids, new boolean[n], null, java.util.Map.of());
        Lanes lanes = Charts.lanes(run);
        assertEquals(Lanes.MAX_LANES, lanes.lanes().size());
        assertEquals(1, lanes.legend().size(), lanes.legend().toString());
        assertTrue(
                lanes.notes().getLast().startsWith("only the first 512 of 522 lanes"),
                lanes.notes().toString());
        assertTrue(lanes.image().getHeight() < 1_000);
    }
}
