package course.kit.experiments;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Scale;
import course.kit.Task;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@DisplayName("IoVsCpu: notebook 04's experiments")
class IoVsCpuTest {
    static final int CORES = Runtime.getRuntime().availableProcessors();

    @Test
    @DisplayName("parameters: whole waves of CPU tasks, one CPU task at a time in the starvation runs, the formula's pool in the sweep")
    void parametersHaveTheShapeThePredictionsNeed() {
        for (Scale scale : Scale.values()) {
            var p = IoVsCpu.params(scale, 2);
            assertAll(scale.toString(),
                    () -> assertEquals(0, p.cpuTasks() % p.cores(), "CPU tasks are a multiple of the cores"),
                    () -> assertTrue(p.hogEvery().compareTo(p.hogLength()) > 0, "CPU tasks arrive further apart than they last"),
                    () -> assertTrue(p.hogLength().compareTo(p.ioSleep().multipliedBy(5)) >= 0, "a CPU task outlasts several sleeps"),
                    () -> assertTrue(p.mixedPools().contains(p.cores()), "the sweep has a pool of the cores"),
                    () -> assertTrue(p.mixedPools().contains((int) Math.ceil(p.cores()
                                    * (1 + p.mixedWait().toNanos() / (double) p.mixedCompute().toNanos()))),
                            "the sweep has the pool the sizing formula gives"),
                    () -> assertTrue(p.reps() >= 3, "a median needs at least 3 repetitions"));
        }
        assertTrue(IoVsCpu.params(Scale.QUICK, 2).ioTasks() < IoVsCpu.params(Scale.FULL, 2).ioTasks());
    }

    @Test
    @DisplayName("the three executors: one platform thread, a fixed pool of the cores, a virtual thread per task")
    void threeExecutors() {
        var pools = IoVsCpu.threeExecutors(4);
        assertAll(
                () -> assertEquals(3, pools.size()),
                () -> assertEquals(1, pools.get(0).platformThreads()),
                () -> assertFalse(pools.get(0).virtualThreads()),
                () -> assertEquals(4, pools.get(1).platformThreads()),
                () -> assertFalse(pools.get(1).virtualThreads()),
                () -> assertTrue(pools.get(2).virtualThreads()),
                () -> assertThrows(IllegalArgumentException.class, () -> IoVsCpu.threeExecutors(0)));
    }

    @Test
    @Timeout(30)
    @DisplayName("CPU-bound: one thread runs one at a time; the pool and the virtual threads at most the cores at a time")
    void cpuBoundConcurrency() throws InterruptedException {
        var m = IoVsCpu.cpuBound(CORES, 3 * CORES, 200_000, 2);
        assertAll(
                () -> assertEquals(3, m.size()),
                () -> assertEquals(2, m.get(0).elapsedMillis().length, "one time per repetition"),
                () -> assertEquals(1, m.get(0).run().peakConcurrency(), "one thread"),
                () -> assertEquals(1, m.get(0).run().threadsUsed(), "one thread"),
                () -> assertTrue(m.get(1).run().peakConcurrency() <= CORES, "the pool"),
                () -> assertEquals(0, m.get(1).run().virtualTasks(), "the pool's threads are platform threads"),
                () -> assertEquals(3 * CORES, m.get(2).run().virtualTasks(), "every task on a virtual thread"),
                // not time-sliced: a CPU-bound virtual thread keeps its carrier until it ends
                () -> assertTrue(m.get(2).run().peakConcurrency() <= CORES,
                        "CPU-bound virtual threads running at once: " + m.get(2).run().peakConcurrency()),
                () -> assertEquals(0, m.get(2).threads(), "virtual threads are not counted as platform threads"));
    }

    @Test
    @Timeout(30)
    @DisplayName("I/O-bound: the three executors run every task; blocked virtual threads are all in flight at once")
    void ioBoundRunsEveryTaskAndVirtualThreadsOverlap() throws InterruptedException {
        var m = IoVsCpu.ioBound(2, 4, Duration.ofMillis(5));
        assertAll(
                () -> assertEquals(List.of("one thread", "fixed pool of 2 (cores)", "virtual thread per task"),
                        m.stream().map(IoVsCpu.Measured::executor).toList()),
                () -> assertEquals(1, m.get(0).run().peakConcurrency()),
                () -> assertTrue(m.get(1).run().peakConcurrency() <= 2),
                () -> m.forEach(x -> assertEquals(0, x.run().failed(), x.executor())));
        // every task waits until all have started: only one thread per task gets there
        var all = new CountDownLatch(50);
        Task waitForAll = i -> {
            all.countDown();
            if (!all.await(10, TimeUnit.SECONDS)) throw new IllegalStateException("not all tasks ran at once");
        };
        var v = IoVsCpu.compare("latch", List.of(IoVsCpu.threeExecutors(2).get(2)), 50, waitForAll, 1).get(0);
        assertEquals(50, v.run().peakConcurrency());
        assertEquals(0, v.run().failed());
    }

    @Test
    @DisplayName("ratio and cpuRatio: the median of the ratios within each repetition")
    void pairedRatio() {
        var a = new IoVsCpu.Measured("a", 1, null, new double[] {100, 300, 200}, new double[] {0, 0, 0});
        var b = new IoVsCpu.Measured("b", 1, null, new double[] {50, 100, 400}, new double[] {0, 0, 0});
        assertEquals(2.0, IoVsCpu.ratio(a, b), 1e-9, "ratios 2, 3, 0.5");
        assertEquals(0.5, IoVsCpu.ratio(b, a), 1e-9, "ratios 0.5, 1/3, 2");
        var c = new IoVsCpu.Measured("c", 1, null, new double[] {1, 1, 1}, new double[] {10, 40, 90});
        var d = new IoVsCpu.Measured("d", 1, null, new double[] {1, 1, 1}, new double[] {10, 20, 30});
        assertEquals(2.0, IoVsCpu.cpuRatio(c, d), 1e-9, "CPU ratios 1, 2, 3");
    }

    @Test
    @DisplayName("predictions: ⌈N/P⌉·t waves, CPU work bounded by the cores, the mixed floor")
    void predictions() {
        assertAll(
                () -> assertEquals(1_000, IoVsCpu.wavesMillis(20, 2, Duration.ofMillis(100)), 1e-9),
                () -> assertEquals(500, IoVsCpu.wavesMillis(10, 3, Duration.ofMillis(125)), 1e-9),
                () -> assertEquals(400, IoVsCpu.cpuBoundMillis(16, 100, 2, Duration.ofMillis(50)), 1e-9,
                        "100 threads on 2 cores compute like 2"),
                () -> assertEquals(800, IoVsCpu.cpuBoundMillis(16, 1, 2, Duration.ofMillis(50)), 1e-9),
                () -> assertEquals(3_000, IoVsCpu.mixedFloorMillis(60, 2, 2, Duration.ofMillis(10), Duration.ofMillis(90)), 1e-9),
                () -> assertEquals(390, IoVsCpu.mixedFloorMillis(60, 60, 2, Duration.ofMillis(10), Duration.ofMillis(90)), 1e-9),
                () -> assertThrows(IllegalArgumentException.class, () -> IoVsCpu.wavesMillis(1, 0, Duration.ofMillis(1))),
                () -> assertThrows(IllegalArgumentException.class, () -> IoVsCpu.cpuBoundMillis(1, 1, 0, Duration.ofMillis(1))));
    }

    @Test
    @DisplayName("invalid experiments are refused before any thread starts")
    void validation() {
        assertAll(
                () -> assertThrows(IllegalArgumentException.class, () -> IoVsCpu.cpuBound(2, 4, 0, 1)),
                () -> assertThrows(IllegalArgumentException.class, () -> IoVsCpu.compare("x", List.of(), 1, i -> { }, 1)),
                () -> assertThrows(IllegalArgumentException.class,
                        () -> IoVsCpu.compare("x", IoVsCpu.threeExecutors(2), 1, i -> { }, 0)),
                () -> assertThrows(IllegalArgumentException.class,
                        () -> IoVsCpu.mixed(10, 1, Duration.ofMillis(1), List.of())),
                () -> assertThrows(IllegalArgumentException.class, () -> IoVsCpu.computeThenWait(-1, Duration.ZERO)),
                () -> assertThrows(IllegalArgumentException.class,
                        () -> IoVsCpu.ioBound(2, 1_000, Duration.ofMinutes(1))), // 1,000 minutes on one thread
                () -> {
                    var e = assertThrows(IllegalArgumentException.class, () -> IoVsCpu.starvation(2,
                            Duration.ofMillis(5), 2, Duration.ofMillis(50), Duration.ofMillis(50), Duration.ofMillis(1)));
                    assertTrue(e.getMessage().contains("hogEvery"), e.getMessage());
                });
    }

    @Test
    @Timeout(20)
    @DisplayName("a CPU task stops when interrupted: nothing runs away")
    void cpuWorkAnswersInterruption() throws Exception {
        var failure = new AtomicReference<Throwable>();
        var started = new CountDownLatch(1);
        Thread t = Thread.ofVirtual().start(() -> {
            started.countDown();
            try {
                IoVsCpu.computeThenWait(Long.MAX_VALUE, Duration.ZERO).run(0); // years of work
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        assertTrue(started.await(5, TimeUnit.SECONDS));
        t.interrupt();
        assertTrue(t.join(Duration.ofSeconds(10)), "the CPU task did not stop");
        assertTrue(failure.get() instanceof InterruptedException, String.valueOf(failure.get()));
    }

    @Test
    @Timeout(20)
    @DisplayName("mixed: a run per pool size, then virtual threads; tasks compute then wait")
    void mixedSweepShape() throws InterruptedException {
        var m = IoVsCpu.mixed(8, 10_000, Duration.ofMillis(2), List.of(1, 4));
        assertAll(
                () -> assertEquals(3, m.size()),
                () -> assertEquals(1, m.get(0).run().peakConcurrency()),
                () -> assertTrue(m.get(1).run().peakConcurrency() <= 4),
                () -> assertEquals(4, m.get(1).threads()),
                () -> assertEquals(8, m.get(2).run().virtualTasks()),
                () -> m.forEach(x -> assertEquals(0, x.run().failed(), x.executor())));
    }

    @Test
    @Timeout(60)
    @DisplayName("starvation, in a child JVM with one carrier: every virtual thread shares it, and a CPU task holds up every sleep due while it runs")
    void starvationOnOneCarrier() throws InterruptedException {
        var p = new IoVsCpu.Params(2, 2, Duration.ofMillis(1), 1, 1, Duration.ofMillis(1), 1, Duration.ofMillis(1),
                Duration.ofMillis(1), List.of(1), 3, Duration.ofMillis(5), 2, Duration.ofMillis(40), Duration.ofMillis(80),
                Duration.ofMillis(1));
        IoVsCpu.Starvation s = IoVsCpu.starvationInChild(p);
        assertAll(
                () -> assertEquals("1", s.parallelism()),
                () -> assertEquals(1, s.carriers().size(), "carriers: " + s.carriers()),
                () -> assertEquals(IoVsCpu.SCENARIOS, s.scenarios().stream().map(IoVsCpu.Scenario::name).toList()),
                () -> assertEquals(0, s.scenario(IoVsCpu.ALONE).cpuTaskMillis().length),
                () -> assertTrue(s.scenario(IoVsCpu.ALONE).samples() > 0),
                () -> {
                    for (String name : IoVsCpu.SCENARIOS.subList(1, IoVsCpu.SCENARIOS.size())) {
                        assertEquals(2, s.scenario(name).cpuTaskMillis().length, name);
                    }
                },
                () -> {
                    // on the one carrier, a sleep due during a CPU task resumes only when that task ends
                    var hog = s.scenario(IoVsCpu.CPU_VIRTUAL);
                    double floor = hog.shortestCpuTask() - 5;
                    assertTrue(hog.latenessWhileCpuRan().length > 0, "no sleep was due during a CPU task");
                    for (double late : hog.latenessWhileCpuRan()) assertTrue(late >= floor, late + " < " + floor);
                });
        assertNotNull(IoVsCpu.latenessChart(s));
        assertEquals(IoVsCpu.SCENARIOS.size(), IoVsCpu.latenessChart(s).getSeriesCollection().size());
    }

    @Test
    @DisplayName("lateness statistics: quantiles, and the sleeps due while a CPU task ran")
    void latenessStatistics() {
        var sc = new IoVsCpu.Scenario("x", new double[] {5, 15, 25, 35}, new double[] {1, 2, 30, 4},
                new double[] {10}, new double[] {20}, 40);
        assertAll(
                () -> assertEquals(4, sc.samples()),
                () -> assertEquals(2, sc.latenessQuantile(0.5)),
                () -> assertEquals(30, sc.maxLateness()),
                () -> assertEquals(2, sc.latenessWhileCpuRan().length, "due at 15 and 25, inside [10, 30)"),
                () -> assertEquals(2, sc.medianLatenessWhileCpuRan()),
                () -> assertEquals(20, sc.longestCpuTask()),
                () -> assertEquals(1, IoVsCpu.quantile(new double[] {3, 1, 2}, 0)),
                () -> assertEquals(3, IoVsCpu.quantile(new double[] {3, 1, 2}, 1)),
                () -> assertTrue(Double.isNaN(IoVsCpu.quantile(new double[0], 0.5))),
                () -> assertThrows(IllegalArgumentException.class, () -> IoVsCpu.quantile(new double[] {1}, 2)));
    }
}
