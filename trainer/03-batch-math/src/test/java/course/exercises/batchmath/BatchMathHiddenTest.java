package course.exercises.batchmath;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The trainer's hidden test for exercise 03: counts towards the grade, never shown to the learner. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("BatchMath (hidden)")
class BatchMathHiddenTest {

    @Order(1)
    @Test
    @Tag("points:2")
    @Tag("visibility:hidden")
    @DisplayName("one worker per task: a single batch, and the longest task decides the makespan")
    void oneWorkerPerTask() {
        assertEquals(Duration.ofSeconds(2), BatchMath.fixedPoolTime(7, 7, Duration.ofSeconds(2)),
                "fixedPoolTime(7, 7, 2 s)");
        assertEquals(Duration.ofSeconds(3),
                BatchMath.makespan(List.of(Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ofSeconds(2)), 3),
                "makespan([3 s, 1 s, 2 s], 3 workers)");
    }
}
