package course.kit.experiments;

import course.kit.Band;
import course.kit.Format;
import course.kit.Measure;
import course.kit.Recorder;
import course.kit.Reproduction;
import course.kit.RunResult;
import course.kit.Scale;
import course.kit.Tasks;
import course.kit.models.IoCpuModel;
import course.kit.models.PoolModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Notebook 04's model: the parameters at each scale, the predictions (the cores bound CPU work, waits
 * overlap, the mixed floor, the pool-sizing formula), the bands its timing checks accept, and the rows of
 * {@code ./course reproduce}. The executors and task bodies are in the notebook's cells; {@link Lateness}
 * records the starvation experiment and {@link IoVsCpuViews} draws and tabulates.
 */
public final class IoVsCpu {
    private IoVsCpu() {}

    /**
     * The notebook's parameters at one scale.
     *
     * @param cores        the cores this JVM sees ({@code availableProcessors()}): the pool size and the number
     *                     of carrier threads of the default scheduler
     * @param cpuTasks     how many CPU-bound tasks (a multiple of {@code cores}, so no wave is partial)
     * @param cpuTask      the CPU time of one CPU-bound task on one core
     * @param ioTasks      how many I/O-bound tasks
     * @param ioWait       how long each I/O-bound task waits
     * @param mixedTasks   how many mixed tasks (compute, then wait)
     * @param mixedCompute the compute part C of a mixed task
     * @param mixedWait    the wait part W of a mixed task
     * @param mixedPools   the fixed-pool sizes of the mixed sweep
     * @param sleepers     starvation: how many I/O virtual threads sleep in a loop
     * @param sleep        starvation: how long each of their sleeps is (w)
     * @param cpuHog       starvation: the CPU time of each of the {@code cores} CPU tasks (L)
     */
    public record Params(
            int cores,
            int cpuTasks,
            Duration cpuTask,
            int ioTasks,
            Duration ioWait,
            int mixedTasks,
            Duration mixedCompute,
            Duration mixedWait,
            List<Integer> mixedPools,
            int sleepers,
            Duration sleep,
            Duration cpuHog) {
        public Params {
            if (cores < 1) throw new IllegalArgumentException("cores must be at least 1: " + cores);
            mixedPools = List.copyOf(mixedPools);
        }

        /** One line per experiment, for the notebook's first cell. */
        @Override
        public String toString() {
            return String.format(
                    Locale.ROOT,
                    """
                            cores (availableProcessors): %d
                            CPU-bound:  %d tasks × %s of CPU
                            I/O-bound:  %d tasks × sleep %s
                            mixed:      %d tasks × (compute %s, then wait %s), fixed pools of %s
                            starvation: %d sleepers × sleep %s, while %d CPU tasks of %s run""",
                    cores,
                    cpuTasks,
                    Format.duration(cpuTask),
                    ioTasks,
                    Format.duration(ioWait),
                    mixedTasks,
                    Format.duration(mixedCompute),
                    Format.duration(mixedWait),
                    mixedPools,
                    sleepers,
                    Format.duration(sleep),
                    cores,
                    Format.duration(cpuHog));
        }
    }

    /** The parameters at {@code scale} for a machine with {@code cores} cores. */
    public static Params params(Scale scale, int cores) {
        Objects.requireNonNull(scale, "scale");
        return new Params(
                cores,
                scale.pick(16, 6) * cores,
                Duration.ofMillis(50),
                scale.pick(40, 20),
                scale.pick(Duration.ofMillis(250), Duration.ofMillis(100)),
                scale.pick(400, 40),
                Duration.ofMillis(10),
                Duration.ofMillis(90),
                scale.pick(
                        List.of(cores, 2 * cores, 5 * cores, 10 * cores, 20 * cores),
                        List.of(cores, 5 * cores, 10 * cores, 15 * cores)),
                20,
                Duration.ofMillis(10),
                scale.pick(Duration.ofMillis(500), Duration.ofMillis(200)));
    }

    /** The parameters at {@code scale} for this machine. */
    public static Params params(Scale scale) {
        return params(scale, Runtime.getRuntime().availableProcessors());
    }

    // ---------------------------------------------------------------------------------------------------
    // What a run measured
    // ---------------------------------------------------------------------------------------------------

    /**
     * A recorded run and the CPU time the whole process spent during it (its tasks, and the JIT compiler and
     * garbage collector besides).
     *
     * @param run       what the {@link Recorder} saw
     * @param cpuMillis the process's CPU time from before the first task was submitted until after the last ended
     */
    public record Measured(RunResult run, double cpuMillis) {
        public Measured {
            Objects.requireNonNull(run, "run");
        }

        /** The run's elapsed wall time, in milliseconds. */
        public double elapsedMillis() {
            return run.elapsedMillis();
        }

        /** How many cores were busy on average: CPU time ÷ elapsed time. */
        public double coresBusy() {
            return run.elapsedMillis() == 0 ? 0 : cpuMillis / run.elapsedMillis();
        }
    }

    // ---------------------------------------------------------------------------------------------------
    // Predictions
    // ---------------------------------------------------------------------------------------------------

    /**
     * The predicted elapsed time of {@code count} mixed tasks (compute {@code c}, then wait {@code w}) on
     * {@code threads} threads of a {@code cores}-core machine, the larger of two floors:
     * <ul>
     *   <li>the threads: each finishes a task every c + w at best, so ⌈N/P⌉·(c + w);</li>
     *   <li>the cores: N·c of computing shared by {@code cores}, plus the last task's wait: N·c/cores + w.</li>
     * </ul>
     * For virtual threads pass {@code threads = count}.
     */
    public static double mixedFloorMillis(int count, int threads, int cores, Duration c, Duration w) {
        if (cores < 1) throw new IllegalArgumentException("cores must be at least 1: " + cores);
        double cMs = c.toNanos() / 1e6, wMs = w.toNanos() / 1e6;
        return Math.max(IoCpuModel.wavesMillis(count, threads, c.plus(w)), count * cMs / cores + wMs);
    }

    /**
     * The classic pool size (Goetz, <i>Java Concurrency in Practice</i>) that keeps a fraction {@code u} of
     * the cores busy with tasks that compute {@code c} and wait {@code w}: ⌈cores·U·(1 + W/C)⌉.
     */
    public static int formulaPoolSize(int cores, double u, Duration w, Duration c) {
        if (cores < 1 || !(u > 0 && u <= 1) || w.isNegative() || c.isNegative() || c.isZero()) {
            throw new IllegalArgumentException("needs cores >= 1, 0 < U <= 1, W >= 0 and C > 0");
        }
        return (int) Math.ceil(cores * u * (1 + w.toNanos() / (double) c.toNanos()));
    }

    // ---------------------------------------------------------------------------------------------------
    // The bands the timing checks accept
    // ---------------------------------------------------------------------------------------------------

    /** How far the CPU time of a calibrated task may stray from its target (the appendix measures it). */
    public static final double CALIBRATION = 0.10;

    /**
     * CPU-bound tasks on {@code threads} threads: the prediction ⌈N / min(P, cores)⌉·c, less the calibration's
     * {@value #CALIBRATION} (the only thing that can make CPU work faster than predicted), up to that plus
     * {@value #CALIBRATION} and {@link PoolModel#SLACK_FIXED} for starting the executor and its threads.
     */
    public static Band cpuBand(int count, int threads, int cores, Duration cpu) {
        double predicted = IoCpuModel.cpuBoundMillis(count, threads, cores, cpu);
        return new Band(
                predicted * (1 - CALIBRATION),
                predicted * (1 + CALIBRATION) + PoolModel.SLACK_FIXED.toNanos() / 1e6,
                "ms",
                String.format(
                        Locale.ROOT,
                        "⌈N / min(P, cores)⌉·c = %,.0f ms ± %.0f %% for the calibration of c, + %s to start",
                        predicted,
                        CALIBRATION * 100,
                        Format.duration(PoolModel.SLACK_FIXED)));
    }

    /**
     * Mixed tasks on one virtual thread each: the cores' floor N·C/cores + W (less the calibration's share of
     * the computing), up to that plus {@value #CALIBRATION} of the computing and {@link PoolModel#slack} for one
     * wave of {@code count} virtual threads.
     */
    public static Band mixedVirtualBand(int count, int cores, Duration c, Duration w) {
        double compute = count * (c.toNanos() / 1e6) / cores, wait = w.toNanos() / 1e6;
        double slack = PoolModel.slack(1, 0, count).toNanos() / 1e6;
        return new Band(
                compute * (1 - CALIBRATION) + wait,
                compute * (1 + CALIBRATION) + wait + slack,
                "ms",
                String.format(
                        Locale.ROOT,
                        "N·C/cores + W = %,.0f ms, ± %.0f %% of the computing, + up to %,.0f ms "
                                + "for starting %,d virtual threads",
                        compute + wait,
                        CALIBRATION * 100,
                        slack,
                        count));
    }

    /**
     * How late a sleeper may wake while CPU tasks of {@code cpuHog} run on platform threads: at most a quarter
     * of {@code cpuHog − sleep}, the least a sleeper waits behind a CPU task that holds its carrier. The
     * operating system time-slices platform threads within milliseconds, so a quarter is a wide margin.
     */
    public static Band timeSlicedBand(Duration sleep, Duration cpuHog) {
        double floor = cpuHog.minus(sleep).toNanos() / 1e6;
        return new Band(
                0,
                floor / 4,
                "ms",
                String.format(
                        Locale.ROOT,
                        "a quarter of L − w = %,.0f ms, the least a sleeper waits behind a CPU task on its carrier",
                        floor));
    }

    // ---------------------------------------------------------------------------------------------------
    // Reproduction: the same code as the notebook's cells
    // ---------------------------------------------------------------------------------------------------

    /**
     * Runs {@code tasks} copies of {@code body} on {@code executor}, recorded, and closes it: the notebook's
     * {@code cpuBound} and {@code ioBound} cells, for {@code ./course reproduce}.
     */
    static Measured run(String name, ExecutorService executor, int tasks, Recorder.Body body) {
        var rec = Recorder.start(name, tasks);
        long cpu0 = Measure.processCpuNanos();
        try (executor) {
            for (int i = 0; i < tasks; i++) executor.submit(rec.task(body));
        }
        RunResult run = rec.stop();
        return new Measured(run, (Measure.processCpuNanos() - cpu0) / 1e6);
    }

    /** One platform thread, a fixed pool of the cores, a virtual thread per task: the notebook's three executors. */
    static List<Measured> threeExecutors(int cores, int tasks, Recorder.Body body) {
        return List.of(
                run("one thread", Executors.newSingleThreadExecutor(), tasks, body),
                run("fixed pool of " + cores, Executors.newFixedThreadPool(cores), tasks, body),
                run("virtual thread per task", Executors.newVirtualThreadPerTaskExecutor(), tasks, body));
    }

    /**
     * The articles' claims this notebook tests: CPU-bound work gains nothing from virtual threads (000, 002,
     * 004), while I/O-bound work overlaps its waits.
     */
    public static List<Reproduction> reproduce(Scale scale) throws InterruptedException {
        Params p = params(scale);
        long rounds = Tasks.calibrate(p.cpuTask());
        List<Measured> cpu = threeExecutors(p.cores(), p.cpuTasks(), () -> Tasks.burn(rounds));
        List<Measured> io = threeExecutors(p.cores(), p.ioTasks(), () -> Thread.sleep(p.ioWait()));
        double cpuPredicted = IoCpuModel.cpuBoundMillis(p.cpuTasks(), p.cores(), p.cores(), p.cpuTask());
        var rows = new ArrayList<Reproduction>();
        rows.add(new Reproduction(
                String.format(
                        "CPU-bound: %d × %d ms of CPU, a virtual thread per task",
                        p.cpuTasks(), p.cpuTask().toMillis()),
                "000, 002, 004",
                "no speed-up for CPU-bound work",
                cpuPredicted,
                cpu.get(2).elapsedMillis(),
                "ms",
                String.format(
                        Locale.ROOT,
                        "predicted N·c/cores on %d cores, as for the pool; pool of %d measured %,.0f ms, "
                                + "one thread %,.0f ms; cores busy: one thread %.2f, pool %.2f, virtual %.2f; CPU time "
                                + "virtual ÷ one thread %.2f",
                        p.cores(),
                        p.cores(),
                        cpu.get(1).elapsedMillis(),
                        cpu.get(0).elapsedMillis(),
                        cpu.get(0).coresBusy(),
                        cpu.get(1).coresBusy(),
                        cpu.get(2).coresBusy(),
                        cpu.get(2).cpuMillis() / cpu.get(0).cpuMillis())));
        rows.add(new Reproduction(
                String.format(
                        "I/O-bound: %d × sleep %d ms, a virtual thread per task",
                        p.ioTasks(), p.ioWait().toMillis()),
                "000, 002",
                "waits overlap: the time of one wait",
                p.ioWait().toMillis(),
                io.get(2).elapsedMillis(),
                "ms",
                String.format(
                        Locale.ROOT,
                        "one thread measured %,.0f ms (predicted N·w = %,.0f); pool of %d %,.0f ms "
                                + "(predicted ⌈N/cores⌉·w = %,.0f)",
                        io.get(0).elapsedMillis(),
                        IoCpuModel.wavesMillis(p.ioTasks(), 1, p.ioWait()),
                        p.cores(),
                        io.get(1).elapsedMillis(),
                        IoCpuModel.wavesMillis(p.ioTasks(), p.cores(), p.ioWait()))));
        return rows;
    }
}
