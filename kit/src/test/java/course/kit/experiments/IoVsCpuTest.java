package course.kit.experiments;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Recorder;
import course.kit.RunResult;
import course.kit.Scale;
import course.kit.models.IoCpuModel;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@DisplayName("IoVsCpu: notebook 04's model, its instrument for starvation, and its views")
class IoVsCpuTest {
    static final int CORES = Runtime.getRuntime().availableProcessors();

    @Test
    @DisplayName(
            "parameters: whole waves of CPU tasks, the formula's pool in the sweep, CPU tasks that outlast several sleeps")
    void parametersHaveTheShapeThePredictionsNeed() {
        for (Scale scale : Scale.values()) {
            var p = IoVsCpu.params(scale, 2);
            assertAll(
                    scale.toString(),
                    () -> assertEquals(0, p.cpuTasks() % p.cores(), "CPU tasks are a multiple of the cores"),
                    () -> assertTrue(
                            p.cpuHog().compareTo(p.sleep().multipliedBy(5)) >= 0, "a CPU task outlasts several sleeps"),
                    () -> assertTrue(p.mixedPools().contains(p.cores()), "the sweep has a pool of the cores"),
                    () -> assertTrue(
                            p.mixedPools()
                                    .contains(IoVsCpu.formulaPoolSize(p.cores(), 1.0, p.mixedWait(), p.mixedCompute())),
                            "the sweep has the pool the sizing formula gives"),
                    () -> assertTrue(
                            p.mixedTasks() >= IoVsCpu.formulaPoolSize(p.cores(), 1.0, p.mixedWait(), p.mixedCompute()),
                            "more mixed tasks than P*, so Little's law can be seen"));
        }
        assertTrue(IoVsCpu.params(Scale.QUICK, 2).ioTasks()
                < IoVsCpu.params(Scale.FULL, 2).ioTasks());
        assertTrue(IoVsCpu.params(Scale.QUICK, 2).toString().contains("starvation"));
    }

    @Test
    @DisplayName("predictions: ⌈N/P⌉·t waves, CPU work bounded by the cores, the mixed floor, the sizing formula")
    void predictions() {
        assertAll(
                () -> assertEquals(1_000, IoCpuModel.wavesMillis(20, 2, Duration.ofMillis(100)), 1e-9),
                () -> assertEquals(500, IoCpuModel.wavesMillis(10, 3, Duration.ofMillis(125)), 1e-9),
                () -> assertEquals(
                        400,
                        IoCpuModel.cpuBoundMillis(16, 100, 2, Duration.ofMillis(50)),
                        1e-9,
                        "100 threads on 2 cores compute like 2"),
                () -> assertEquals(800, IoCpuModel.cpuBoundMillis(16, 1, 2, Duration.ofMillis(50)), 1e-9),
                () -> assertEquals(
                        3_000, IoVsCpu.mixedFloorMillis(60, 2, 2, Duration.ofMillis(10), Duration.ofMillis(90)), 1e-9),
                () -> assertEquals(
                        390, IoVsCpu.mixedFloorMillis(60, 60, 2, Duration.ofMillis(10), Duration.ofMillis(90)), 1e-9),
                () -> assertEquals(20, IoVsCpu.formulaPoolSize(2, 1.0, Duration.ofMillis(90), Duration.ofMillis(10))),
                () -> assertEquals(4, IoVsCpu.formulaPoolSize(4, 1.0, Duration.ZERO, Duration.ofMillis(10))),
                () -> assertEquals(
                        2, IoVsCpu.formulaPoolSize(3, 0.5, Duration.ofMillis(1), Duration.ofMillis(3)), "1.5·4/3 = 2"),
                () -> assertThrows(
                        IllegalArgumentException.class,
                        () -> IoVsCpu.formulaPoolSize(2, 0, Duration.ZERO, Duration.ofMillis(1))),
                () -> assertThrows(
                        IllegalArgumentException.class,
                        () -> IoVsCpu.formulaPoolSize(2, 1, Duration.ZERO, Duration.ZERO)),
                () -> assertThrows(
                        IllegalArgumentException.class, () -> IoCpuModel.wavesMillis(1, 0, Duration.ofMillis(1))),
                () -> assertThrows(
                        IllegalArgumentException.class,
                        () -> IoCpuModel.cpuBoundMillis(1, 1, 0, Duration.ofMillis(1))));
    }

    @Test
    @DisplayName("bands: a run faster than the cores allow, or far slower, falls outside; the prediction falls inside")
    void bands() {
        var cpu = IoVsCpu.cpuBand(12, 12, 2, Duration.ofMillis(50)); // 300 ms: virtual threads compute like a pool of 2
        var mixed = IoVsCpu.mixedVirtualBand(40, 2, Duration.ofMillis(10), Duration.ofMillis(90)); // 290 ms
        var sliced = IoVsCpu.timeSlicedBand(Duration.ofMillis(10), Duration.ofMillis(210));
        assertAll(
                () -> assertTrue(cpu.contains(300)),
                () -> assertFalse(cpu.contains(150), "12 tasks on 12 cores: a speed-up no 2-core machine gives"),
                () -> assertFalse(cpu.contains(600), "one thread's time"),
                () -> assertTrue(mixed.contains(290)),
                () -> assertFalse(mixed.contains(200), "below the cores' floor"),
                () -> assertFalse(mixed.contains(2_000), "a pool of the cores' time"),
                () -> assertEquals(50, sliced.hi(), 1e-9),
                () -> assertFalse(sliced.contains(190), "starved: a whole CPU task late"));
    }

    @Test
    @Timeout(30)
    @DisplayName(
            "the three executors (reproduce's copy of the cells): one thread one at a time, the pool at most the cores, a virtual thread per task")
    void threeExecutors() {
        var m = IoVsCpu.threeExecutors(CORES, 3 * CORES, () -> course.kit.Tasks.burn(200_000));
        assertAll(
                () -> assertEquals(
                        List.of("one thread", "fixed pool of " + CORES, "virtual thread per task"),
                        m.stream().map(x -> x.run().name()).toList()),
                () -> assertEquals(1, m.get(0).run().peakConcurrency()),
                () -> assertEquals(1, m.get(0).run().threadsUsed()),
                () -> assertTrue(m.get(1).run().peakConcurrency() <= CORES),
                () -> assertEquals(0, m.get(1).run().virtualTasks()),
                () -> assertEquals(3 * CORES, m.get(2).run().virtualTasks()),
                // not time-sliced: a CPU-bound virtual thread keeps its carrier until it ends
                () -> assertTrue(
                        m.get(2).run().peakConcurrency() <= CORES,
                        "at once: " + m.get(2).run().peakConcurrency()),
                () -> m.forEach(x -> assertTrue(x.cpuMillis() >= 0, x.run().name())),
                () -> m.forEach(x -> assertEquals(0, x.run().failed(), x.run().name())));
        // every task waits until all have started: only one thread per task gets there
        var all = new CountDownLatch(50);
        var v = IoVsCpu.run("latch", Executors.newVirtualThreadPerTaskExecutor(), 50, () -> {
            all.countDown();
            if (!all.await(10, TimeUnit.SECONDS)) throw new IllegalStateException("not all tasks ran at once");
        });
        assertEquals(50, v.run().peakConcurrency());
        assertEquals(0, v.run().failed());
    }

    @Test
    @DisplayName("measured: cores busy is CPU time over elapsed time")
    void measured() {
        var rec = Recorder.start("x", 0);
        RunResult r = rec.stop();
        var m = new IoVsCpu.Measured(r, 0);
        assertEquals(0, m.coresBusy(), 1e-9);
        assertThrows(NullPointerException.class, () -> new IoVsCpu.Measured(null, 1));
    }

    @Test
    @Timeout(30)
    @DisplayName(
            "starvation: while a CPU task holds every carrier, no sleeping virtual thread wakes; on platform threads they do")
    void cpuOnEveryCarrierHoldsUpEverySleeper() throws Exception {
        var starved = holdEveryCore(Executors.newVirtualThreadPerTaskExecutor());
        assertAll(
                "CPU tasks on virtual threads",
                () -> assertEquals(CORES, starved.cpuTasks()),
                () -> assertEquals(CORES, starved.cpuOnVirtual()),
                () -> assertTrue(starved.lateWhileCpuRan().length > 0, "no sleep waited while the CPU tasks ran"),
                () -> assertEquals(0, starved.wokeWhileCpuRan(), starved.toString()));
        var sliced = holdEveryCore(Executors.newFixedThreadPool(CORES));
        assertAll(
                "CPU tasks on platform threads",
                () -> assertEquals(0, sliced.cpuOnVirtual()),
                () -> assertTrue(sliced.wokeWhileCpuRan() > 0, sliced.toString()));
    }

    /**
     * Eight virtual threads each start one sleep of 200 ms; right after, one spinning task per core runs on
     * {@code cpu} until 500 ms after all of them run. The sleeps fall due while every spinner runs (unless
     * starting the spinners took 200 ms). A spin never blocks, so on virtual threads it keeps its carrier.
     */
    private static Lateness.Result holdEveryCore(ExecutorService cpu) throws Exception {
        var log = Lateness.start("test");
        var release = new AtomicBoolean();
        var spinning = new CountDownLatch(CORES);
        var sleeping = new CountDownLatch(8);
        try (var io = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 8; i++) {
                io.submit(() -> {
                    long due = System.nanoTime() + 200_000_000;
                    sleeping.countDown();
                    Thread.sleep(200);
                    log.woke(due);
                    return null;
                });
            }
            assertTrue(sleeping.await(10, TimeUnit.SECONDS));
            try (cpu) {
                for (int i = 0; i < CORES; i++) {
                    cpu.submit(log.cpuTask(() -> {
                        spinning.countDown();
                        while (!release.get()) Thread.onSpinWait();
                    }));
                }
                assertTrue(spinning.await(10, TimeUnit.SECONDS)); // this test's thread is a platform thread
                Thread.sleep(500);
                release.set(true);
            }
        }
        return log.stop();
    }

    @Test
    @DisplayName("lateness statistics: the stretch when every CPU task ran, the sleeps due then, those woken then")
    void latenessStatistics() {
        // two CPU tasks: [10, 40) and [12, 30): all running in [12, 30)
        var r = new Lateness.Result(
                "x",
                new double[] {5, 15, 25, 35},
                new double[] {1, 2, 10, 4},
                new double[] {10, 12},
                new double[] {40, 30},
                2);
        assertAll(
                () -> assertEquals(4, r.sleeps()),
                () -> assertEquals(2, r.cpuTasks()),
                () -> assertEquals(18, r.allCpuRunningMillis(), 1e-9),
                () -> assertEquals(
                        2,
                        r.lateWhileCpuRan().length,
                        "due at 15 and 25 (woke at 17 and 35); not due at 5 (woke at 6) or 35"),
                () -> assertEquals(1, r.wokeWhileCpuRan(), "woke at 17, inside [12, 30)"),
                () -> assertEquals(2, r.medianLateWhileCpuRan()),
                () -> assertEquals(10, r.maxLate()),
                () -> assertEquals(
                        1,
                        new Lateness.Result(
                                        "queued",
                                        new double[] {8},
                                        new double[] {25},
                                        new double[] {10, 12},
                                        new double[] {40, 30},
                                        2)
                                .lateWhileCpuRan()
                                .length,
                        "due before the window, woken after it: held up too"),
                () -> assertEquals(18, r.shortestCpuTask(), 1e-9),
                () -> assertEquals(1, Lateness.quantile(new double[] {3, 1, 2}, 0)),
                () -> assertEquals(3, Lateness.quantile(new double[] {3, 1, 2}, 1)),
                () -> assertTrue(Double.isNaN(Lateness.quantile(new double[0], 0.5))),
                () -> assertThrows(IllegalArgumentException.class, () -> Lateness.quantile(new double[] {1}, 2)));
        var none = new Lateness.Result("alone", new double[] {5}, new double[] {1}, new double[0], new double[0], 0);
        assertAll(
                () -> assertNull(none.allCpuRunning()),
                () -> assertEquals(1, none.lateWhileCpuRan().length, "with no CPU tasks, every sleep"),
                () -> assertEquals(0, none.wokeWhileCpuRan()));
    }

    @Test
    @DisplayName("a CPU task that is interrupted is not noted as finished; one that throws rethrows")
    void cpuTaskWrapper() {
        var log = Lateness.start("x");
        log.cpuTask(() -> {
                    throw new InterruptedException();
                })
                .run();
        assertTrue(Thread.interrupted(), "the interrupt is kept");
        assertThrows(
                IllegalStateException.class,
                () -> log.cpuTask(() -> {
                            throw new java.io.IOException("x");
                        })
                        .run());
        log.cpuTask(() -> {}).run();
        assertEquals(1, log.stop().cpuTasks());
    }

    @Test
    @DisplayName("views: tables have a row per run, charts a series per run or scenario")
    void views() {
        var p = IoVsCpu.params(Scale.QUICK, 2);
        RunResult a = Recorder.start("one thread", 0).stop();
        RunResult b = Recorder.start("fixed pool of 2", 0).stop();
        var m = List.of(new IoVsCpu.Measured(a, 1), new IoVsCpu.Measured(b, 1));
        assertEquals(2, IoVsCpuViews.table("t", m, 1, 2).rowCount());
        assertThrows(IllegalArgumentException.class, () -> IoVsCpuViews.table("t", m, 1));
        assertEquals(2, IoVsCpuViews.runs("t", List.of(a, b), 1, 2).rowCount());
        assertEquals(
                3,
                IoVsCpuViews.speedUpChart(List.of(a, b), List.of(a, b), 2)
                        .getSeriesCollection()
                        .size());
        var sweep = new TreeMap<Integer, IoVsCpu.Measured>();
        sweep.put(2, m.get(0));
        sweep.put(20, m.get(1));
        assertEquals(
                4,
                IoVsCpuViews.mixedChart(sweep, m.get(0), p, 20, "P*")
                        .getSeriesCollection()
                        .size());
        assertEquals(
                3,
                IoVsCpuViews.mixedChart(sweep, null, p, 20, "P*")
                        .getSeriesCollection()
                        .size());
        var r = new Lateness.Result("x", new double[] {1}, new double[] {1}, new double[0], new double[0], 0);
        var q = new Lateness.Result("y", new double[0], new double[0], new double[] {0}, new double[] {1}, 1);
        assertEquals(
                2,
                IoVsCpuViews.latenessChart(List.of(r, q)).getSeriesCollection().size());
        var table = IoVsCpuViews.latenessTable("t", List.of(r, q));
        assertEquals(2, table.rowCount());
        assertTrue(table.column("median lateness then (ms)").isMissing(1), "no sleeps: no median, not 0");
    }
}
