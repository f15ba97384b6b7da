package course.exercises.batchmath;

import static java.time.Duration.ofMillis;
import static java.time.Duration.ofNanos;
import static java.time.Duration.ofSeconds;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.TestOrder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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

/** The course's tests for exercise 03. Each test's {@code points:N} tag is what it is worth. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("BatchMath")
class BatchMathTest {

    @Order(1)
    @Test
    @Tag("points:1")
    @DisplayName("fixedPoolTime: whole batches (10,000 tasks × 1 s on 200 workers = 50 s)")
    void fixedPoolTimeWholeBatches() {
        assertAll(
                () -> assertEquals(ofSeconds(50), BatchMath.fixedPoolTime(10_000, 200, ofSeconds(1)),
                        "fixedPoolTime(10000, 200, 1 s)"),
                () -> assertEquals(ofSeconds(3), BatchMath.fixedPoolTime(9, 3, ofSeconds(1)),
                        "fixedPoolTime(9, 3, 1 s)"),
                () -> assertEquals(Duration.ZERO, BatchMath.fixedPoolTime(0, 4, ofSeconds(1)),
                        "fixedPoolTime(0, 4, 1 s)"),
                () -> assertEquals(ofSeconds(3), BatchMath.fixedPoolTime(3, 1, ofSeconds(1)),
                        "fixedPoolTime(3, 1, 1 s): one worker, one task at a time"));
    }

    @Order(2)
    @Test
    @Tag("points:1")
    @DisplayName("fixedPoolTime: a partial last batch still takes a full task time (ceil, not floor)")
    void fixedPoolTimeRoundsUp() {
        assertAll(
                () -> assertEquals(ofSeconds(4), BatchMath.fixedPoolTime(10, 3, ofSeconds(1)),
                        "fixedPoolTime(10, 3, 1 s): batches of 3, 3, 3 and 1"),
                () -> assertEquals(ofMillis(300), BatchMath.fixedPoolTime(1, 8, ofMillis(300)),
                        "fixedPoolTime(1, 8, 300 ms)"),
                () -> assertEquals(ofSeconds(51), BatchMath.fixedPoolTime(10_001, 200, ofSeconds(1)),
                        "fixedPoolTime(10001, 200, 1 s)"));
    }

    @Order(3)
    @Test
    @Tag("points:1")
    @DisplayName("fixedPoolTime: the batch count does not overflow, up to Integer.MAX_VALUE tasks")
    void fixedPoolTimeDoesNotOverflow() {
        assertAll(
                () -> assertEquals(ofSeconds(1_073_741_824), BatchMath.fixedPoolTime(Integer.MAX_VALUE, 2, ofSeconds(1)),
                        "fixedPoolTime(Integer.MAX_VALUE, 2, 1 s): 1,073,741,824 batches (does tasks + workers - 1"
                                + " overflow an int?)"),
                () -> assertEquals(ofSeconds(1),
                        BatchMath.fixedPoolTime(Integer.MAX_VALUE, Integer.MAX_VALUE, ofSeconds(1)),
                        "fixedPoolTime(Integer.MAX_VALUE, Integer.MAX_VALUE, 1 s): one batch"));
    }

    @TestOrder(4)
    @Property(seed = "3000004", tries = 40)
    @net.jqwik.api.Tag("points:2")
    @Label("fixedPoolTime: ceil(tasks / workers) · taskTime for any tasks and workers up to Integer.MAX_VALUE")
    void fixedPoolTimeIsCeilOfTasksOverWorkers(@ForAll("pools") Pool pool) {
        BigInteger batches = ceilDiv(pool.tasks(), pool.workers());
        Duration expected = Duration.ofNanos(batches.multiply(BigInteger.valueOf(pool.taskTime().toNanos())).longValueExact());
        assertEquals(expected, BatchMath.fixedPoolTime(pool.tasks(), pool.workers(), pool.taskTime()),
                "fixedPoolTime(" + pool.tasks() + ", " + pool.workers() + ", " + pool.taskTime() + "): " + batches
                        + " batches of " + pool.taskTime() + ", to the nanosecond");
    }

    @Order(5)
    @Test
    @Tag("points:1")
    @DisplayName("fixedPoolTime: exact to the nanosecond, never rounded to milliseconds")
    void fixedPoolTimeIsExactToTheNanosecond() {
        assertAll(
                () -> assertEquals(ofNanos(4_200_003), BatchMath.fixedPoolTime(5, 2, ofNanos(1_400_001)),
                        "fixedPoolTime(5, 2, 1,400,001 ns): 3 batches"),
                () -> assertEquals(ofNanos(999_999), BatchMath.fixedPoolTime(3, 3, ofNanos(999_999)),
                        "fixedPoolTime(3, 3, 999,999 ns): one batch"));
    }

    @TestOrder(6)
    @Property(seed = "3000006", tries = 50)
    @net.jqwik.api.Tag("points:1")
    @Label("fixedPoolTime: rejects any negative tasks, any workers < 1 and any negative task time (even -1 ns)")
    void fixedPoolTimeRejectsBadArguments(@ForAll("badPools") Pool pool) {
        assertThrows(IllegalArgumentException.class,
                () -> BatchMath.fixedPoolTime(pool.tasks(), pool.workers(), pool.taskTime()),
                "fixedPoolTime(" + pool.tasks() + ", " + pool.workers() + ", " + pool.taskTime()
                        + ") must throw IllegalArgumentException");
    }


    @Order(7)
    @Test
    @Tag("points:1")
    @DisplayName("makespan: the next task goes to the worker that is free first (not round-robin)")
    void makespanUsesTheFirstFreeWorker() {
        // A: 3 s. B: 1 s, then 1 s, then 1 s, because B is free first each time. Makespan 3 s.
        // Dealing the tasks out in turn would give A 3 s + 1 s = 4 s.
        assertEquals(ofSeconds(3),
                BatchMath.makespan(List.of(ofSeconds(3), ofSeconds(1), ofSeconds(1), ofSeconds(1)), 2),
                "makespan([3 s, 1 s, 1 s, 1 s], 2 workers)");
    }

    @Order(8)
    @Test
    @Tag("points:1")
    @DisplayName("makespan: tasks keep their list order (FIFO, never sorted longest or shortest first)")
    void makespanKeepsListOrder() {
        assertAll(
                // A: 1 s, 1 s. B: 1 s, then the 3 s task at t = 1 s. Makespan 4 s. Longest first would give 3 s.
                () -> assertEquals(ofSeconds(4),
                        BatchMath.makespan(List.of(ofSeconds(1), ofSeconds(1), ofSeconds(1), ofSeconds(3)), 2),
                        "makespan([1 s, 1 s, 1 s, 3 s], 2 workers)"),
                // A: 2 s. B: 1 s, 1 s. Makespan 2 s. Shortest first would give 1 s + 2 s = 3 s.
                () -> assertEquals(ofSeconds(2),
                        BatchMath.makespan(List.of(ofSeconds(2), ofSeconds(1), ofSeconds(1)), 2),
                        "makespan([2 s, 1 s, 1 s], 2 workers)"));
    }

    @TestOrder(9)
    @Property(seed = "3000009", tries = 30)
    @net.jqwik.api.Tag("points:1")
    @Label("makespan: the list and the same list reversed each run in their own order (never sorted)")
    void makespanNeverReordersTheTasks(@ForAll("crowdedPools") Tasks tasks) {
        List<Duration> reversed = new ArrayList<>(tasks.taskTimes());
        Collections.reverse(reversed);
        assertAll(
                () -> assertEquals(fifoMakespan(tasks.taskTimes(), tasks.workers()),
                        BatchMath.makespan(tasks.taskTimes(), tasks.workers()),
                        "makespan(" + tasks.taskTimes() + ", " + tasks.workers() + " workers), tasks in list order"),
                () -> assertEquals(fifoMakespan(reversed, tasks.workers()),
                        BatchMath.makespan(reversed, tasks.workers()),
                        "makespan(" + reversed + ", " + tasks.workers() + " workers), tasks in list order"));
    }

    @Order(10)
    @Test
    @Tag("points:1")
    @DisplayName("makespan: when the last task ends; no tasks, one worker, more workers than tasks")
    void makespanEdgeCases() {
        assertAll(
                () -> assertEquals(Duration.ZERO, BatchMath.makespan(List.of(), 3), "makespan([], 3)"),
                () -> assertEquals(ofMillis(600), BatchMath.makespan(List.of(ofMillis(100), ofMillis(200), ofMillis(300)), 1),
                        "makespan([100 ms, 200 ms, 300 ms], 1 worker)"),
                () -> assertEquals(ofSeconds(3), BatchMath.makespan(List.of(ofSeconds(2), ofSeconds(3)), 5),
                        "makespan([2 s, 3 s], 5 workers)"),
                () -> assertEquals(ofSeconds(1), BatchMath.makespan(Collections.nCopies(100, ofSeconds(1)), 100),
                        "makespan([1 s × 100], 100 workers): one task each"),
                () -> assertEquals(ofSeconds(3),
                        BatchMath.makespan(List.of(ofSeconds(2), ofSeconds(3)), Integer.MAX_VALUE),
                        "makespan([2 s, 3 s], Integer.MAX_VALUE workers): only two of them are ever busy"),
                () -> assertEquals(ofSeconds(3), BatchMath.makespan(List.of(ofSeconds(3), ofSeconds(1)), 2),
                        "makespan([3 s, 1 s], 2 workers): the 3 s task ends last, though it is first in the list"));
    }

    @TestOrder(11)
    @Property(seed = "3000011", tries = 40)
    @net.jqwik.api.Tag("points:2")
    @Label("makespan: the latest end on a FIFO pool, to the nanosecond, for any list and workers up to Integer.MAX_VALUE")
    void makespanIsTheLatestEndOnAFifoPool(@ForAll("fifoPools") Tasks tasks) {
        assertEquals(fifoMakespan(tasks.taskTimes(), tasks.workers()),
                BatchMath.makespan(tasks.taskTimes(), tasks.workers()),
                "makespan(" + tasks.taskTimes() + ", " + tasks.workers()
                        + " workers): each task, in list order, to the worker free first; the latest end");
    }

    @Order(12)
    @Test
    @Tag("points:1")
    @DisplayName("makespan: exact to the nanosecond, never rounded to milliseconds")
    void makespanIsExactToTheNanosecond() {
        // A: 1,500,001 ns. B: 700,000 ns, then 800,000 ns, ending at 1,500,000 ns.
        assertEquals(ofNanos(1_500_001),
                BatchMath.makespan(List.of(ofNanos(1_500_001), ofNanos(700_000), ofNanos(800_000)), 2),
                "makespan([1,500,001 ns, 700,000 ns, 800,000 ns], 2 workers)");
    }

    @TestOrder(13)
    @Property(seed = "3000013", tries = 50)
    @net.jqwik.api.Tag("points:1")
    @Label("makespan: rejects any workers < 1 and a negative task time (even -1 ns) anywhere in the list")
    void makespanRejectsBadArguments(@ForAll("badTasks") Tasks tasks) {
        assertThrows(IllegalArgumentException.class, () -> BatchMath.makespan(tasks.taskTimes(), tasks.workers()),
                "makespan(" + tasks.taskTimes() + ", " + tasks.workers() + " workers) must throw IllegalArgumentException");
    }


    @Order(14)
    @Test
    @Tag("points:1")
    @DisplayName("throughputPerSecond: Little's law, concurrency / latency, with its fraction")
    void throughputIsConcurrencyOverLatency() {
        assertAll(
                () -> assertEquals(200.0, BatchMath.throughputPerSecond(200, ofSeconds(1)), 1e-9,
                        "throughputPerSecond(200, 1 s)"),
                () -> assertEquals(20.0, BatchMath.throughputPerSecond(10, ofMillis(500)), 1e-9,
                        "throughputPerSecond(10, 500 ms)"),
                () -> assertEquals(4.0, BatchMath.throughputPerSecond(1, ofMillis(250)), 1e-9,
                        "throughputPerSecond(1, 250 ms)"),
                () -> assertEquals(100.0 / 3, BatchMath.throughputPerSecond(10, ofMillis(300)), 1e-9,
                        "throughputPerSecond(10, 300 ms) = 33.33… (an integer division drops the fraction)"),
                () -> assertEquals(0.0, BatchMath.throughputPerSecond(0, ofSeconds(2)), 1e-9,
                        "throughputPerSecond(0, 2 s)"));
    }

    @TestOrder(15)
    @Property(seed = "3000015", tries = 40)
    @net.jqwik.api.Tag("points:2")
    @Label("throughputPerSecond: concurrency / latency for any concurrency and any latency from 1 ns, with its fraction")
    void throughputIsLittlesLaw(@ForAll("concurrencies") int concurrency, @ForAll("latencies") Duration latency) {
        BigDecimal expected = BigDecimal.valueOf(concurrency).multiply(NANOS_PER_SECOND)
                .divide(BigDecimal.valueOf(latency.toNanos()), MathContext.DECIMAL128);
        double actual = BatchMath.throughputPerSecond(concurrency, latency);
        assertTrue(closeTo(expected, actual),
                "throughputPerSecond(" + concurrency + ", " + latency + ") = " + concurrency + " / "
                        + seconds(latency) + " s = " + expected.round(MathContext.DECIMAL64) + ", was " + actual);
    }

    @Order(16)
    @Test
    @Tag("points:1")
    @DisplayName("throughputPerSecond: the latency counts to the nanosecond, never rounded to milliseconds")
    void throughputIsExactToTheNanosecond() {
        assertAll(
                () -> assertEquals(2000.0, BatchMath.throughputPerSecond(3, ofNanos(1_500_000)), 1e-6,
                        "throughputPerSecond(3, 1,500,000 ns)"),
                () -> assertEquals(1e9 / 2_000_001, BatchMath.throughputPerSecond(1, ofNanos(2_000_001)), 1e-9,
                        "throughputPerSecond(1, 2,000,001 ns) = 499.99975…"));
    }

    @TestOrder(17)
    @Property(seed = "3000017", tries = 50)
    @net.jqwik.api.Tag("points:1")
    @Label("throughputPerSecond: rejects any negative concurrency and any latency that is zero or negative")
    void throughputRejectsBadArguments(@ForAll("badThroughputs") Throughput bad) {
        assertThrows(IllegalArgumentException.class, () -> BatchMath.throughputPerSecond(bad.concurrency(), bad.latency()),
                "throughputPerSecond(" + bad.concurrency() + ", " + bad.latency() + ") must throw IllegalArgumentException");
    }


    @Order(18)
    @Test
    @Tag("points:1")
    @DisplayName("concurrencyFor: Little's law, arrivals × latency, rounded up (ceil, not floor or round)")
    void concurrencyIsArrivalsTimesLatencyRoundedUp() {
        assertAll(
                () -> assertEquals(10, BatchMath.concurrencyFor(40, ofMillis(250)), "concurrencyFor(40/s, 250 ms)"),
                () -> assertEquals(25, BatchMath.concurrencyFor(12.5, ofSeconds(2)), "concurrencyFor(12.5/s, 2 s)"),
                () -> assertEquals(3, BatchMath.concurrencyFor(7, ofMillis(300)), "concurrencyFor(7/s, 300 ms) = ceil(2.1)"),
                () -> assertEquals(2, BatchMath.concurrencyFor(10, ofMillis(150)), "concurrencyFor(10/s, 150 ms) = ceil(1.5)"),
                () -> assertEquals(0, BatchMath.concurrencyFor(0, ofSeconds(1)), "concurrencyFor(0/s, 1 s)"));
    }

    @TestOrder(19)
    @Property(seed = "3000019", tries = 60)
    @net.jqwik.api.Tag("points:2")
    @Label("concurrencyFor: ceil(arrivals · latency) for any rate and latency to the nanosecond, up to Integer.MAX_VALUE")
    void concurrencyForIsLittlesLawRoundedUp(@ForAll("littles") Little little) {
        BigDecimal exact = little.exact();
        int expected = exact.setScale(0, RoundingMode.CEILING).intValueExact();
        assertEquals(expected, BatchMath.concurrencyFor(little.arrivalsPerSecond(), little.latency()),
                "concurrencyFor(" + little.arrivalsPerSecond() + "/s, " + little.latency() + ") = ceil("
                        + exact.stripTrailingZeros().toPlainString() + "), rounded up to a whole task");
    }

    @Order(20)
    @Test
    @Tag("points:1")
    @DisplayName("concurrencyFor: the latency counts to the nanosecond, never rounded to milliseconds")
    void concurrencyForIsExactToTheNanosecond() {
        assertAll(
                () -> assertEquals(3, BatchMath.concurrencyFor(2000, ofNanos(1_400_000)),
                        "concurrencyFor(2,000/s, 1,400,000 ns) = ceil(2.8)"),
                () -> assertEquals(1001, BatchMath.concurrencyFor(1_000_000, ofNanos(1_000_001)),
                        "concurrencyFor(1,000,000/s, 1,000,001 ns) = ceil(1000.001)"));
    }

    @TestOrder(21)
    @Property(seed = "3000021", tries = 100)
    @net.jqwik.api.Tag("points:1")
    @Label("concurrencyFor: rejects arrivals that are negative, NaN or infinite, and any latency that is zero or negative")
    void concurrencyRejectsBadArguments(@ForAll("badLittles") Little bad) {
        assertThrows(IllegalArgumentException.class,
                () -> BatchMath.concurrencyFor(bad.arrivalsPerSecond(), bad.latency()),
                "concurrencyFor(" + bad.arrivalsPerSecond() + "/s, " + bad.latency()
                        + ") must throw IllegalArgumentException");
    }

    // The inputs of the properties, and the contract's formulas in exact arithmetic.

    private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);
    private static final long SECOND = 1_000_000_000L;

    /** Arguments of fixedPoolTime. */
    record Pool(int tasks, int workers, Duration taskTime) {
    }

    /** Arguments of makespan. */
    record Tasks(List<Duration> taskTimes, int workers) {
    }

    /** Arguments of throughputPerSecond. */
    record Throughput(int concurrency, Duration latency) {
    }

    /** Arguments of concurrencyFor. */
    record Little(double arrivalsPerSecond, Duration latency) {
        /** arrivals · latency in seconds, exactly (the rate as it is written in decimal). */
        BigDecimal exact() {
            return BigDecimal.valueOf(arrivalsPerSecond).multiply(BigDecimal.valueOf(latency.toNanos()))
                    .divide(NANOS_PER_SECOND);
        }
    }

    /**
     * Durations to the nanosecond from 0 to {@code max} ns: under a millisecond, under a second, above a second
     * with a part under the second, and whole milliseconds and seconds.
     */
    static Arbitrary<Duration> durations(long max) {
        return Arbitraries.frequencyOf(
                        Tuple.of(3, Arbitraries.longs().between(0, Math.min(max, 1_000_000L))),
                        Tuple.of(3, Arbitraries.longs().between(0, Math.min(max, SECOND))),
                        Tuple.of(4, Arbitraries.longs().between(Math.min(max, SECOND), max)),
                        Tuple.of(1, Arbitraries.longs().between(0, max / 1_000_000L).map(ms -> ms * 1_000_000L)),
                        Tuple.of(1, Arbitraries.longs().between(0, max / SECOND).map(s -> s * SECOND)))
                .map(Duration::ofNanos);
    }

    /** Counts from {@code min}: small ones, and any up to Integer.MAX_VALUE. */
    static Arbitrary<Integer> counts(int min) {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.integers().between(min, 100)),
                Tuple.of(2, Arbitraries.integers().between(min, 100_000_000)),
                Tuple.of(3, Arbitraries.integers().between(min, Integer.MAX_VALUE)),
                Tuple.of(1, Arbitraries.integers().between(Integer.MAX_VALUE - 100, Integer.MAX_VALUE)));
    }

    static Arbitrary<Integer> negatives() {
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.integers().between(-100, -1)),
                Tuple.of(1, Arbitraries.integers().between(Integer.MIN_VALUE, -1)));
    }

    static Arbitrary<Duration> negativeDurations() {
        return durations(100 * SECOND).filter(d -> !d.isZero()).map(Duration::negated);
    }

    /** Any tasks, any workers, and a task time to the nanosecond whose product fits a long of nanoseconds. */
    @Provide
    Arbitrary<Pool> pools() {
        return Combinators.combine(counts(0), counts(1)).flatAs((tasks, workers) -> {
            long batches = ceilDiv(tasks, workers).longValueExact();
            long max = batches == 0 ? 100 * SECOND : Math.min(100 * SECOND, Long.MAX_VALUE / batches);
            return durations(max).map(t -> new Pool(tasks, workers, t));
        });
    }

    /** One bad argument of fixedPoolTime, the others good. */
    @Provide
    Arbitrary<Pool> badPools() {
        Arbitrary<Duration> time = durations(100 * SECOND);
        return Arbitraries.oneOf(
                Combinators.combine(negatives(), counts(1), time).as(Pool::new),
                Combinators.combine(counts(0), negatives().map(w -> w + 1), time).as(Pool::new),
                Combinators.combine(counts(0), counts(1), negativeDurations()).as(Pool::new));
    }

    /**
     * Lists of 0 to 30 task times to the nanosecond, up to 20 s each, or of 65 to 150 of them, on any number of
     * workers: a few, about as many as the tasks, more than 64, up to Integer.MAX_VALUE.
     */
    @Provide
    Arbitrary<Tasks> fifoPools() {
        Arbitrary<Integer> workers = Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.integers().between(1, 8)),
                Tuple.of(2, Arbitraries.integers().between(1, 100)),
                Tuple.of(2, Arbitraries.integers().between(65, 200)),
                Tuple.of(1, counts(1)),
                Tuple.of(1, Arbitraries.just(Integer.MAX_VALUE)));
        Arbitrary<List<Duration>> lists = Arbitraries.frequencyOf(
                Tuple.of(3, durations(20 * SECOND).list().ofMinSize(0).ofMaxSize(30)),
                Tuple.of(1, durations(20 * SECOND).list().ofMinSize(65).ofMaxSize(150)));
        return Combinators.combine(lists, workers).as(Tasks::new);
    }

    /** Lists of 3 to 20 task times on 2 to 6 workers: more tasks than workers, so their order matters. */
    @Provide
    Arbitrary<Tasks> crowdedPools() {
        return Arbitraries.integers().between(2, 6).flatMap(workers -> durations(20 * SECOND).list()
                .ofMinSize(workers + 1).ofMaxSize(20).map(list -> new Tasks(list, workers)));
    }

    /** Workers < 1 with any list, or one negative task time anywhere in a list on good workers. */
    @Provide
    Arbitrary<Tasks> badTasks() {
        Arbitrary<List<Duration>> lists = durations(20 * SECOND).list().ofMaxSize(10);
        Arbitrary<Tasks> badWorkers = Combinators.combine(lists, negatives().map(w -> w + 1)).as(Tasks::new);
        Arbitrary<Tasks> badTime = Combinators.combine(lists, negativeDurations(), Arbitraries.integers().between(0, 10),
                        counts(1))
                .as((list, negative, at, workers) -> {
                    List<Duration> withIt = new ArrayList<>(list);
                    withIt.add(Math.min(at, list.size()), negative);
                    return new Tasks(withIt, workers);
                });
        return Arbitraries.oneOf(badWorkers, badTime);
    }

    @Provide
    Arbitrary<Integer> concurrencies() {
        return counts(0);
    }

    /** Latencies to the nanosecond, from 1 ns to 1,000 s. */
    @Provide
    Arbitrary<Duration> latencies() {
        return durations(1_000 * SECOND).filter(d -> !d.isZero());
    }

    @Provide
    Arbitrary<Throughput> badThroughputs() {
        Arbitrary<Duration> notPositive =
                Arbitraries.oneOf(Arbitraries.just(Duration.ZERO), negativeDurations());
        return Arbitraries.oneOf(
                Combinators.combine(negatives(), latencies()).as(Throughput::new),
                Combinators.combine(counts(0), notPositive).as(Throughput::new));
    }

    /**
     * Little's law inputs whose exact product is at most Integer.MAX_VALUE, of three kinds: rates and latencies
     * that are exact in binary (multiples of 1/4 per second and of 125 ms), so the product may be a whole number;
     * rates with up to 3 decimals and latencies to the nanosecond; and whole rates with latencies a few
     * nanoseconds over a whole second, so the product is just over a whole number. The decimal kinds keep only
     * products that are not within a millionth of a millionth of a whole number, where a double cannot tell.
     */
    @Provide
    Arbitrary<Little> littles() {
        Arbitrary<Little> binary = Combinators.combine(
                        Arbitraries.frequencyOf(
                                Tuple.of(1, Arbitraries.integers().between(0, 400_000)),
                                Tuple.of(1, Arbitraries.integers().between(0, 12_500).map(a -> a * 32))),
                        Arbitraries.integers().between(1, 8_000))
                .as((quarters, eighths) -> new Little(quarters / 4.0, Duration.ofNanos(eighths * 125_000_000L)));
        Arbitrary<Little> decimal = Combinators.combine(
                        Arbitraries.longs().between(0, 10_000_000), Arbitraries.integers().between(0, 3),
                        latencies())
                .as((unscaled, scale, latency) ->
                        new Little(BigDecimal.valueOf(unscaled, scale).doubleValue(), latency))
                .filter(BatchMathTest::clearOfWholeNumbers);
        Arbitrary<Little> justOver = Combinators.combine(
                        Arbitraries.integers().between(1, 1_000_000), Arbitraries.integers().between(0, 100),
                        Arbitraries.integers().between(1, 1_000))
                .as((rate, seconds, nanos) -> new Little(rate, Duration.ofSeconds(seconds, nanos)))
                .filter(BatchMathTest::clearOfWholeNumbers);
        return Arbitraries.oneOf(binary, decimal, justOver);
    }

    private static boolean clearOfWholeNumbers(Little little) {
        BigDecimal exact = little.exact();
        if (exact.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            return false;
        }
        BigDecimal fraction = exact.subtract(exact.setScale(0, RoundingMode.FLOOR));
        BigDecimal distance = fraction.min(BigDecimal.ONE.subtract(fraction));
        return distance.compareTo(exact.max(BigDecimal.ONE).multiply(new BigDecimal("1e-12"))) >= 0;
    }

    @Provide
    Arbitrary<Little> badLittles() {
        Arbitrary<Double> badRates = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                        -Double.MIN_VALUE, -Double.MAX_VALUE, -1.0)),
                Tuple.of(1, Arbitraries.doubles().between(-1e9, -0.01)));
        Arbitrary<Double> goodRates = Arbitraries.doubles().between(0, 1e6);
        Arbitrary<Duration> notPositive = Arbitraries.oneOf(Arbitraries.just(Duration.ZERO), negativeDurations());
        return Arbitraries.oneOf(
                Combinators.combine(badRates, latencies()).as(Little::new),
                Combinators.combine(goodRates, notPositive).as(Little::new));
    }

    private static BigInteger ceilDiv(int tasks, int workers) {
        BigInteger w = BigInteger.valueOf(workers);
        return BigInteger.valueOf(tasks).add(w).subtract(BigInteger.ONE).divide(w);
    }

    /** The contract's makespan: each task, in list order, to the worker that is free first; the latest end. */
    static Duration fifoMakespan(List<Duration> taskTimes, int workers) {
        long[] freeAt = new long[Math.min(workers, Math.max(1, taskTimes.size()))];
        long last = 0;
        for (Duration time : taskTimes) {
            int first = 0;
            for (int w = 1; w < freeAt.length; w++) {
                if (freeAt[w] < freeAt[first]) {
                    first = w;
                }
            }
            freeAt[first] = Math.addExact(freeAt[first], time.toNanos());
            last = Math.max(last, freeAt[first]);
        }
        return Duration.ofNanos(last);
    }

    private static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toNanos()).divide(NANOS_PER_SECOND).stripTrailingZeros().toPlainString();
    }

    /** Within a millionth of a millionth of {@code expected}: a double computed in a few steps is that close. */
    private static boolean closeTo(BigDecimal expected, double actual) {
        if (Double.isNaN(actual) || Double.isInfinite(actual)) {
            return false;
        }
        BigDecimal error = new BigDecimal(actual).subtract(expected).abs();
        return error.compareTo(expected.abs().multiply(new BigDecimal("1e-12"))) <= 0;
    }
}
