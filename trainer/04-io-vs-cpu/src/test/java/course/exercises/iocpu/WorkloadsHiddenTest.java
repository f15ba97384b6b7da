package course.exercises.iocpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The trainer's hidden test for exercise 04: counts towards the grade, shown after the due date. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Workloads (hidden)")
class WorkloadsHiddenTest {

    @Order(1)
    @Test
    @Tag("points:1")
    @Tag("visibility:after_due_date")
    @DisplayName("poolSize: work that never waits needs cores × U threads")
    void noWaitNeedsOneThreadPerBusyCore() {
        assertEquals(8, Workloads.poolSize(8, 1.0, Duration.ZERO, Duration.ofMillis(10)), "poolSize(8, 1.0, 0, 10 ms)");
        assertEquals(2, Workloads.poolSize(4, 0.5, Duration.ZERO, Duration.ofMillis(10)), "poolSize(4, 0.5, 0, 10 ms)");
    }
}
