package course.exercises.iocpu;

import static java.time.Duration.ofMillis;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.TestOrder;
import course.base.probe.Probe;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/** The course's tests for exercise 04. Each test's {@code points:N} tag is what it is worth. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Workloads")
class WorkloadsTest {

    private static Duration ofMicros(long micros) {
        return Duration.ofNanos(micros * 1_000);
    }

    /** What a batch of blocking tasks saw: how many ran at once, on which kind and on how many threads. */
    record Observed(Probe probe, int distinctThreads) {
    }

    /**
     * Submits {@code tasks} tasks that each hold their thread until {@code holdUntil} tasks have started
     * (with a generous guard, so a wrong executor fails instead of hanging), then closes the executor.
     */
    private static Observed runBlockingTasks(ExecutorService executor, int tasks, int holdUntil)
            throws InterruptedException {
        Probe probe = new Probe();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch started = new CountDownLatch(holdUntil);
        CountDownLatch gate = new CountDownLatch(1);
        try (executor) {
            for (int i = 0; i < tasks; i++) {
                executor.submit(probe.wrap(() -> {
                    threads.add(Thread.currentThread());
                    started.countDown();
                    return gate.await(5, TimeUnit.SECONDS);
                }));
            }
            started.await(5, TimeUnit.SECONDS);
            gate.countDown();
        }
        return new Observed(probe, threads.size());
    }

    /**
     * Waits until {@code latch} opens, or until it has not counted down for {@code stall}: true if it opened.
     * A correct executor keeps starting tasks; one with a cap stops at the cap, and this returns false.
     */
    private static boolean awaitWhileItMoves(CountDownLatch latch, Duration stall) throws InterruptedException {
        long before = latch.getCount();
        while (!latch.await(stall.toMillis(), TimeUnit.MILLISECONDS)) {
            long now = latch.getCount();
            if (now == before) {
                return false;
            }
            before = now;
        }
        return true;
    }

    /**
     * Waits (a guard of 2 s) until {@code thread} has terminated or is parked: a pooled thread that finished its
     * task parks, idle, waiting for the next one; a thread started for one task ends.
     */
    private static void awaitEndedOrIdle(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() < deadline) {
            switch (thread.getState()) {
                case TERMINATED, WAITING, TIMED_WAITING -> {
                    return;
                }
                default -> Thread.sleep(1);
            }
        }
    }

    /** The most the tests' durations reach: 11.6 days, far below {@code Duration.toNanos()}'s limit of 292 years. */
    private static final long MAX_SECONDS = 1_000_000;

    /**
     * The arguments of one call of {@code poolSize}, shown as the learner would write them.
     *
     * @param cores       the cores
     * @param utilization the target utilisation
     * @param waitTime    the wait time
     * @param computeTime the compute time
     */
    record Sizing(int cores, double utilization, Duration waitTime, Duration computeTime) {
        int poolSize() {
            return Workloads.poolSize(cores, utilization, waitTime, computeTime);
        }

        /**
         * The formula, exactly: {@code cores · U · (wait + compute) / compute}, with {@code U} the exact value of
         * the double and the durations in nanoseconds (an error of 10⁻⁴⁰ at most, from the one division).
         */
        BigDecimal exact() {
            BigDecimal nanosWait = new BigDecimal(waitTime.toNanos());
            BigDecimal nanosCompute = new BigDecimal(computeTime.toNanos());
            return BigDecimal.valueOf(cores).multiply(new BigDecimal(utilization))
                    .multiply(nanosWait.add(nanosCompute))
                    .divide(nanosCompute, new MathContext(60, RoundingMode.HALF_EVEN));
        }

        @Override
        public String toString() {
            return "poolSize(" + cores + ", " + utilization + ", " + seconds(waitTime) + ", " + seconds(computeTime) + ")";
        }
    }

    /** A duration as seconds to the nanosecond: {@code 1.000000001 s}. */
    static String seconds(Duration d) {
        return new BigDecimal(d.toNanos()).movePointLeft(9).toPlainString() + " s";
    }

    /**
     * The pool sizes that the contract allows for {@code s}: {@code ceil} of the exact value, capped at
     * {@code Integer.MAX_VALUE}. A {@code double} computation is off by a few units in the 16th digit, which can tip
     * {@code ceil} across a whole number: where the exact value lies within 10⁻¹² of its own size from a whole number
     * {@code n}, both {@code n} and {@code n + 1} are allowed.
     */
    static Set<Integer> allowed(Sizing s) {
        BigDecimal x = s.exact();
        Set<Integer> sizes = new java.util.TreeSet<>();
        sizes.add(capped(x.setScale(0, RoundingMode.CEILING)));
        BigDecimal n = x.setScale(0, RoundingMode.HALF_EVEN);
        if (x.subtract(n).abs().compareTo(x.max(BigDecimal.ONE).movePointLeft(12)) <= 0) {
            sizes.add(capped(n));
            sizes.add(capped(n.add(BigDecimal.ONE)));
        }
        return sizes;
    }

    private static int capped(BigDecimal whole) {
        return whole.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) >= 0 ? Integer.MAX_VALUE : whole.intValueExact();
    }

    /** A duration from {@code minSeconds} to {@code maxSeconds}, any nanoseconds within the second. */
    private static Arbitrary<Duration> durations(long minSeconds, long maxSeconds) {
        return Combinators.combine(Arbitraries.longs().between(minSeconds, maxSeconds),
                        Arbitraries.integers().between(0, 999_999_999))
                .as((s, n) -> Duration.ofSeconds(s, n));
    }

    /** Durations of every size: under a microsecond, under a second, seconds, days; whole and to the nanosecond. */
    private static Arbitrary<Duration> positiveDurations() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.longs().between(1, 999_999_999).map(Duration::ofNanos)),
                Tuple.of(1, Arbitraries.longs().between(1, 2_000).map(Duration::ofNanos)),
                Tuple.of(3, durations(0, 3)),
                Tuple.of(2, durations(0, MAX_SECONDS)),
                Tuple.of(1, Arbitraries.longs().between(1, 10_000).map(Duration::ofMillis)),
                Tuple.of(1, Arbitraries.of(Duration.ofNanos(1), Duration.ofSeconds(1), Duration.ofSeconds(1, 1),
                        Duration.ofMillis(999), Duration.ofSeconds(MAX_SECONDS))))
                .filter(d -> !d.isZero());
    }

    /** Utilisations in (0, 1]: any double there (not only a few decimals), and its edges. */
    private static Arbitrary<Double> utilizations() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.doubles().between(0.0, false, 1.0, true).ofScale(17)),
                Tuple.of(2, Arbitraries.doubles().between(0.0, false, 1.0, true).ofScale(2)),
                Tuple.of(1, Arbitraries.of(1.0, Math.nextDown(1.0), Double.MIN_VALUE, 1e-9, 0.1, 0.5, 0.9)))
                .filter(u -> u > 0.0 && u <= 1.0);
    }

    /** Cores from 1 to {@code Integer.MAX_VALUE}, small counts more often. */
    private static Arbitrary<Integer> cores() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.integers().between(1, 256)),
                Tuple.of(2, Arbitraries.integers().between(1, Integer.MAX_VALUE)),
                Tuple.of(1, Arbitraries.of(1, 2, Integer.MAX_VALUE - 1, Integer.MAX_VALUE)));
    }

    @Provide
    Arbitrary<Sizing> sizings() {
        Arbitrary<Duration> waits = Arbitraries.oneOf(Arbitraries.just(Duration.ZERO), positiveDurations());
        return Combinators.combine(cores(), utilizations(), waits, positiveDurations()).as(Sizing::new);
    }

    /** Sizings whose exact pool size is a whole number and a half or so away from one: {@code ceil} is not the nearest. */
    @Provide
    Arbitrary<Sizing> fractionalSizings() {
        return sizings().filter(s -> {
            BigDecimal x = s.exact();
            BigDecimal fraction = x.subtract(x.setScale(0, RoundingMode.FLOOR));
            return x.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) < 0
                    && fraction.compareTo(new BigDecimal("0.000001")) > 0
                    && fraction.compareTo(new BigDecimal("0.999999")) < 0;
        });
    }

    /** Sizings whose exact pool size is beyond {@code Integer.MAX_VALUE}. */
    @Provide
    Arbitrary<Sizing> hugeSizings() {
        Arbitrary<Integer> manyCores = Arbitraries.integers().between(1 << 20, Integer.MAX_VALUE);
        Arbitrary<Duration> longWaits = durations(1_000, MAX_SECONDS);
        Arbitrary<Duration> shortComputes = Arbitraries.longs().between(1, 1_000_000).map(Duration::ofNanos);
        return Combinators.combine(manyCores, Arbitraries.doubles().between(0.5, true, 1.0, true).ofScale(17),
                        longWaits, shortComputes)
                .as(Sizing::new);
    }

    private static void assertPoolSize(Sizing s) {
        Set<Integer> allowed = allowed(s);
        int size = assertDoesNotThrow(s::poolSize, s + " threw, but every argument is valid");
        assertTrue(allowed.contains(size), s + " returned " + size + "; cores · U · (1 + wait/compute) = "
                + s.exact().round(new MathContext(20)).toPlainString() + " exactly, so it must return "
                + (allowed.size() == 1 ? allowed.iterator().next() : "one of " + allowed));
    }

    @Order(1)
    @Test
    @Tag("points:1")
    @DisplayName("poolSize: the README's examples (80 threads for 8 cores, 90 ms wait, 10 ms compute; W/C = 2.5, not 2)")
    void poolSizeWorkedExamples() {
        assertAll(
                () -> assertEquals(80, Workloads.poolSize(8, 1.0, ofMillis(90), ofMillis(10)),
                        "poolSize(8 cores, U=1.0, wait 90 ms, compute 10 ms)"),
                () -> assertEquals(7, Workloads.poolSize(4, 0.5, ofMillis(50), ofMillis(20)),
                        "poolSize(4 cores, U=0.5, wait 50 ms, compute 20 ms): W/C = 2.5, not 2"),
                () -> assertEquals(2, Workloads.poolSize(2, 1.0, Duration.ZERO, ofMillis(10)),
                        "poolSize(2 cores, U=1.0, wait 0, compute 10 ms)"),
                () -> assertEquals(8, Workloads.poolSize(2, 1.0, ofMicros(1_500), ofMicros(500)),
                        "poolSize(2 cores, U=1.0, wait 1.5 ms, compute 0.5 ms): W/C = 3 (whole milliseconds give 1/0)"),
                () -> assertEquals(5, Workloads.poolSize(3, 0.9, ofMillis(10), ofMillis(20)),
                        "poolSize(3 cores, U=0.9, wait 10 ms, compute 20 ms) = ceil(4.05)"),
                () -> assertEquals(1, Workloads.poolSize(1, 0.5, Duration.ZERO, ofMillis(1)),
                        "poolSize(1 core, U=0.5, wait 0, compute 1 ms) = ceil(0.5)"));
    }

    @TestOrder(2)
    @Property(seed = "2004002", tries = 1500, afterFailure = AfterFailureMode.PREVIOUS_SEED)
    @net.jqwik.api.Tag("points:2")
    @Label("poolSize: ceil(cores × U × (1 + wait/compute)) for any valid arguments: cores up to Integer.MAX_VALUE, "
            + "any U in (0, 1], durations from 1 ns to days, to the nanosecond")
    void poolSizeFollowsTheFormula(@ForAll("sizings") Sizing sizing) {
        assertPoolSize(sizing);
    }

    @TestOrder(3)
    @Property(seed = "2004003", tries = 500, afterFailure = AfterFailureMode.PREVIOUS_SEED)
    @net.jqwik.api.Tag("points:1")
    @Label("poolSize: a fractional thread is rounded up (ceil), never down or to the nearest")
    void poolSizeRoundsUp(@ForAll("fractionalSizings") Sizing sizing) {
        BigDecimal x = sizing.exact();
        int size = assertDoesNotThrow(sizing::poolSize, sizing + " threw, but every argument is valid");
        assertEquals(x.setScale(0, RoundingMode.CEILING).intValueExact(), size, sizing + ": the exact size is "
                + x.round(new MathContext(20)).toPlainString() + ", so it must return the next whole number");
    }

    @TestOrder(4)
    @Property(seed = "2004004", tries = 200, afterFailure = AfterFailureMode.PREVIOUS_SEED)
    @net.jqwik.api.Tag("points:1")
    @Label("poolSize: a size beyond Integer.MAX_VALUE is Integer.MAX_VALUE")
    void poolSizeBeyondIntIsIntMax(@ForAll("hugeSizings") Sizing sizing) {
        int size = assertDoesNotThrow(sizing::poolSize, sizing + " threw, but every argument is valid");
        assertEquals(Integer.MAX_VALUE, size, sizing + ": the exact size is "
                + sizing.exact().round(new MathContext(6)).toPlainString() + ", beyond an int");
    }

    /** Which argument a bad call spoils, and with which value. */
    record BadArgument(String what, Sizing sizing) {
        @Override
        public String toString() {
            return sizing + " (" + what + ")";
        }
    }

    private static Arbitrary<Duration> negativeDurations() {
        return Arbitraries.oneOf(positiveDurations().map(Duration::negated),
                Arbitraries.of(Duration.ofNanos(-1), Duration.ofSeconds(-1), Duration.ofSeconds(-1, 1)));
    }

    @Provide
    Arbitrary<BadArgument> badArguments() {
        Arbitrary<Sizing> valid = sizings();
        Arbitrary<Integer> badCores = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.integers().between(Integer.MIN_VALUE, 0)),
                Tuple.of(1, Arbitraries.of(0, -1, Integer.MIN_VALUE)));
        Arbitrary<Double> badUtilizations = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.doubles().between(-1e9, true, 0.0, true).ofScale(17)),
                Tuple.of(2, Arbitraries.doubles().between(1.0, false, 1e9, true).ofScale(17).filter(u -> u > 1.0)),
                Tuple.of(3, Arbitraries.of(0.0, -0.0, -Double.MIN_VALUE, Math.nextUp(1.0), 1.5,
                        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN)));
        Arbitrary<Duration> badComputes = Arbitraries.oneOf(Arbitraries.just(Duration.ZERO), negativeDurations());
        return Arbitraries.oneOf(
                Combinators.combine(valid, badCores).as((s, c) ->
                        new BadArgument("cores < 1", new Sizing(c, s.utilization(), s.waitTime(), s.computeTime()))),
                Combinators.combine(valid, badUtilizations).as((s, u) ->
                        new BadArgument("U not in (0, 1]", new Sizing(s.cores(), u, s.waitTime(), s.computeTime()))),
                Combinators.combine(valid, negativeDurations()).as((s, w) ->
                        new BadArgument("a negative wait", new Sizing(s.cores(), s.utilization(), w, s.computeTime()))),
                Combinators.combine(valid, badComputes).as((s, c) ->
                        new BadArgument("a compute time that is not positive",
                                new Sizing(s.cores(), s.utilization(), s.waitTime(), c))));
    }

    @TestOrder(5)
    @Property(seed = "2004005", tries = 600, afterFailure = AfterFailureMode.PREVIOUS_SEED)
    @net.jqwik.api.Tag("points:1")
    @Label("poolSize: rejects cores < 1, U ≤ 0, U > 1 or NaN, a negative wait, a compute time that is not positive, "
            + "any one of them alone")
    void poolSizeRejectsBadArguments(@ForAll("badArguments") BadArgument bad) {
        assertThrows(IllegalArgumentException.class, bad.sizing()::poolSize,
                bad.sizing() + " must throw IllegalArgumentException: " + bad.what());
    }

    @Provide
    Arbitrary<Sizing> edgeSizings() {
        Arbitrary<Integer> cores = Arbitraries.oneOf(Arbitraries.of(1), cores());
        Arbitrary<Double> utilizations = Arbitraries.oneOf(Arbitraries.of(1.0, Double.MIN_VALUE), utilizations());
        Arbitrary<Duration> waits = Arbitraries.oneOf(Arbitraries.just(Duration.ZERO), positiveDurations());
        Arbitrary<Duration> computes = Arbitraries.oneOf(
                Arbitraries.of(Duration.ofNanos(1)), Arbitraries.longs().between(1, 999_999).map(Duration::ofNanos),
                positiveDurations());
        return Combinators.combine(cores, utilizations, waits, computes).as(Sizing::new);
    }

    @TestOrder(6)
    @Property(seed = "2004006", tries = 300, afterFailure = AfterFailureMode.PREVIOUS_SEED)
    @net.jqwik.api.Tag("points:1")
    @Label("poolSize: accepts every valid argument, each at its edge: 1 core, U = 1 or the smallest double, no wait, "
            + "a compute time of 1 ns or under a millisecond")
    void poolSizeAcceptsArgumentsAtTheirEdges(@ForAll("edgeSizings") Sizing sizing) {
        assertDoesNotThrow(sizing::poolSize, sizing + " threw, but every argument is valid");
    }

    @Order(7)
    @Test
    @Tag("points:3")
    @Timeout(20)
    @DisplayName("CPU_BOUND: a fixed pool of exactly availableProcessors() platform threads")
    void cpuBoundIsAFixedPlatformPoolOfCoresThreads() throws InterruptedException {
        int cores = Runtime.getRuntime().availableProcessors();
        int tasks = 3 * cores;
        ExecutorService executor = Workloads.executorFor(WorkloadKind.CPU_BOUND);
        assertNotNull(executor, "executorFor(CPU_BOUND) returned null");
        Observed seen = runBlockingTasks(executor, tasks, cores);
        assertAll(
                () -> assertEquals(tasks, seen.probe().entered(), "tasks that ran"),
                () -> assertEquals(tasks, seen.probe().platformCount(), "tasks that ran on a platform thread"),
                () -> assertEquals(cores, seen.probe().peak(),
                        "tasks running at once (availableProcessors() = " + cores + ")"),
                () -> assertEquals(cores, seen.distinctThreads(),
                        "distinct threads that ran the " + tasks + " tasks (a fixed pool reuses its " + cores + ")"));
    }

    @Order(8)
    @Test
    @Tag("points:3")
    @Timeout(20)
    @DisplayName("IO_BOUND: a new virtual thread per task, 100 tasks at once")
    void ioBoundIsAVirtualThreadPerTask() throws InterruptedException {
        int tasks = 100;
        ExecutorService executor = Workloads.executorFor(WorkloadKind.IO_BOUND);
        assertNotNull(executor, "executorFor(IO_BOUND) returned null");
        Observed seen = runBlockingTasks(executor, tasks, tasks);
        assertAll(
                () -> assertEquals(tasks, seen.probe().entered(), "tasks that ran"),
                () -> assertEquals(tasks, seen.probe().virtualCount(), "tasks that ran on a virtual thread"),
                () -> assertEquals(tasks, seen.probe().peak(), "tasks running at once"),
                () -> assertEquals(tasks, seen.distinctThreads(), "distinct threads (one new thread per task)"));
    }

    @Order(9)
    @Test
    @Tag("points:2")
    @Timeout(10)
    @DisplayName("IO_BOUND: never reuses a thread, not even an idle one: 20 tasks one after another, 20 threads")
    void ioBoundNeverReusesAThread() throws Exception {
        int tasks = 20;
        Probe probe = new Probe();
        try (ExecutorService executor = Workloads.executorFor(WorkloadKind.IO_BOUND)) {
            assertNotNull(executor, "executorFor(IO_BOUND) returned null");
            for (int i = 0; i < tasks; i++) {
                // Each task is submitted once the one before has ended and its thread has ended or sits idle.
                Thread ranOn = executor.submit(probe.wrap(Thread::currentThread)).get(5, TimeUnit.SECONDS);
                awaitEndedOrIdle(ranOn);
            }
        }
        assertAll(
                () -> assertEquals(tasks, probe.entered(), "tasks that ran"),
                () -> assertEquals(tasks, probe.threads(),
                        "distinct threads that ran " + tasks + " tasks submitted one after another (an executor "
                                + "that keeps idle threads, such as a cached pool, hands a task to one that ran "
                                + "an earlier task)"));
    }

    @Order(10)
    @Test
    @Tag("points:2")
    @Timeout(20)
    @DisplayName("IO_BOUND: no limit: 20,000 tasks that wait are all running at once")
    void ioBoundHasNoLimit() throws Exception {
        int tasks = 20_000;
        Probe probe = new Probe();
        CountDownLatch started = new CountDownLatch(tasks);
        CountDownLatch gate = new CountDownLatch(1);
        boolean allStarted;
        long startedBeforeTheGate;
        try (ExecutorService executor = Workloads.executorFor(WorkloadKind.IO_BOUND)) {
            assertNotNull(executor, "executorFor(IO_BOUND) returned null");
            // 20,000 platform threads could exhaust the machine: check the kind with one task first.
            Thread first = executor.submit(Thread::currentThread).get(5, TimeUnit.SECONDS);
            assertTrue(first.isVirtual(), "executorFor(IO_BOUND) ran a task on a platform thread (" + first
                    + "); this test starts " + tasks + " tasks and needs virtual threads");
            try {
                for (int i = 0; i < tasks; i++) {
                    executor.submit(probe.wrap(() -> {
                        started.countDown();
                        return gate.await(15, TimeUnit.SECONDS);
                    }));
                }
                allStarted = awaitWhileItMoves(started, Duration.ofSeconds(1));
            } finally {
                startedBeforeTheGate = tasks - started.getCount();
                gate.countDown();
            }
        }
        assertAll(
                () -> assertEquals(tasks, probe.entered(), "tasks that ran"),
                () -> assertTrue(allStarted, startedBeforeTheGate + " of " + tasks + " waiting tasks had started, "
                        + "then no more started for 1 s: the executor holds the rest back (a pool of a fixed "
                        + "size, however large, is a limit)"),
                () -> assertEquals(tasks, probe.peak(), "tasks running at once"));
    }

    @Order(11)
    @Test
    @Tag("points:1")
    @DisplayName("every call returns a new executor: closing one leaves the next usable")
    void everyCallReturnsANewExecutor() throws Exception {
        for (WorkloadKind kind : WorkloadKind.values()) {
            ExecutorService first = Workloads.executorFor(kind);
            first.close();
            try (ExecutorService second = Workloads.executorFor(kind)) {
                assertNotSame(first, second, "executorFor(" + kind + ") returned the same executor twice");
                assertEquals(7, second.submit(() -> 7).get(), "a task on a fresh executorFor(" + kind + ")");
            }
        }
    }
}
