package course.exercises.deadline;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
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
    @DisplayName("a call that throws an Error: ExecutionException with the Error as cause")
    void anErrorIsAFailureToo() {
        var error = new AssertionError("downstream gave up");
        // A call's thread that catches Exception only lets an Error escape, and the caller then waits out the
        // budget (2 s here) for a result that never comes.
        var e = assertThrows(ExecutionException.class,
                () -> Deadline.call(() -> { throw error; }, Duration.ofSeconds(2)), "a call that throws AssertionError");
        assertSame(error, e.getCause(), "the cause must be the call's own Error, not " + e.getCause());
    }
}
