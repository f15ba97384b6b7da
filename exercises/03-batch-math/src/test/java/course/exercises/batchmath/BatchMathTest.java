package course.exercises.batchmath;

import static java.time.Duration.ofMillis;
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
                        "fixedPoolTime(0, 4, 1 s)"));
    }

    @Order(2)
    @Test
    @Tag("points:2")
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

    @Order(4)
    @Test
    @Tag("points:2")
    @DisplayName("makespan: the next task goes to the worker that is free first (not round-robin)")
    void makespanUsesTheFirstFreeWorker() {
        // A: 3 s. B: 1 s, then 1 s, then 1 s, because B is free first each time. Makespan 3 s.
        // Dealing the tasks out in turn would give A 3 s + 1 s = 4 s.
        assertEquals(ofSeconds(3),
                BatchMath.makespan(List.of(ofSeconds(3), ofSeconds(1), ofSeconds(1), ofSeconds(1)), 2),
                "makespan([3 s, 1 s, 1 s, 1 s], 2 workers)");
    }

    @Order(5)
    @Test
    @Tag("points:2")
    @DisplayName("makespan: tasks keep their list order (FIFO, not longest first)")
    void makespanKeepsListOrder() {
        // A: 1 s, 1 s. B: 1 s, then the 3 s task at t = 1 s. Makespan 4 s.
        // Sorting longest first would give 3 s.
        assertEquals(ofSeconds(4),
                BatchMath.makespan(List.of(ofSeconds(1), ofSeconds(1), ofSeconds(1), ofSeconds(3)), 2),
                "makespan([1 s, 1 s, 1 s, 3 s], 2 workers)");
    }

    @Order(6)
    @Test
    @Tag("points:1")
    @DisplayName("makespan: no tasks, one worker, and more workers than tasks")
    void makespanEdgeCases() {
        assertAll(
                () -> assertEquals(Duration.ZERO, BatchMath.makespan(List.of(), 3), "makespan([], 3)"),
                () -> assertEquals(ofMillis(600), BatchMath.makespan(List.of(ofMillis(100), ofMillis(200), ofMillis(300)), 1),
                        "makespan([100 ms, 200 ms, 300 ms], 1 worker)"),
                () -> assertEquals(ofSeconds(3), BatchMath.makespan(List.of(ofSeconds(2), ofSeconds(3)), 5),
                        "makespan([2 s, 3 s], 5 workers)"));
    }

    @Order(7)
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

    @Order(8)
    @Test
    @Tag("points:2")
    @DisplayName("throughputPerSecond: Little's law, concurrency / latency")
    void throughputIsConcurrencyOverLatency() {
        assertAll(
                () -> assertEquals(200.0, BatchMath.throughputPerSecond(200, ofSeconds(1)), 1e-9,
                        "throughputPerSecond(200, 1 s)"),
                () -> assertEquals(20.0, BatchMath.throughputPerSecond(10, ofMillis(500)), 1e-9,
                        "throughputPerSecond(10, 500 ms)"),
                () -> assertEquals(4.0, BatchMath.throughputPerSecond(1, ofMillis(250)), 1e-9,
                        "throughputPerSecond(1, 250 ms)"),
                () -> assertEquals(0.0, BatchMath.throughputPerSecond(0, ofSeconds(2)), 1e-9,
                        "throughputPerSecond(0, 2 s)"));
    }

    @Order(9)
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

    @Order(10)
    @Test
    @Tag("points:2")
    @DisplayName("concurrencyFor: Little's law, arrivals × latency, rounded up (ceil, not floor or round)")
    void concurrencyIsArrivalsTimesLatencyRoundedUp() {
        assertAll(
                () -> assertEquals(10, BatchMath.concurrencyFor(40, ofMillis(250)), "concurrencyFor(40/s, 250 ms)"),
                () -> assertEquals(25, BatchMath.concurrencyFor(12.5, ofSeconds(2)), "concurrencyFor(12.5/s, 2 s)"),
                () -> assertEquals(3, BatchMath.concurrencyFor(7, ofMillis(300)), "concurrencyFor(7/s, 300 ms) = ceil(2.1)"),
                () -> assertEquals(2, BatchMath.concurrencyFor(10, ofMillis(150)), "concurrencyFor(10/s, 150 ms) = ceil(1.5)"),
                () -> assertEquals(0, BatchMath.concurrencyFor(0, ofSeconds(1)), "concurrencyFor(0/s, 1 s)"));
    }

    @Order(11)
    @Test
    @Tag("points:1")
    @DisplayName("concurrencyFor: rejects negative arrivals and a latency that is not positive")
    void concurrencyRejectsBadArguments() {
        assertAll(
                () -> assertThrows(IllegalArgumentException.class, () -> BatchMath.concurrencyFor(-1, ofSeconds(1)),
                        "concurrencyFor(-1/s, 1 s)"),
                () -> assertThrows(IllegalArgumentException.class, () -> BatchMath.concurrencyFor(10, Duration.ZERO),
                        "concurrencyFor(10/s, 0 s)"),
                () -> assertThrows(IllegalArgumentException.class, () -> BatchMath.concurrencyFor(10, ofSeconds(-1)),
                        "concurrencyFor(10/s, -1 s)"));
    }
}
