package course.exercises.batchmath;

import static java.time.Duration.ofMillis;
import static java.time.Duration.ofNanos;
import static java.time.Duration.ofSeconds;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
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

    @Order(4)
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

    @Order(5)
    @Test
    @Tag("points:1")
    @DisplayName("fixedPoolTime: rejects negative tasks, workers < 1 and a negative task time")
    void fixedPoolTimeRejectsBadArguments() {
        assertAll(
                () -> assertThrows(IllegalArgumentException.class, () -> BatchMath.fixedPoolTime(-1, 2, ofSeconds(1)),
                        "fixedPoolTime(-1, 2, 1 s)"),
                () -> assertThrows(IllegalArgumentException.class, () -> BatchMath.fixedPoolTime(5, 0, ofSeconds(1)),
                        "fixedPoolTime(5, 0, 1 s)"),
                () -> assertThrows(IllegalArgumentException.class, () -> BatchMath.fixedPoolTime(5, 2, ofSeconds(-1)),
                        "fixedPoolTime(5, 2, -1 s)"));
    }

    @Order(6)
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

    @Order(7)
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

    @Order(8)
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
                () -> assertEquals(ofSeconds(3), BatchMath.makespan(List.of(ofSeconds(3), ofSeconds(1)), 2),
                        "makespan([3 s, 1 s], 2 workers): the 3 s task ends last, though it is first in the list"));
    }

    @Order(9)
    @Test
    @Tag("points:1")
    @DisplayName("makespan: exact to the nanosecond, never rounded to milliseconds")
    void makespanIsExactToTheNanosecond() {
        // A: 1,500,001 ns. B: 700,000 ns, then 800,000 ns, ending at 1,500,000 ns.
        assertEquals(ofNanos(1_500_001),
                BatchMath.makespan(List.of(ofNanos(1_500_001), ofNanos(700_000), ofNanos(800_000)), 2),
                "makespan([1,500,001 ns, 700,000 ns, 800,000 ns], 2 workers)");
    }

    @Order(10)
    @Test
    @Tag("points:1")
    @DisplayName("makespan: rejects workers < 1 and a negative task time")
    void makespanRejectsBadArguments() {
        assertAll(
                () -> assertThrows(IllegalArgumentException.class, () -> BatchMath.makespan(List.of(ofSeconds(1)), 0),
                        "makespan([1 s], 0)"),
                () -> assertThrows(IllegalArgumentException.class,
                        () -> BatchMath.makespan(List.of(ofSeconds(1), ofSeconds(-1)), 2),
                        "makespan([1 s, -1 s], 2)"));
    }

    @Order(11)
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

    @Order(12)
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

    @Order(13)
    @Test
    @Tag("points:1")
    @DisplayName("throughputPerSecond: rejects negative concurrency and a latency that is not positive")
    void throughputRejectsBadArguments() {
        assertAll(
                () -> assertThrows(IllegalArgumentException.class, () -> BatchMath.throughputPerSecond(-1, ofSeconds(1)),
                        "throughputPerSecond(-1, 1 s)"),
                () -> assertThrows(IllegalArgumentException.class, () -> BatchMath.throughputPerSecond(10, Duration.ZERO),
                        "throughputPerSecond(10, 0 s)"),
                () -> assertThrows(IllegalArgumentException.class, () -> BatchMath.throughputPerSecond(10, ofMillis(-5)),
                        "throughputPerSecond(10, -5 ms)"));
    }

    @Order(14)
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

    @Order(15)
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

    @Order(16)
    @Test
    @Tag("points:1")
    @DisplayName("concurrencyFor: rejects arrivals that are negative, NaN or infinite, and a latency that is not positive")
    void concurrencyRejectsBadArguments() {
        assertAll(
                () -> assertThrows(IllegalArgumentException.class, () -> BatchMath.concurrencyFor(-1, ofSeconds(1)),
                        "concurrencyFor(-1/s, 1 s)"),
                () -> assertThrows(IllegalArgumentException.class,
                        () -> BatchMath.concurrencyFor(Double.NaN, ofSeconds(1)), "concurrencyFor(NaN/s, 1 s)"),
                () -> assertThrows(IllegalArgumentException.class,
                        () -> BatchMath.concurrencyFor(Double.POSITIVE_INFINITY, ofSeconds(1)),
                        "concurrencyFor(Infinity/s, 1 s)"),
                () -> assertThrows(IllegalArgumentException.class, () -> BatchMath.concurrencyFor(10, Duration.ZERO),
                        "concurrencyFor(10/s, 0 s)"),
                () -> assertThrows(IllegalArgumentException.class, () -> BatchMath.concurrencyFor(10, ofSeconds(-1)),
                        "concurrencyFor(10/s, -1 s)"));
    }
}
