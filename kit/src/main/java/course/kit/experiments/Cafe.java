package course.kit.experiments;

import course.kit.ChildJvm;
import course.kit.Format;
import course.kit.Limits;
import course.kit.Measure;
import course.kit.Progress;
import course.kit.Recorder;
import course.kit.Reproduction;
import course.kit.RunResult;
import course.kit.Scale;
import course.kit.models.PoolModel;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Notebook 02's café (article 000: 10,000 customers, each drink brewing for 1 s, served by a fixed pool of 200
 * baristas or by one virtual thread per customer): its parameters, the café itself as the notebook's cell writes
 * it ({@link #run}), the article rows of {@code ./course reproduce}, and the appendix's comparison of the same
 * café in the notebook's JVM and in a fresh child JVM ({@link #rounds}, {@link #roundsInChildJvm}).
 *
 * <p>The notebook's own cells create the executors and submit the tasks; this class holds what cells should not
 * carry. Predictions come from {@link PoolModel}, charts and tables from {@link CafeViews}.
 */
public final class Cafe {
    /** Article 000's customers. */
    public static final int CUSTOMERS = 10_000;
    /** Article 000's baristas: the fixed pool's size. */
    public static final int BARISTAS = 200;
    /** Article 000's brew time per customer. */
    public static final Duration BREW = Duration.ofSeconds(1);
    /** Article 004's task: 10,000 sleeps of 50 ms. */
    public static final Duration ARTICLE_004_TASK = Duration.ofMillis(50);
    /** At the quick scale {@link #reproduce} makes every sleep this many times shorter; counts and pool sizes stay. */
    public static final int QUICK_DIVISOR = 10;

    private Cafe() {}

    /**
     * The café, as notebook 02's {@code cafe(...)} cell writes it: starts a {@link Recorder}, submits one task per
     * customer that sleeps for {@code brew}, closes {@code staff} (which waits for the last customer) and stops the
     * clock. The run is timed from before the first submission to the return of {@code close()}.
     *
     * @param name      the run's label in charts and tables
     * @param staff     the executor; this method closes it
     * @param customers how many tasks to submit
     * @param brew      how long each task sleeps
     * @throws InterruptedException if the caller was interrupted: {@code close()} then cancelled the brews
     */
    public static RunResult run(String name, ExecutorService staff, int customers, Duration brew)
            throws InterruptedException {
        Objects.requireNonNull(staff, "staff");
        requireBrew(brew);
        if (customers < 0) {
            staff.close();
            throw new IllegalArgumentException("the number of customers cannot be negative: " + customers);
        }
        var rec = Recorder.start(name, customers);
        try (staff) {
            for (int i = 0; i < customers; i++) {
                staff.submit(rec.task(() -> Thread.sleep(brew)));
            }
        }
        RunResult run = rec.stop();
        if (Thread.interrupted()) {
            throw new InterruptedException(String.format(
                    "%s interrupted: %,d of %,d customers served", name, run.count() - run.failed(), customers));
        }
        return run;
    }

    /**
     * The elapsed times of several rounds of the same virtual-thread café in one JVM: round 0 is the first café of
     * the call (cold, when the JVM is new), then {@code warmups} rounds that only warm the JIT up, then the warm
     * rounds that count.
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
    public record Rounds(
            String where,
            int customers,
            long brewMs,
            int warmups,
            double[] millis,
            double[] lastStartMs,
            double[] jitMs,
            double[] gcMs) {
        /** The first round's elapsed time, in ms. */
        public double first() {
            return millis[0];
        }

        /** The warm rounds' elapsed times, in ms: the rounds after the first and the warm-ups. */
        public double[] warm() {
            return Arrays.copyOfRange(millis, 1 + warmups, millis.length);
        }

        /** The median of the warm rounds, in ms. */
        public double warmMedian() {
            return Measure.median(warm());
        }

        /** The median time to start every task over the warm rounds, in ms. */
        public double warmStartMedian() {
            return Measure.median(Arrays.copyOfRange(lastStartMs, 1 + warmups, millis.length));
        }

        /** The JIT compilation time of the warm rounds, summed, in ms. */
        public double warmJitMs() {
            return Arrays.stream(jitMs, 1 + warmups, millis.length).sum();
        }

        /** The garbage-collection time of the warm rounds, summed, in ms. */
        public double warmGcMs() {
            return Arrays.stream(gcMs, 1 + warmups, millis.length).sum();
        }
    }

    /**
     * Runs the virtual-thread café ({@link #run} on {@code newVirtualThreadPerTaskExecutor()})
     * {@code 1 + warmups + warm} times in this JVM, with a full GC before each round so that no round pays for the
     * garbage of the one before, and records each round's elapsed time, start phase, JIT time and GC time.
     *
     * @param where   a label for the result ("kernel", "child JVM")
     * @param warmups rounds after the first that only warm up (0 or more)
     * @param warm    rounds that count as warm (at least 1)
     */
    public static Rounds rounds(String where, int customers, long brewMs, int warmups, int warm)
            throws InterruptedException {
        requireRounds(customers, brewMs, warmups, warm);
        Duration brew = Duration.ofMillis(brewMs);
        int n = 1 + warmups + warm;
        if (brewMs > 0) Limits.requireDuration("the rounds", brew.multipliedBy(n));
        double[] ms = new double[n], starts = new double[n], jit = new double[n], gc = new double[n];
        var compiler = ManagementFactory.getCompilationMXBean();
        var completed = new AtomicInteger();
        try (var progress = Progress.start("café rounds in the " + where, n, completed::get)) {
            for (int i = 0; i < n; i++) {
                System.gc();
                long j0 = compiler.getTotalCompilationTime(), g0 = Measure.gcMillis();
                RunResult r = run(
                        "virtual thread per customer", Executors.newVirtualThreadPerTaskExecutor(), customers, brew);
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
    public static Rounds roundsInChildJvm(int customers, long brewMs, int warmups, int warm)
            throws InterruptedException {
        requireRounds(customers, brewMs, warmups, warm);
        int n = 1 + warmups + warm;
        // The child reports only at its end: the progress line estimates its rounds from the clock
        // (a round is one brew plus roughly 0.1 s to start the threads and collect the garbage).
        double perRound = brewMs / 1000.0 + 0.1;
        long t0 = System.nanoTime();
        var ended = new AtomicBoolean();
        try (var progress = Progress.start(
                "café rounds in a child JVM (estimated from the clock)",
                n,
                () -> ended.get() ? n : (int) Math.min(n - 1, (System.nanoTime() - t0) / 1e9 / perRound))) {
            Rounds r = ChildJvm.call(
                    childJvmOptions(),
                    Rounds.class,
                    Cafe.class,
                    "childRounds",
                    String.valueOf(customers),
                    String.valueOf(brewMs),
                    String.valueOf(warmups),
                    String.valueOf(warm));
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
            long committedMb =
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted() >> 20;
            long maxMb = Runtime.getRuntime().maxMemory() >> 20;
            opts.add("-Xms" + Math.max(8, Math.min(committedMb, maxMb)) + "m");
        }
        return List.copyOf(opts);
    }

    /**
     * This JVM's options that shape a run's timing: heap size ({@code -Xmx}, {@code -Xms}, {@code -Xmn}, {@code -XX:MaxRAMPercentage}), the
     * garbage collector ({@code -XX:+Use…GC}), assertions and preview features. A child started with them has the
     * same heap and GC.
     */
    public static List<String> sameJvmOptions() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-Xmx")
                        || a.startsWith("-Xms")
                        || a.startsWith("-Xmn")
                        || a.startsWith("-XX:MaxRAM")
                        || a.matches("-XX:\\+Use\\w*GC")
                        || a.equals("-ea")
                        || a.equals("--enable-preview"))
                .toList();
    }

    /**
     * The article experiments of notebook 02, for {@code ./course reproduce}, each measured by {@link #run}, the
     * notebook's café. At the full scale they run the articles' exact parameters (about four minutes: 50 s + 100 s,
     * the pool of 10,000, a few seconds per virtual run, and 5 s for article 004); at the quick scale every sleep is
     * {@value #QUICK_DIVISOR} times shorter.
     */
    public static List<Reproduction> reproduce(Scale scale) throws InterruptedException {
        Objects.requireNonNull(scale, "scale");
        Duration second = scale.shrink(BREW, QUICK_DIVISOR);
        Duration fifty = scale.shrink(ARTICLE_004_TASK, QUICK_DIVISOR);
        String at = scale == Scale.FULL ? "" : " (quick: sleeps ÷ " + QUICK_DIVISOR + ")";
        List<Reproduction> rows = new ArrayList<>();

        // Articles 000 and 002: 10,000 × 1 s on a fixed pool of 200, then on virtual threads (one JVM, as 002 does).
        rows.add(pooledRow(
                CUSTOMERS, BARISTAS, second, "000, 002", "50,215 ms; 50.18 s", "⌈10,000/200⌉ = 50 waves" + at));
        rows.add(virtualRow(
                CUSTOMERS,
                second,
                "000, 002",
                "1,188 ms; 1.12 s",
                "one wave; + the time to start 10,000 virtual threads" + at));

        // Article 003: 10,000 × 1 s on fixed pools of 100 and of 10,000, each followed by virtual threads.
        rows.add(pooledRow(CUSTOMERS, 100, second, "003", "100,798 ms", "⌈10,000/100⌉ = 100 waves" + at));
        rows.add(virtualRow(
                CUSTOMERS,
                second,
                "003",
                "1,823 ms",
                "003: JDK 21, the first virtual-thread run in its JVM, another machine" + at));
        if (Limits.platformThreadsAvailable() >= CUSTOMERS) {
            rows.add(pooledRow(
                    CUSTOMERS,
                    CUSTOMERS,
                    second,
                    "003",
                    "3,569 ms",
                    "1 wave; + creating and retiring 10,000 OS threads" + at));
        } else {
            rows.add(new Reproduction(
                    label(CUSTOMERS, second, "fixed pool of 10,000"),
                    "003",
                    "3,569 ms",
                    second.toNanos() / 1e6,
                    Double.NaN,
                    "ms",
                    "not run: this OS allows only " + Limits.platformThreadsAvailable() + " more threads"));
        }
        rows.add(virtualRow(CUSTOMERS, second, "003", "1,366 ms", "run right after the pool of 10,000" + at));

        // Article 004: 10,000 × 50 ms on a fixed pool of 100 against virtual threads.
        rows.add(pooledRow(CUSTOMERS, 100, fifty, "004", "~5,000 ms", "⌈10,000/100⌉ = 100 waves" + at));
        rows.add(virtualRow(CUSTOMERS, fifty, "004", "~600 ms", "one wave; + the start time" + at));
        return rows;
    }

    private static Reproduction pooledRow(
            int customers, int baristas, Duration brew, String article, String reported, String note)
            throws InterruptedException {
        Limits.requirePlatformThreads(Math.min(baristas, customers));
        String executor = String.format("fixed pool of %,d", baristas);
        RunResult r = run(executor, Executors.newFixedThreadPool(baristas), customers, brew);
        return new Reproduction(
                label(customers, brew, executor),
                article,
                reported,
                PoolModel.batchTime(customers, baristas, brew).toNanos() / 1e6,
                r.elapsedMillis(),
                "ms",
                note);
    }

    private static Reproduction virtualRow(int customers, Duration brew, String article, String reported, String note)
            throws InterruptedException {
        RunResult r = run("virtual thread per task", Executors.newVirtualThreadPerTaskExecutor(), customers, brew);
        return new Reproduction(
                label(customers, brew, "virtual thread per task"),
                article,
                reported,
                brew.toNanos() / 1e6,
                r.elapsedMillis(),
                "ms",
                note + String.format("; last task started at %.0f ms", r.lastStartNanos() / 1e6));
    }

    private static String label(int customers, Duration brew, String executor) {
        return String.format("%,d × sleep %s, %s", customers, Format.duration(brew), executor);
    }

    private static void requireBrew(Duration brew) {
        Objects.requireNonNull(brew, "brew");
        if (brew.isNegative()) throw new IllegalArgumentException("a brew cannot take a negative time: " + brew);
    }

    private static void requireRounds(int customers, long brewMs, int warmups, int warm) {
        if (customers < 0)
            throw new IllegalArgumentException("the number of customers cannot be negative: " + customers);
        if (brewMs < 0) throw new IllegalArgumentException("a brew cannot take a negative time: " + brewMs + " ms");
        if (warmups < 0) throw new IllegalArgumentException("warm-up rounds cannot be negative: " + warmups);
        if (warm < 1) throw new IllegalArgumentException("at least 1 warm round is needed, not " + warm);
    }
}
