package course.exercises.structured;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The trainer's hidden test for exercise 07: counts towards the grade, never shown to the learner. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Fanout.serve (hidden)")
class FanoutHiddenTest {

    @Order(1)
    @Test
    @Tag("points:1")
    @Tag("visibility:hidden")
    @DisplayName("one call: its result, with the request's id bound")
    void oneCall() throws Exception {
        List<Callable<String>> calls = List.of(() -> "id " + Fanout.REQUEST_ID.get());
        assertEquals(List.of("id req-1"), Fanout.serve("req-1", calls, Duration.ofSeconds(30)), "serve(\"req-1\", one call)");
    }
}
