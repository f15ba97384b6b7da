package course.kit.experiments;

import course.kit.ChildJvm;
import course.kit.Limits;
import course.kit.Measure;
import course.kit.Pool;
import course.kit.Progress;
import course.kit.Reproduction;
import course.kit.Run;
import course.kit.RunResult;
import course.kit.Scale;
import course.kit.Task;
import course.kit.Tasks;
import java.awt.Color;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import course.kit.Charts;
import course.kit.Tables;
import java.util.LinkedHashMap;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.Table;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Notebook 04's experiments: the same work on one thread, on a fixed pool sized to the cores, and on one
 * virtual thread per task, for CPU-bound, I/O-bound and mixed tasks; and carrier starvation, where
 * CPU-bound virtual threads hold up I/O-bound ones because virtual threads are not time-sliced.
 *
 * <p>Every run goes through {@link Run#tasks}, so it is timed from creating the executor to its close,
 * answers interruption (the executor is shut down and the CPU loops of {@link Tasks#burn} stop), and
 * refuses sizes this JVM cannot hold ({@link Limits}).
 *
 * <pre>{@code
 * var p = IoVsCpu.params(Scale.current());
 * long iterations = Tasks.calibrate(p.cpuTask());
 * List<IoVsCpu.Measured> cpu = IoVsCpu.cpuBound(p.cores(), p.cpuTasks(), iterations, p.reps());
 * }</pre>
 */
public final class IoVsCpu {
    private IoVsCpu() {}

    // ---------------------------------------------------------------------------------------------------
    // Parameters
    // ---------------------------------------------------------------------------------------------------

    /**
     * The notebook's parameters at one scale.
     *
     * @param cores            the cores this JVM sees ({@code availableProcessors()}): the pool size and the
     *                         default number of carrier threads
     * @param cpuTasks         how many CPU-bound tasks (a multiple of {@code cores}, so no wave is partial)
     * @param cpuTask          the CPU time of one CPU-bound task on one core
     * @param reps             repetitions of each CPU-bound run (the median is reported)
     * @param ioTasks          how many I/O-bound tasks
     * @param ioWait           how long each I/O-bound task waits
     * @param mixedTasks       how many mixed tasks (compute, then wait)
     * @param mixedCompute     the compute part C of a mixed task
     * @param mixedWait        the wait part W of a mixed task
     * @param mixedPools       the fixed-pool sizes of the mixed sweep
     * @param ioThreads        starvation: how many I/O virtual threads sleep in a loop
     * @param ioSleep          starvation: how long each of their sleeps is
     * @param hogs             starvation: how many CPU-bound tasks arrive, one every {@code hogEvery}
     * @param hogLength        starvation: the CPU time of one of those tasks
     * @param hogEvery         starvation: the time between two arrivals (longer than {@code hogLength})
     * @param yieldEvery       starvation fix: how much CPU time a task runs between two {@code Thread.yield()}
     */
    public record Params(int cores, int cpuTasks, Duration cpuTask, int reps,
                         int ioTasks, Duration ioWait,
                         int mixedTasks, Duration mixedCompute, Duration mixedWait, List<Integer> mixedPools,
                         int ioThreads, Duration ioSleep, int hogs, Duration hogLength, Duration hogEvery,
                         Duration yieldEvery) {
        public Params {
            if (cores < 1) throw new IllegalArgumentException("cores must be at least 1: " + cores);
            mixedPools = List.copyOf(mixedPools);
        }

        /** One line per part, for the notebook's first cell. */
        @Override
        public String toString() {
            return String.format("""
                            cores (availableProcessors): %d
                            CPU-bound: %d tasks × %d ms of CPU, %d repetitions
                            I/O-bound: %d tasks × sleep %d ms
                            mixed:     %d tasks × (compute %d ms, then wait %d ms), fixed pools of %s
                            starvation: %d I/O virtual threads × sleep %d ms; %d CPU tasks of %d ms, one every %d ms; yield every %d ms""",
                    cores, cpuTasks, cpuTask.toMillis(), reps, ioTasks, ioWait.toMillis(),
                    mixedTasks, mixedCompute.toMillis(), mixedWait.toMillis(), mixedPools,
                    ioThreads, ioSleep.toMillis(), hogs, hogLength.toMillis(), hogEvery.toMillis(), yieldEvery.toMillis());
        }
    }

    /** The parameters at {@code scale} for a machine with {@code cores} cores. */
    public static Params params(Scale scale, int cores) {
        Objects.requireNonNull(scale, "scale");
        int waves = scale.pick(16, 6);
        return new Params(cores,
                waves * cores, Duration.ofMillis(50), scale.pick(5, 5),
                scale.pick(40, 20), scale.pick(Duration.ofMillis(250), Duration.ofMillis(100)),
                scale.pick(400, 60), Duration.ofMillis(10), Duration.ofMillis(90),
                scale.pick(List.of(cores, 2 * cores, 5 * cores, 10 * cores, 20 * cores),
                        List.of(cores, 5 * cores, 10 * cores, 20 * cores)),
                8, Duration.ofMillis(10), 4,
                scale.pick(Duration.ofMillis(500), Duration.ofMillis(100)),
                scale.pick(Duration.ofMillis(1000), Duration.ofMillis(250)),
                Duration.ofMillis(1));
    }

    /** The parameters at {@code scale} for this machine. */
    public static Params params(Scale scale) {
        return params(scale, Runtime.getRuntime().availableProcessors());
    }

    // ---------------------------------------------------------------------------------------------------
    // One thread, a pool of cores, a virtual thread per task
    // ---------------------------------------------------------------------------------------------------

    /**
     * The notebook's three executors: one platform thread (the sequential baseline), a fixed pool of
     * {@code cores} platform threads, and one new virtual thread per task.
     */
    public static List<Pool> threeExecutors(int cores) {
        if (cores < 1) throw new IllegalArgumentException("cores must be at least 1: " + cores);
        return List.of(Pool.fixed(1).named("one thread"),
                Pool.fixed(cores).named(String.format("fixed pool of %d (cores)", cores)),
                Pool.virtual());
    }

    /**
     * What one executor measured over its repetitions.
     *
     * @param executor      the executor's name
     * @param threads       how many platform threads it may use for the tasks (0 for virtual threads)
     * @param run           the repetition with the median elapsed time (for charts)
     * @param elapsedMillis the elapsed time of every repetition
     * @param cpuMillis     the process's CPU time during every repetition (all threads: tasks, JIT, GC)
     */
    public record Measured(String executor, int threads, RunResult run, double[] elapsedMillis, double[] cpuMillis) {
        /** The median elapsed time, in milliseconds. */
        public double medianMillis() { return median(elapsedMillis); }

        /** The median process CPU time, in milliseconds. */
        public double medianCpuMillis() { return median(cpuMillis); }

        /** How many cores were busy on average: CPU time ÷ elapsed time (median repetition of each). */
        public double coresBusy() { return medianMillis() == 0 ? 0 : medianCpuMillis() / medianMillis(); }
    }

    /**
     * Runs {@code count} copies of {@code task} on each pool, {@code reps} times, the pools taking turns
     * within each repetition (and each repetition starting with the next pool), so that a burst of
     * background load hits all of them alike and {@link #ratio} can compare runs made close together.
     * Shows one progress line for the whole comparison.
     *
     * @return one {@link Measured} per pool, in the pools' order
     */
    public static List<Measured> compare(String label, List<Pool> pools, int count, Task task, int reps)
            throws InterruptedException {
        Objects.requireNonNull(pools, "pools");
        Objects.requireNonNull(task, "task");
        if (pools.isEmpty()) throw new IllegalArgumentException("no pools to compare");
        if (reps < 1) throw new IllegalArgumentException("reps must be at least 1: " + reps);
        if (count < 1) throw new IllegalArgumentException("count must be at least 1: " + count);
        var runs = new ArrayList<List<RunResult>>();
        var elapsed = new double[pools.size()][reps];
        var cpu = new double[pools.size()][reps];
        for (int p = 0; p < pools.size(); p++) runs.add(new ArrayList<>());
        var done = new AtomicInteger();
        try (var progress = Progress.start(label, pools.size() * reps, done::get)) {
            for (int r = 0; r < reps; r++) {
                for (int k = 0; k < pools.size(); k++) {
                    int p = (r + k) % pools.size(); // each repetition starts with the next pool: no pool always goes first
                    long c0 = Measure.processCpuNanos();
                    RunResult run = Run.tasks(pools.get(p), count, task);
                    cpu[p][r] = (Measure.processCpuNanos() - c0) / 1e6;
                    elapsed[p][r] = run.elapsedMillis();
                    runs.get(p).add(run);
                    done.incrementAndGet();
                }
            }
        }
        var out = new ArrayList<Measured>();
        for (int p = 0; p < pools.size(); p++) {
            Pool pool = pools.get(p);
            out.add(new Measured(pool.name(), pool.virtualThreads() ? 0 : pool.platformThreads(),
                    medianRun(runs.get(p)), elapsed[p], cpu[p]));
        }
        return out;
    }

    /**
     * The ratio of two executors' elapsed times, {@code a ÷ b}, as the median over the repetitions of the
     * ratio within each repetition: runs of one repetition are made seconds apart, so they share the same
     * background load, which a ratio of two medians would not guarantee.
     */
    public static double ratio(Measured a, Measured b) {
        return pairedRatio(a.elapsedMillis(), b.elapsedMillis());
    }

    /**
     * The ratio of two executors' process CPU time, {@code a ÷ b}, paired by repetition like {@link #ratio}.
     * The same work costs the same CPU time on any executor, and CPU time hardly depends on what else the
     * machine runs, so this ratio stays near 1 on a busy machine where elapsed times scatter.
     */
    public static double cpuRatio(Measured a, Measured b) {
        return pairedRatio(a.cpuMillis(), b.cpuMillis());
    }

    private static double pairedRatio(double[] a, double[] b) {
        int n = Math.min(a.length, b.length);
        if (n == 0) throw new IllegalArgumentException("no repetitions");
        double[] r = new double[n];
        for (int i = 0; i < n; i++) r[i] = a[i] / b[i];
        return median(r);
    }

    /**
     * CPU-bound: {@code count} tasks of {@code iterations} rounds of {@link Tasks#burn} on one thread, on a
     * fixed pool of {@code cores}, and on a virtual thread per task.
     */
    public static List<Measured> cpuBound(int cores, int count, long iterations, int reps) throws InterruptedException {
        if (iterations < 1) throw new IllegalArgumentException("iterations must be at least 1: " + iterations);
        Limits.requireVirtualThreads(count);
        return compare("CPU-bound tasks on 3 executors", threeExecutors(cores), count, Tasks.cpu(iterations), reps);
    }

    /** I/O-bound: {@code count} tasks that each sleep {@code wait}, on the three executors, once each. */
    public static List<Measured> ioBound(int cores, int count, Duration wait) throws InterruptedException {
        Limits.requireDuration("the I/O-bound run on one thread", wait.multipliedBy(Math.max(1, count)));
        Limits.requireVirtualThreads(count);
        return compare("I/O-bound tasks on 3 executors", threeExecutors(cores), count, Tasks.sleep(wait), 1);
    }

    /** The predicted elapsed time of {@code count} tasks of {@code each} on {@code threads} threads: ⌈N/P⌉·t. */
    public static double wavesMillis(int count, int threads, Duration each) {
        if (threads < 1) throw new IllegalArgumentException("threads must be at least 1: " + threads);
        if (count < 0) throw new IllegalArgumentException("count cannot be negative: " + count);
        return Math.ceil(count / (double) threads) * each.toNanos() / 1e6;
    }

    /**
     * The predicted elapsed time of {@code count} CPU-bound tasks of {@code cpu} each, on {@code threads}
     * threads of a machine with {@code cores} cores: at most {@code min(threads, cores)} tasks make
     * progress at once, so ⌈N / min(P, cores)⌉·c (N·c/cores when N is a multiple of the cores).
     */
    public static double cpuBoundMillis(int count, int threads, int cores, Duration cpu) {
        if (cores < 1) throw new IllegalArgumentException("cores must be at least 1: " + cores);
        return wavesMillis(count, Math.min(threads, cores), cpu);
    }

    // ---------------------------------------------------------------------------------------------------
    // Mixed: compute, then wait
    // ---------------------------------------------------------------------------------------------------

    /** A task that computes {@code iterations} rounds of {@link Tasks#burn}, then sleeps {@code wait}. */
    public static Task computeThenWait(long iterations, Duration wait) {
        if (iterations < 0) throw new IllegalArgumentException("iterations cannot be negative: " + iterations);
        Objects.requireNonNull(wait, "wait");
        if (wait.isNegative()) throw new IllegalArgumentException("wait cannot be negative: " + wait);
        Task cpu = Tasks.cpu(iterations);
        return i -> {
            cpu.run(i);
            Thread.sleep(wait);
        };
    }

    /**
     * The mixed sweep: {@code count} tasks of {@link #computeThenWait} on a fixed pool of each size in
     * {@code poolSizes}, then on a virtual thread per task; one run each.
     *
     * @return one {@link Measured} per pool size, then the virtual-thread run last
     */
    public static List<Measured> mixed(int count, long iterations, Duration wait, List<Integer> poolSizes)
            throws InterruptedException {
        Objects.requireNonNull(poolSizes, "poolSizes");
        int smallest = poolSizes.stream().mapToInt(Integer::intValue).min()
                .orElseThrow(() -> new IllegalArgumentException("no pool sizes"));
        Limits.requirePlatformThreads(poolSizes.stream().mapToInt(Integer::intValue).max().orElse(1));
        Limits.requireVirtualThreads(count);
        Limits.requireDuration("the mixed run on the smallest pool", Duration.ofNanos(
                (long) (wavesMillis(count, Math.max(1, smallest), wait) * 1e6)).multipliedBy(2));
        var pools = new ArrayList<Pool>();
        for (int size : poolSizes) pools.add(Pool.fixed(size));
        pools.add(Pool.virtual());
        return compare("mixed tasks: pools of " + poolSizes + " and virtual threads", pools, count,
                computeThenWait(iterations, wait), 1);
    }

    /**
     * The predicted elapsed time of {@code count} mixed tasks (compute {@code c}, then wait {@code w}) on
     * {@code threads} threads of a {@code cores}-core machine, the larger of two floors:
     * <ul>
     *   <li>the threads: each finishes a task every c + w at best, so ⌈N/P⌉·(c + w);</li>
     *   <li>the cores: N·c of computing shared by {@code cores}, plus the last task's wait: N·c/cores + w.</li>
     * </ul>
     * For virtual threads pass {@code threads = count}. Real pools land above the floor near the point
     * where the two meet (their threads compute in step, see the notebook).
     */
    public static double mixedFloorMillis(int count, int threads, int cores, Duration c, Duration w) {
        if (cores < 1) throw new IllegalArgumentException("cores must be at least 1: " + cores);
        double cMs = c.toNanos() / 1e6, wMs = w.toNanos() / 1e6;
        return Math.max(wavesMillis(count, threads, c.plus(w)), count * cMs / cores + wMs);
    }

    // ---------------------------------------------------------------------------------------------------
    // Carrier starvation
    // ---------------------------------------------------------------------------------------------------

    /** The JVM options of the starvation child: one carrier thread, and no extra carrier when blocked. */
    public static final List<String> ONE_CARRIER = List.of("-Xmx256m",
            "-Djdk.virtualThreadScheduler.parallelism=1", "-Djdk.virtualThreadScheduler.maxPoolSize=1");

    /** The baseline: the I/O threads alone. */
    public static final String ALONE = "I/O alone";
    /** CPU tasks on virtual threads, sharing the carriers with the I/O threads. */
    public static final String CPU_VIRTUAL = "+ CPU (virtual)";
    /** CPU tasks on virtual threads that call {@code Thread.yield()} every {@code yieldEvery} of work. */
    public static final String CPU_YIELDS = "+ CPU, yield()";
    /** CPU tasks on virtual threads that park for a nanosecond every {@code yieldEvery} of work. */
    public static final String CPU_PAUSES = "+ CPU, park 1 ns";
    /** CPU tasks on a fixed pool of platform threads, which the OS time-slices. */
    public static final String CPU_PLATFORM = "+ CPU (platform pool)";
    /** The starvation experiment's scenarios, in the order they run. */
    public static final List<String> SCENARIOS = List.of(ALONE, CPU_VIRTUAL, CPU_YIELDS, CPU_PAUSES, CPU_PLATFORM);

    /**
     * One scenario of the starvation experiment.
     *
     * @param name           the scenario
     * @param wakeAtMillis   per sleep of an I/O thread: when it was due to wake (ms since the scenario's start)
     * @param latenessMillis per sleep: how much later than due the thread actually resumed
     * @param cpuStartMillis per CPU task: when its first instruction ran (ms since the scenario's start)
     * @param cpuTaskMillis  per CPU task: its wall time from its first to its last instruction
     * @param elapsedMillis  the scenario's length
     */
    public record Scenario(String name, double[] wakeAtMillis, double[] latenessMillis, double[] cpuStartMillis,
                           double[] cpuTaskMillis, double elapsedMillis) {
        /** How many sleeps were measured. */
        public int samples() { return latenessMillis.length; }

        /** The q-quantile of the lateness (0 ≤ q ≤ 1), nearest rank. */
        public double latenessQuantile(double q) { return quantile(latenessMillis, q); }

        /** The largest lateness. */
        public double maxLateness() { return Arrays.stream(latenessMillis).max().orElse(Double.NaN); }

        /**
         * The lateness of the sleeps that were due while a CPU task was running: the ones a CPU task could
         * hold up. With no CPU tasks (the baseline), every sleep's lateness.
         */
        public double[] latenessWhileCpuRan() {
            if (cpuStartMillis.length == 0) return latenessMillis.clone();
            var out = new ArrayList<Double>();
            for (int i = 0; i < wakeAtMillis.length; i++) {
                for (int h = 0; h < cpuStartMillis.length; h++) {
                    if (wakeAtMillis[i] >= cpuStartMillis[h] && wakeAtMillis[i] < cpuStartMillis[h] + cpuTaskMillis[h]) {
                        out.add(latenessMillis[i]);
                        break;
                    }
                }
            }
            return out.stream().mapToDouble(Double::doubleValue).toArray();
        }

        /** The median of {@link #latenessWhileCpuRan()} (NaN when no sleep was due during a CPU task). */
        public double medianLatenessWhileCpuRan() { return quantile(latenessWhileCpuRan(), 0.5); }

        /** The longest CPU task (NaN when the scenario ran none). */
        public double longestCpuTask() { return Arrays.stream(cpuTaskMillis).max().orElse(Double.NaN); }

        /** The shortest CPU task (NaN when the scenario ran none). */
        public double shortestCpuTask() { return Arrays.stream(cpuTaskMillis).min().orElse(Double.NaN); }
    }

    /**
     * What the starvation experiment saw.
     *
     * @param parallelism the scheduler's parallelism property in that JVM ("default" when not set)
     * @param cores       that JVM's available processors
     * @param carriers    the distinct carrier threads the virtual threads ran on, over all scenarios
     * @param ioThreads   how many I/O virtual threads slept in a loop
     * @param cpuIterations the {@link Tasks#burn} rounds of one CPU task (calibrated in that JVM)
     * @param scenarios   one per entry of {@link #SCENARIOS}, in that order
     */
    public record Starvation(String parallelism, int cores, List<String> carriers, int ioThreads, long cpuIterations,
                             List<Scenario> scenarios) {
        /** The scenario of that name. */
        public Scenario scenario(String name) {
            return scenarios.stream().filter(s -> s.name().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no scenario named " + name));
        }
    }

    /**
     * Runs the starvation experiment in a child JVM with {@link #ONE_CARRIER}: one carrier thread for all
     * virtual threads. The call can be interrupted (the child is then destroyed).
     */
    public static Starvation starvationInChild(Params p) throws InterruptedException {
        return starvationInChild(ONE_CARRIER, p);
    }

    /**
     * Runs the starvation experiment in a child JVM started with {@code jvmOptions} (for example another
     * {@code -Djdk.virtualThreadScheduler.parallelism}). Shows a progress line, by elapsed time against
     * the expected length, while the child runs.
     */
    public static Starvation starvationInChild(List<String> jvmOptions, Params p) throws InterruptedException {
        Objects.requireNonNull(jvmOptions, "jvmOptions");
        long expectedMillis = SCENARIOS.size() * p.hogs() * p.hogEvery().toMillis() + 1_500;
        long t0 = System.nanoTime();
        int tenths = (int) Math.max(1, expectedMillis / 100);
        try (var progress = Progress.start(String.format("child JVM %s: %d scenarios, about %.0f s",
                        String.join(" ", jvmOptions), SCENARIOS.size(), expectedMillis / 1000.0), tenths,
                () -> (int) Math.min(tenths, (System.nanoTime() - t0) / 100_000_000L))) {
            return ChildJvm.call(jvmOptions, Starvation.class, IoVsCpu.class, "starvation",
                    String.valueOf(p.ioThreads()), p.ioSleep().toString(), String.valueOf(p.hogs()),
                    p.hogLength().toString(), p.hogEvery().toString(), p.yieldEvery().toString());
        }
    }

    /**
     * The starvation experiment, in this JVM (run it in a child with {@link #starvationInChild} to limit the
     * carriers). {@code ioThreads} virtual threads sleep {@code ioSleep} in a loop and record, for every
     * sleep, how late they resumed. Meanwhile {@code hogs} CPU tasks of {@code hogLength} arrive, one every
     * {@code hogEvery}, and run:
     * <ol>
     *   <li>not at all ("I/O alone", the baseline, for the same length of time);</li>
     *   <li>on virtual threads, sharing the I/O threads' carriers;</li>
     *   <li>on virtual threads that call {@code Thread.yield()} after every {@code yieldEvery} of work;</li>
     *   <li>on virtual threads that park for one nanosecond ({@code LockSupport.parkNanos(1)}) after every
     *       {@code yieldEvery} of work;</li>
     *   <li>on a fixed pool of {@code availableProcessors()} platform threads, which the OS time-slices.</li>
     * </ol>
     * Every CPU task is bounded (a fixed number of rounds) and stops when interrupted.
     */
    public static Starvation starvation(int ioThreads, Duration ioSleep, int hogs, Duration hogLength,
                                        Duration hogEvery, Duration yieldEvery) throws InterruptedException {
        if (ioThreads < 1) throw new IllegalArgumentException("ioThreads must be at least 1: " + ioThreads);
        if (hogs < 1) throw new IllegalArgumentException("hogs must be at least 1: " + hogs);
        Limits.requireDuration("ioSleep", ioSleep);
        Limits.requireDuration("hogLength", hogLength);
        Limits.requireDuration("yieldEvery", yieldEvery);
        Limits.requireDuration("the starvation experiment", hogEvery.multipliedBy(hogs * 4L));
        if (hogEvery.compareTo(hogLength) <= 0) {
            throw new IllegalArgumentException("hogEvery (" + hogEvery.toMillis() + " ms) must be longer than hogLength ("
                    + hogLength.toMillis() + " ms): one CPU task at a time, so that each delay is one task's length");
        }
        Limits.requireVirtualThreads(ioThreads + hogs);
        long iterations = Tasks.calibrate(hogLength);     // also warms up the JIT for burn()
        long chunk = Math.max(1, iterations * yieldEvery.toNanos() / hogLength.toNanos());
        Set<String> carriers = ConcurrentHashMap.newKeySet();
        var scenarios = new ArrayList<Scenario>();
        for (String name : SCENARIOS) {
            scenarios.add(scenario(name, ioThreads, ioSleep, hogs, iterations, chunk, hogEvery, carriers));
        }
        String parallelism = System.getProperty("jdk.virtualThreadScheduler.parallelism", "default");
        return new Starvation(parallelism, Runtime.getRuntime().availableProcessors(),
                List.copyOf(new java.util.TreeSet<>(carriers)), ioThreads, iterations, scenarios);
    }

    private static Scenario scenario(String name, int ioThreads, Duration ioSleep, int hogs, long iterations,
                                     long chunk, Duration hogEvery, Set<String> carriers) throws InterruptedException {
        var sleeps = new ConcurrentLinkedQueue<long[]>(); // {sleep began, resumed}, System.nanoTime
        var cpuTasks = new ConcurrentLinkedQueue<long[]>(); // {first instruction, last}, System.nanoTime
        var stop = new AtomicBoolean();
        var sleeping = new CountDownLatch(ioThreads);
        long t0;
        try (ExecutorService io = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int k = 0; k < ioThreads; k++) {
                io.execute(() -> {
                    carriers.add(carrierOf(Thread.currentThread()));
                    sleeping.countDown();
                    try {
                        while (!stop.get()) {
                            long s = System.nanoTime();
                            Thread.sleep(ioSleep);
                            long e = System.nanoTime();
                            carriers.add(carrierOf(Thread.currentThread()));
                            sleeps.add(new long[] {s, e});
                        }
                    } catch (InterruptedException ignored) {
                        // shut down: stop measuring
                    }
                });
            }
            try {
                if (!sleeping.await(10, TimeUnit.SECONDS)) throw new IllegalStateException("the I/O threads did not start");
                t0 = System.nanoTime(); // the scenario starts when every I/O thread is in its loop
                runCpu(name, hogs, iterations, chunk, hogEvery, cpuTasks, carriers, t0);
            } finally {
                stop.set(true);
                if (Thread.currentThread().isInterrupted()) io.shutdownNow();
            }
        }
        long elapsed = System.nanoTime() - t0;
        long sleepNanos = ioSleep.toNanos();
        var kept = sleeps.stream().filter(s -> s[0] + sleepNanos >= t0).sorted((a, b) -> Long.compare(a[0], b[0])).toList();
        double[] wake = kept.stream().mapToDouble(s -> (s[0] + sleepNanos - t0) / 1e6).toArray();
        double[] late = kept.stream().mapToDouble(s -> (s[1] - s[0] - sleepNanos) / 1e6).toArray();
        var cpu = cpuTasks.stream().sorted((a, b) -> Long.compare(a[0], b[0])).toList();
        return new Scenario(name, wake, late, cpu.stream().mapToDouble(c -> (c[0] - t0) / 1e6).toArray(),
                cpu.stream().mapToDouble(c -> (c[1] - c[0]) / 1e6).toArray(), elapsed / 1e6);
    }

    private static void runCpu(String name, int hogs, long iterations, long chunk, Duration hogEvery,
                               ConcurrentLinkedQueue<long[]> cpuTasks, Set<String> carriers, long t0)
            throws InterruptedException {
        if (name.equals(ALONE)) {
            Thread.sleep(hogEvery.multipliedBy(hogs));
            return;
        }
        boolean onVirtual = !name.equals(CPU_PLATFORM);
        ExecutorService cpu = onVirtual ? Executors.newVirtualThreadPerTaskExecutor()
                : Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
        try (cpu) {
            for (int h = 0; h < hogs; h++) {
                long due = t0 + h * hogEvery.toNanos();
                long now = System.nanoTime();
                if (due > now) TimeUnit.NANOSECONDS.sleep(due - now);
                cpu.execute(() -> {
                    if (Thread.currentThread().isVirtual()) carriers.add(carrierOf(Thread.currentThread()));
                    long s = System.nanoTime();
                    try {
                        switch (name) {
                            case CPU_YIELDS -> burnInSteps(iterations, chunk, Thread::yield);
                            case CPU_PAUSES -> burnInSteps(iterations, chunk, () -> LockSupport.parkNanos(1));
                            default -> Tasks.burn(iterations);
                        }
                    } catch (InterruptedException e) {
                        return; // shut down
                    }
                    cpuTasks.add(new long[] {s, System.nanoTime()});
                });
            }
            Thread.sleep(hogEvery); // the last task's turn, as long as each of the others had
        } catch (InterruptedException e) {
            cpu.shutdownNow();
            throw e;
        }
    }

    /** {@link Tasks#burn}, {@code iterations} rounds in steps of {@code chunk}, running {@code between} after each step. */
    public static void burnInSteps(long iterations, long chunk, Runnable between) throws InterruptedException {
        if (chunk < 1) throw new IllegalArgumentException("chunk must be at least 1: " + chunk);
        Objects.requireNonNull(between, "between");
        for (long left = iterations; left > 0; left -= chunk) {
            Tasks.burn(Math.min(chunk, left));
            between.run();
        }
    }

    /** The carrier's name from a mounted virtual thread's toString ("VirtualThread[#22]/runnable@ForkJoinPool-1-worker-1"). */
    static String carrierOf(Thread t) {
        if (!t.isVirtual()) return t.getName();
        String s = t.toString();
        int at = s.lastIndexOf('@');
        return at < 0 ? "?" : s.substring(at + 1);
    }

    /** Lateness over time, one marker per sleep, one colour per scenario. */
    public static XYChart latenessChart(Starvation s) {
        XYChart c = Charts.xy(String.format(
                        "Wake-up lateness of %d I/O virtual threads on %d carrier%s (each dot: one sleep)",
                        s.ioThreads(), s.carriers().size(), s.carriers().size() == 1 ? "" : "s"),
                "time since the first CPU task arrived (ms)", "resumed late by (ms)");
        Color[] colours = {new Color(0x2ca02c), new Color(0xd62728), new Color(0xff7f0e), new Color(0x9467bd),
                new Color(0x1f77b4)};
        int k = 0;
        for (Scenario sc : s.scenarios()) {
            double[] xs = sc.wakeAtMillis().length == 0 ? new double[] {0} : sc.wakeAtMillis();
            double[] ys = sc.latenessMillis().length == 0 ? new double[] {0} : sc.latenessMillis();
            XYSeries series = c.addSeries(sc.name(), xs, ys);
            series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            series.setMarker(SeriesMarkers.CIRCLE);
            series.setMarkerColor(colours[k++ % colours.length]);
        }
        c.getStyler().setMarkerSize(5);
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
        return c;
    }


    // ---------------------------------------------------------------------------------------------------
    // Tables and charts
    // ---------------------------------------------------------------------------------------------------

    /**
     * One row per executor: its platform threads, the median elapsed time against {@code predictedMillis}
     * (one per executor, in the same order), every repetition, the cores it kept busy, and its peak.
     */
    public static Table table(String title, List<Measured> measured, double[] predictedMillis) {
        Objects.requireNonNull(measured, "measured");
        if (predictedMillis.length != measured.size()) {
            throw new IllegalArgumentException(predictedMillis.length + " predictions for " + measured.size() + " executors");
        }
        var b = Tables.of(title, "executor", "platform threads", "tasks", "median elapsed (ms)", "predicted (ms)",
                "measured ÷ predicted", "each run (ms)", "cores busy", "tasks in flight at peak");
        for (int i = 0; i < measured.size(); i++) {
            Measured m = measured.get(i);
            String threads = m.threads() == 0 ? "0 (virtual threads)" : m.threads() < 0 ? "one per task" : String.valueOf(m.threads());
            b.row(m.executor(), threads, m.run().count(),
                    Tables.round(m.medianMillis(), 1), Tables.round(predictedMillis[i], 1),
                    Tables.round(m.medianMillis() / predictedMillis[i], 2),
                    Arrays.stream(m.elapsedMillis()).mapToObj(x -> String.format("%,.0f", x))
                            .collect(java.util.stream.Collectors.joining(" · ")),
                    Tables.round(m.coresBusy(), 2), m.run().peakConcurrency());
        }
        return b.table();
    }

    /** Speed-up over the first executor ("one thread"), for CPU-bound and I/O-bound work side by side. */
    public static CategoryChart speedUpChart(List<Measured> cpu, List<Measured> io, int cores) {
        if (cpu.size() != io.size()) throw new IllegalArgumentException("the two comparisons differ in size");
        var names = cpu.stream().map(Measured::executor).toList();
        Map<String, List<? extends Number>> series = new LinkedHashMap<>();
        series.put("CPU-bound", cpu.stream().map(m -> Tables.round(ratio(cpu.get(0), m), 2)).toList());
        series.put("I/O-bound", io.stream().map(m -> Tables.round(ratio(io.get(0), m), 2)).toList());
        series.put("cores (the CPU-bound limit)", names.stream().map(n -> (Number) cores).toList());
        var c = Charts.groupedBars("Speed-up over one thread: the same executors, opposite verdicts",
                "speed-up over one thread (×)", names, series);
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        return c;
    }

    /**
     * The mixed sweep: elapsed time against the pool size, measured and the predicted floor,
     * the virtual-thread run as a level line, and the pool size the sizing formula gives.
     */
    public static XYChart mixedChart(List<Measured> measured, Params p, int formulaPoolSize) {
        int pools = p.mixedPools().size();
        if (measured.size() != pools + 1) throw new IllegalArgumentException("expected " + (pools + 1) + " runs");
        double[] xs = p.mixedPools().stream().mapToDouble(Integer::doubleValue).toArray();
        double[] ys = measured.subList(0, pools).stream().mapToDouble(Measured::medianMillis).toArray();
        int lo = p.mixedPools().stream().mapToInt(Integer::intValue).min().orElse(1);
        int hi = p.mixedPools().stream().mapToInt(Integer::intValue).max().orElse(1);
        double[] fx = java.util.stream.IntStream.rangeClosed(lo, hi).asDoubleStream().toArray();
        double[] fy = Arrays.stream(fx).map(x -> mixedFloorMillis(p.mixedTasks(), (int) x, p.cores(),
                p.mixedCompute(), p.mixedWait())).toArray();
        double virtual = measured.get(pools).medianMillis();
        double top = Math.max(Arrays.stream(ys).max().orElse(1), fy[0]) * 1.05;
        Map<String, double[][]> series = new LinkedHashMap<>();
        series.put("fixed pool (measured)", new double[][] {xs, ys});
        series.put("predicted floor max(⌈N/P⌉·(C+W), N·C/cores + W)", new double[][] {fx, fy});
        series.put("virtual thread per task (measured)", new double[][] {{lo, hi}, {virtual, virtual}});
        series.put(String.format("formula's pool size P* = %d", formulaPoolSize),
                new double[][] {{formulaPoolSize, formulaPoolSize}, {0, top}});
        var c = Charts.lines(String.format("Mixed work: %d tasks × (compute %d ms, then wait %d ms) on %d cores",
                        p.mixedTasks(), p.mixedCompute().toMillis(), p.mixedWait().toMillis(), p.cores()),
                "platform threads in the pool", "elapsed (ms)", series);
        c.getStyler().setYAxisMin(0.0);
        var seriesList = new ArrayList<>(c.getSeriesCollection());
        seriesList.get(2).setMarker(SeriesMarkers.NONE);
        seriesList.get(3).setMarker(SeriesMarkers.NONE);
        return c;
    }

    /** Per scenario: sleeps measured, CPU tasks and their length, and the lateness figures. */
    public static Table starvationTable(Starvation s) {
        var b = Tables.of(String.format("Wake-up lateness of %d I/O virtual threads (sleep loop), parallelism %s, carriers %s",
                        s.ioThreads(), s.parallelism(), s.carriers()),
                "scenario", "sleeps measured", "CPU tasks", "CPU task length (ms)", "median lateness while CPU ran (ms)",
                "p99 lateness (ms)", "max lateness (ms)");
        for (Scenario sc : s.scenarios()) {
            String len = sc.cpuTaskMillis().length == 0 ? "—"
                    : String.format("%,.0f … %,.0f", sc.shortestCpuTask(), sc.longestCpuTask());
            b.row(sc.name(), sc.samples(), sc.cpuTaskMillis().length, len, Tables.round(sc.medianLatenessWhileCpuRan(), 2),
                    Tables.round(sc.latenessQuantile(0.99), 2), Tables.round(sc.maxLateness(), 2));
        }
        return b.table();
    }

    /** Per scenario: the median lateness of sleeps due while a CPU task ran, the p99 and the maximum. */
    public static CategoryChart starvationBars(Starvation s) {
        var names = s.scenarios().stream().map(Scenario::name).toList();
        Map<String, List<? extends Number>> series = new LinkedHashMap<>();
        series.put("median while a CPU task ran", s.scenarios().stream().map(sc -> Tables.round(sc.medianLatenessWhileCpuRan(), 1)).toList());
        series.put("p99 (all sleeps)", s.scenarios().stream().map(sc -> Tables.round(sc.latenessQuantile(0.99), 1)).toList());
        series.put("max", s.scenarios().stream().map(sc -> Tables.round(sc.maxLateness(), 1)).toList());
        var c = Charts.groupedBars(String.format("How late sleeping I/O virtual threads resume, on %d carrier%s",
                        s.carriers().size(), s.carriers().size() == 1 ? "" : "s"), "lateness (ms)", names, series);
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
        return c;
    }

    // ---------------------------------------------------------------------------------------------------
    // Reproduction
    // ---------------------------------------------------------------------------------------------------

    /**
     * The articles' claims this notebook tests: CPU-bound work gains nothing from virtual threads (000,
     * 002, 004), while I/O-bound work overlaps its waits.
     */
    public static List<Reproduction> reproduce(Scale scale) throws InterruptedException {
        Params p = params(scale);
        long iterations = Tasks.calibrate(p.cpuTask());
        List<Measured> cpu = cpuBound(p.cores(), p.cpuTasks(), iterations, p.reps());
        List<Measured> io = ioBound(p.cores(), p.ioTasks(), p.ioWait());
        double cpuPredicted = cpuBoundMillis(p.cpuTasks(), p.cores(), p.cores(), p.cpuTask());
        var rows = new ArrayList<Reproduction>();
        rows.add(new Reproduction(
                String.format("CPU-bound: %d × %d ms of CPU, a virtual thread per task", p.cpuTasks(), p.cpuTask().toMillis()),
                "000, 002, 004", "no speed-up for CPU-bound work", cpuPredicted, cpu.get(2).medianMillis(), "ms",
                String.format("predicted N·c/cores on %d cores, as for the pool; pool of %d measured %,.0f ms, one thread "
                                + "%,.0f ms; virtual ÷ pool = %.2f (median of %d paired runs); cores busy: one thread %.2f, "
                                + "pool %.2f, virtual %.2f", p.cores(), p.cores(),
                        cpu.get(1).medianMillis(), cpu.get(0).medianMillis(), ratio(cpu.get(2), cpu.get(1)), p.reps(),
                        cpu.get(0).coresBusy(), cpu.get(1).coresBusy(), cpu.get(2).coresBusy())));
        rows.add(new Reproduction(
                String.format("I/O-bound: %d × sleep %d ms, a virtual thread per task", p.ioTasks(), p.ioWait().toMillis()),
                "000, 002", "waits overlap: the time of one wait", p.ioWait().toMillis(), io.get(2).medianMillis(), "ms",
                String.format("one thread measured %,.0f ms (predicted N·w = %,.0f); pool of %d %,.0f ms (predicted "
                                + "⌈N/cores⌉·w = %,.0f)", io.get(0).medianMillis(), wavesMillis(p.ioTasks(), 1, p.ioWait()),
                        p.cores(), io.get(1).medianMillis(), wavesMillis(p.ioTasks(), p.cores(), p.ioWait()))));
        return rows;
    }

    // ---------------------------------------------------------------------------------------------------

    private static RunResult medianRun(List<RunResult> runs) {
        var sorted = new ArrayList<>(runs);
        sorted.sort((a, b) -> Double.compare(a.elapsedMillis(), b.elapsedMillis()));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /** The q-quantile of {@code v} (nearest rank); NaN when empty. */
    public static double quantile(double[] v, double q) {
        if (q < 0 || q > 1) throw new IllegalArgumentException("q must be in [0, 1]: " + q);
        if (v.length == 0) return Double.NaN;
        double[] s = v.clone();
        Arrays.sort(s);
        int i = (int) Math.ceil(q * s.length) - 1;
        return s[Math.max(0, Math.min(s.length - 1, i))];
    }

    /** {@link Measure#median(double[])}, or NaN for no values (an empty scenario has no median). */
    static double median(double[] v) {
        return v.length == 0 ? Double.NaN : Measure.median(v);
    }
}
