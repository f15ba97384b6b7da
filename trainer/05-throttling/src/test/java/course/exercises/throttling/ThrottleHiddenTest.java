package course.exercises.throttling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The trainer's hidden test for exercise 05: counts towards the grade, never shown to the learner. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Throttle.callAll (hidden)")
class ThrottleHiddenTest {

    @Order(1)
    @Test
    @Tag("points:1")
    @Tag("visibility:hidden")
    @DisplayName("maxInFlight above the number of calls: every call runs, results in input order")
    void limitAboveTheCallCount() throws InterruptedException, ExecutionException {
        List<Callable<Integer>> calls = List.of(() -> 1, () -> 2, () -> 3);
        assertEquals(List.of(1, 2, 3), Throttle.callAll(calls, 10), "callAll([1, 2, 3], 10)");
    }
}
