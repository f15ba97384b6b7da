package course.exercises.cafe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The trainer's hidden test for exercise 02: counts towards the grade, shown after the due date. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Cafe.serve (hidden)")
class CafeHiddenTest {

    @Order(1)
    @Test
    @Tag("points:1")
    @Tag("visibility:after_due_date")
    @DisplayName("one customer, a drink that brews in no time: served 1, peak 1")
    void oneCustomerInstantDrink() throws InterruptedException {
        try (ExecutorService staff = Executors.newVirtualThreadPerTaskExecutor()) {
            CafeReport report = Cafe.serve(1, Duration.ZERO, staff);
            assertNotNull(report, "serve must return a CafeReport, not null");
            assertEquals(1, report.served(), "served");
            assertEquals(1, report.peakBrewing(), "peakBrewing");
        }
    }
}
