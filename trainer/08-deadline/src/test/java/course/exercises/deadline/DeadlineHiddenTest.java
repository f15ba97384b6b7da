package course.exercises.deadline;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The trainer's hidden test for exercise 08: counts towards the grade, never shown to the learner. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Deadline.call (hidden)")
class DeadlineHiddenTest {

    @Order(1)
    @Test
    @Tag("points:1")
    @Tag("visibility:hidden")
    @DisplayName("a call that returns null within the budget: null")
    void nullResult() throws Exception {
        assertNull(Deadline.call(() -> null, Duration.ofMinutes(1)), "call(() -> null, 1 min)");
    }
}
