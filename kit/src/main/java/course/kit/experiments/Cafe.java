package course.kit.experiments;

import course.kit.ChildJvm;
import course.kit.Limits;
import course.kit.Measure;
import course.kit.Pool;
import course.kit.PoolModel;
import course.kit.Progress;
import course.kit.Reproduction;
import course.kit.Run;
import course.kit.RunResult;
import course.kit.Scale;
import course.kit.Tasks;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Notebook 02's experiments: the café of article 000 (10,000 customers, each drink brewing for 1 s, served
 * by a fixed pool of 200 workers or by one virtual thread per customer), the pool-size sweep of articles
 * 003 and 004, and the same virtual-thread café run in this JVM and in a fresh child JVM.
 *
 * <p>Every method validates its parameters through {@link Limits} before a thread starts, lets
 * {@link InterruptedException} propagate, and leaves no executor open (the runs go through
 * {@link Run#tasks}, which closes its executor even when interrupted).
 *
 * <pre>{@code
 * RunResult pool = Cafe.pooled(10_000, 200, Duration.ofSeconds(1));   // ≈ 50 s: 50 waves of 1 s
 * RunResult virt = Cafe.virtual(10_000, Duration.ofSeconds(1));       // ≈ 1 s + the time to start 10,000 threads
 * }</pre>
 */
public final class Cafe {
    /** Article 000's customers. */
    public static final int CUSTOMERS = 10_000;
    /** Article 000's workers: the fixed pool's size. */
    public static final int WORKERS = 200;
    /** Article 000's brew time per customer. */
    public static final Duration BREW = Duration.ofSeconds(1);
    /** At the quick scale brews are this many times shorter; customers and workers stay as they are. */
    public static final int QUICK_DIVISOR = 10;
    /** Article 004's task: 50 ms; the sweep uses it at the full scale. */
    public static final Duration SWEEP_TASK = Duration.ofMillis(50);
    /** The sweep's task at the quick scale. */
    public static final Duration QUICK_SWEEP_TASK = Duration.ofMillis(10);
    /** The pool sizes of the sweep: articles 003 and 004's 100, article 000's 200, then 1,000 and 10,000. */
    public static final int[] SWEEP_POOLS = {100, 200, 1_000, 10_000};
    /**
     * The sweep's pool sizes at the quick scale: without the pool of 10,000, whose 10,000 OS threads take seconds
     * to create and retire whatever the task length (3–8 s on a 2-core VM), too much of the quick notebook's budget.
     */
    public static final int[] QUICK_SWEEP_POOLS = {100, 200, 1_000};

    private Cafe() {}

    /**
     * {@link PoolModel#slackFor} for {@code customers} on a fixed pool of {@code workers} (0: one virtual thread
     * each; 10,000 virtual threads get 200 ms in all).
     */
    public static Duration slackFor(int customers, int workers) {
        requireCustomers(customers);
        return PoolModel.slackFor(customers, workers);
    }

    /** The sweep's pool sizes at {@code scale}: {@link #SWEEP_POOLS} or {@link #QUICK_SWEEP_POOLS}. */
    public static int[] sweepPools(Scale scale) {
        return (scale == Scale.FULL ? SWEEP_POOLS : QUICK_SWEEP_POOLS).clone();
    }

    /** The sweep's task at {@code scale}: {@link #SWEEP_TASK} (article 004's 50 ms) or {@link #QUICK_SWEEP_TASK}. */
    public static Duration sweepTask(Scale scale) {
        return scale.pick(SWEEP_TASK, QUICK_SWEEP_TASK);
    }

    /**
     * The café's parameters at one scale.
     *
     * @param customers how many customers (tasks)
     * @param workers   the fixed pool's size
     * @param brew      how long each drink brews (each task sleeps)
     */
    public record Setup(int customers, int workers, Duration brew) {
        public Setup {
            Objects.requireNonNull(brew, "brew");
            requireCustomers(customers);
            if (workers < 1) throw new IllegalArgumentException("the café needs at least 1 worker, not " + workers);
            requireBrew(brew);
        }

        /** Article 000's café at the full scale; brews {@value #QUICK_DIVISOR}× shorter at the quick scale. */
        public static Setup at(Scale scale) {
            return new Setup(CUSTOMERS, WORKERS, scale.shrink(BREW, QUICK_DIVISOR));
        }

        /** How many waves the fixed pool serves: ⌈customers / workers⌉. */
        public int waves() { return PoolModel.waves(customers, workers); }

        /** The fixed pool's predicted time: ⌈customers / workers⌉ · brew. */
        public Duration predictedPool() { return PoolModel.batchTime(customers, workers, brew); }

        /** {@code "10,000 customers × 1 s, 200 workers"}. */
        @Override
        public String toString() {
            return String.format("%,d customers × %s, %,d workers (%d waves)", customers, pretty(brew), workers, waves());
        }
    }


    /**
     * Serves {@code customers} customers, each brewing for {@code brew}, with a fixed pool of {@code workers}
     * platform threads ({@code Executors.newFixedThreadPool}); timed from creating the pool to its close.
     */
    public static RunResult pooled(int customers, int workers, Duration brew) throws InterruptedException {
        var setup = new Setup(customers, workers, brew);
        requireTotal("the fixed-pool café", setup.predictedPool());
        return Run.tasks(String.format("fixed pool of %,d", workers), Pool.fixed(workers), customers, Tasks.sleep(brew));
    }

    /**
     * Serves {@code customers} customers, each brewing for {@code brew}, with one new virtual thread per customer
     * ({@code Executors.newVirtualThreadPerTaskExecutor}); timed from creating the executor to its close.
     */
    public static RunResult virtual(int customers, Duration brew) throws InterruptedException {
        requireCustomers(customers);
        requireBrew(brew);
        return Run.tasks("virtual thread per customer", Pool.virtual(), customers, Tasks.sleep(brew));
    }

    /**
     * One executor of the sweep: what it predicts and what it measured.
     *
     * @param executor      "fixed pool of 100" … or "virtual thread per task"
     * @param tasks         how many tasks ran
     * @param workers       the pool's size; 0 for virtual threads
     * @param waves         ⌈customers / workers⌉ (1 for virtual threads)
     * @param predictedMs   waves · task time, in ms
     * @param measuredMs    the measured elapsed time, in ms
     * @param lastStartMs   when the last task started, in ms after the run began: the cost of getting every
     *                      task onto a thread (thread creation and submission), which the prediction leaves out
     * @param peak          the most tasks in flight at once
     * @param threads       how many distinct threads ran tasks
     * @param slackMs       the most the run may exceed its prediction ({@link #slackFor}), in ms
     */
    public record SweepRow(String executor, int tasks, int workers, int waves, double predictedMs, double measuredMs,
                           double lastStartMs, int peak, int threads, double slackMs) {
        /** measured ÷ predicted. */
        public double ratio() { return measuredMs / predictedMs; }

        /** measured − predicted, in ms: what the arithmetic leaves out. */
        public double overheadMs() { return measuredMs - predictedMs; }

        /** Whether predicted ≤ measured ≤ predicted + slack. */
        public boolean withinSlack() { return measuredMs >= predictedMs && measuredMs <= predictedMs + slackMs; }
    }

    /**
     * Runs {@code customers} tasks of {@code task} on a fixed pool of each size in {@code pools}, then on one
     * virtual thread per task, and reports predicted against measured for each (in that order).
     */
    public static List<SweepRow> sweep(int customers, Duration task, int... pools) throws InterruptedException {
        requireCustomers(customers);
        requireBrew(task);
        Objects.requireNonNull(pools, "pools");
        long total = 0;
        for (int p : pools) {
            if (p < 1) throw new IllegalArgumentException("a pool needs at least 1 thread, not " + p);
            Limits.requirePlatformThreads(Math.min(p, customers));
            total += PoolModel.batchTime(customers, p, task).toMillis();
        }
        requireTotal("the sweep", Duration.ofMillis(total));
        List<SweepRow> rows = new ArrayList<>();
        var completed = new AtomicInteger();
        try (var progress = Progress.start(String.format("sweep: %d executors, %,d tasks each", pools.length + 1, customers),
                pools.length + 1, completed::get)) {
            for (int p : pools) {
                rows.add(row(pooled(customers, p, task), p, PoolModel.waves(customers, p), task));
                completed.incrementAndGet();
            }
            rows.add(row(virtual(customers, task), 0, 1, task));
            completed.incrementAndGet();
        }
        return rows;
    }

    private static SweepRow row(RunResult r, int workers, int waves, Duration task) {
        return new SweepRow(workers == 0 ? "virtual thread per task" : String.format("fixed pool of %,d", workers),
                r.count(), workers, waves, task.toNanos() / 1e6 * waves, r.elapsedMillis(), r.lastStartNanos() / 1e6,
                r.peakConcurrency(), r.threadsUsed(), slackFor(r.count(), workers).toNanos() / 1e6);
    }

    /**
     * The elapsed times of several rounds of the same virtual-thread café in one JVM: round 0 is the first
     * café of the call (cold, when the JVM is new), then {@code warmups} rounds that only warm the JIT up, then
     * the warm rounds that count.
     *
     * @param where       "kernel" or "child JVM"
     * @param customers   customers per round
     * @param brewMs      brew time per customer, in ms
     * @param warmups     how many rounds after the first are warm-up only
     * @param millis      each round's elapsed time in ms, in order
     * @param lastStartMs each round's time to start every task, in ms
     * @param jitMs       each round's JIT compilation time, in ms (the compiler threads' time, summed)
     * @param gcMs        each round's garbage-collection time, in ms
     */
    public record Rounds(String where, int customers, long brewMs, int warmups, double[] millis, double[] lastStartMs,
                         double[] jitMs, double[] gcMs) {
        /** The first round's elapsed time, in ms. */
        public double first() { return millis[0]; }

        /** The warm rounds' elapsed times, in ms: the rounds after the first and the warm-ups. */
        public double[] warm() { return Arrays.copyOfRange(millis, 1 + warmups, millis.length); }

        /** The median of the warm rounds, in ms. */
        public double warmMedian() { return Measure.median(warm()); }

        /** The median time to start every task over the warm rounds, in ms. */
        public double warmStartMedian() { return Measure.median(Arrays.copyOfRange(lastStartMs, 1 + warmups, millis.length)); }

        /** The JIT compilation time of the warm rounds, summed, in ms. */
        public double warmJitMs() { return Arrays.stream(jitMs, 1 + warmups, millis.length).sum(); }

        /** The garbage-collection time of the warm rounds, summed, in ms. */
        public double warmGcMs() { return Arrays.stream(gcMs, 1 + warmups, millis.length).sum(); }
    }

    /**
     * Runs the virtual-thread café {@code 1 + warmups + warm} times in this JVM, with a full GC before each
     * round so that no round pays for the garbage of the one before, and records each round's elapsed time,
     * start phase, JIT time and GC time.
     *
     * @param where   a label for the result ("kernel", "child JVM")
     * @param warmups rounds after the first that only warm up (0 or more)
     * @param warm    rounds that count as warm (at least 1)
     */
    public static Rounds rounds(String where, int customers, long brewMs, int warmups, int warm)
            throws InterruptedException {
        requireCustomers(customers);
        Duration brew = Duration.ofMillis(brewMs);
        requireBrew(brew);
        if (warmups < 0) throw new IllegalArgumentException("warm-up rounds cannot be negative: " + warmups);
        if (warm < 1) throw new IllegalArgumentException("at least 1 warm round is needed, not " + warm);
        int n = 1 + warmups + warm;
        requireTotal("the rounds", brew.multipliedBy(n));
        double[] ms = new double[n], starts = new double[n], jit = new double[n], gc = new double[n];
        var compiler = ManagementFactory.getCompilationMXBean();
        var completed = new AtomicInteger();
        try (var progress = Progress.start("café rounds in the " + where, n, completed::get)) {
            for (int i = 0; i < n; i++) {
                System.gc();
                long j0 = compiler.getTotalCompilationTime(), g0 = Measure.gcMillis();
                RunResult r = virtual(customers, brew);
                ms[i] = r.elapsedMillis();
                starts[i] = r.lastStartNanos() / 1e6;
                jit[i] = compiler.getTotalCompilationTime() - j0;
                gc[i] = Measure.gcMillis() - g0;
                completed.incrementAndGet();
            }
        }
        return new Rounds(where, customers, brewMs, warmups, ms, starts, jit, gc);
    }

    /** The entry point a child JVM calls: {@link #rounds} labelled "child JVM". */
    public static Rounds childRounds(int customers, long brewMs, int warmups, int warm) throws InterruptedException {
        return rounds("child JVM", customers, brewMs, warmups, warm);
    }

    /**
     * Runs {@link #rounds} in a fresh plain {@code java} process started with this JVM's heap, GC, assertion and
     * preview options and its current heap size ({@link #childJvmOptions()}), so that the two JVMs differ only in
     * what the notebook kernel adds.
     */
    public static Rounds roundsInChildJvm(int customers, long brewMs, int warmups, int warm) throws InterruptedException {
        requireCustomers(customers);
        if (warmups < 0) throw new IllegalArgumentException("warm-up rounds cannot be negative: " + warmups);
        if (warm < 1) throw new IllegalArgumentException("at least 1 warm round is needed, not " + warm);
        requireBrew(Duration.ofMillis(brewMs));
        int n = 1 + warmups + warm;
        // The child reports only at its end: the progress line estimates its rounds from the clock
        // (a round is one brew plus roughly 0.1 s to start the threads and collect the garbage).
        double perRound = brewMs / 1000.0 + 0.1;
        long t0 = System.nanoTime();
        var ended = new AtomicBoolean();
        try (var progress = Progress.start("café rounds in a child JVM (estimated from the clock)", n,
                () -> ended.get() ? n : (int) Math.min(n - 1, (System.nanoTime() - t0) / 1e9 / perRound))) {
            Rounds r = ChildJvm.call(childJvmOptions(), Rounds.class, Cafe.class, "childRounds",
                    String.valueOf(customers), String.valueOf(brewMs), String.valueOf(warmups), String.valueOf(warm));
            ended.set(true);
            return r;
        }
    }

    /**
     * The options {@link #roundsInChildJvm} starts its child with: {@link #sameJvmOptions()}, plus, unless this JVM
     * was given {@code -Xms}, an initial heap as large as the heap this JVM has grown to. A long-running kernel has
     * grown its heap (and with it G1's young generation); a fresh JVM starts small and would collect garbage during
     * the café that the kernel never has to: the comparison would favour the kernel.
     */
    public static List<String> childJvmOptions() {
        List<String> opts = new ArrayList<>(sameJvmOptions());
        if (opts.stream().noneMatch(o -> o.startsWith("-Xms"))) {
            long committedMb = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted() >> 20;
            long maxMb = Runtime.getRuntime().maxMemory() >> 20;
            opts.add("-Xms" + Math.max(8, Math.min(committedMb, maxMb)) + "m");
        }
        return List.copyOf(opts);
    }

    /**
     * This JVM's options that shape a run's timing: heap size ({@code -Xmx}, {@code -Xms}), the garbage collector
     * ({@code -XX:+Use…GC}), assertions and preview features. A child started with them has the same heap and GC.
     */
    public static List<String> sameJvmOptions() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-Xmx") || a.startsWith("-Xms") || a.matches("-XX:\\+Use\\w*GC")
                        || a.equals("-ea") || a.equals("--enable-preview"))
                .toList();
    }

    /**
     * The article experiments of notebook 02, for {@code ./course reproduce}. At the full scale they run the
     * articles' exact parameters (about four minutes: 50 s + 100 s + a few seconds per virtual run, and 5 s for
     * article 004); at the quick scale every sleep is ten times shorter.
     */
    public static List<Reproduction> reproduce(Scale scale) throws InterruptedException {
        Objects.requireNonNull(scale, "scale");
        Duration second = scale.shrink(BREW, QUICK_DIVISOR);
        Duration fifty = scale.shrink(SWEEP_TASK, QUICK_DIVISOR);
        String at = scale == Scale.FULL ? "" : " (quick: sleeps ÷ " + QUICK_DIVISOR + ")";
        List<Reproduction> rows = new ArrayList<>();

        // Articles 000 and 002: 10,000 × 1 s on a fixed pool of 200, then on virtual threads (one JVM, as 002 does).
        rows.add(pooledRow(CUSTOMERS, 200, second, "000, 002", "50,215 ms; 50.18 s",
                "⌈10,000/200⌉ = 50 waves" + at));
        rows.add(virtualRow(CUSTOMERS, second, "000, 002", "1,188 ms; 1.12 s",
                "one wave; + the time to start 10,000 virtual threads" + at));

        // Article 003: 10,000 × 1 s on fixed pools of 100 and of 10,000, each followed by virtual threads.
        rows.add(pooledRow(CUSTOMERS, 100, second, "003", "100,798 ms", "⌈10,000/100⌉ = 100 waves" + at));
        rows.add(virtualRow(CUSTOMERS, second, "003", "1,823 ms",
                "003: JDK 21, the first virtual-thread run in its JVM, another machine" + at));
        if (Limits.platformThreadsAvailable() >= CUSTOMERS) {
            rows.add(pooledRow(CUSTOMERS, CUSTOMERS, second, "003", "3,569 ms",
                    "1 wave; + creating and retiring 10,000 OS threads" + at));
        } else {
            rows.add(new Reproduction(label(CUSTOMERS, second, "fixed pool of 10,000"), "003", "3,569 ms",
                    second.toNanos() / 1e6, Double.NaN, "ms", "not run: this OS allows only "
                    + Limits.platformThreadsAvailable() + " more threads"));
        }
        rows.add(virtualRow(CUSTOMERS, second, "003", "1,366 ms", "run right after the pool of 10,000" + at));

        // Article 004: 10,000 × 50 ms on a fixed pool of 100 against virtual threads.
        rows.add(pooledRow(CUSTOMERS, 100, fifty, "004", "~5,000 ms", "⌈10,000/100⌉ = 100 waves" + at));
        rows.add(virtualRow(CUSTOMERS, fifty, "004", "~600 ms", "one wave; + the start time" + at));
        return rows;
    }

    private static Reproduction pooledRow(int customers, int workers, Duration brew, String article, String reported,
                                          String note) throws InterruptedException {
        RunResult r = pooled(customers, workers, brew);
        return new Reproduction(label(customers, brew, String.format("fixed pool of %,d", workers)), article, reported,
                PoolModel.batchTime(customers, workers, brew).toNanos() / 1e6, r.elapsedMillis(), "ms", note);
    }

    private static Reproduction virtualRow(int customers, Duration brew, String article, String reported, String note)
            throws InterruptedException {
        RunResult r = virtual(customers, brew);
        return new Reproduction(label(customers, brew, "virtual thread per task"), article, reported,
                brew.toNanos() / 1e6, r.elapsedMillis(), "ms",
                note + String.format("; last task started at %.0f ms", r.lastStartNanos() / 1e6));
    }

    private static String label(int customers, Duration brew, String executor) {
        return String.format("%,d × sleep %s, %s", customers, pretty(brew), executor);
    }

    /** A duration as the notebook prints it: "1 s", "50 ms". */
    public static String pretty(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private static void requireBrew(Duration brew) {
        Objects.requireNonNull(brew, "brew");
        if (brew.isNegative()) throw new IllegalArgumentException("a brew cannot take a negative time: " + brew);
        if (!brew.isZero()) Limits.requireDuration("a brew", brew);
    }

    private static void requireTotal(String what, Duration total) {
        if (!total.isZero()) Limits.requireDuration(what, total);
    }

    private static void requireCustomers(int customers) {
        if (customers < 0) throw new IllegalArgumentException("the number of customers cannot be negative: " + customers);
    }
}
