package course.exercises.pinning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The trainer's hidden test for exercise 06: counts towards the grade, never shown to the learner. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Rates (hidden)")
class RatesHiddenTest {

    @Order(1)
    @Test
    @Tag("points:1")
    @Tag("visibility:after_due_date")
    @DisplayName("two currencies from one fetch: each call answers its own currency's rate")
    void everyCurrencyFromTheOneTable() throws Exception {
        var fetches = new AtomicInteger();
        var rates = new Rates(() -> {
            fetches.incrementAndGet();
            return Map.of("EUR", 1.08, "GBP", 1.27);
        });
        assertEquals(1.27, rates.rate("GBP"), "rate(\"GBP\")");
        assertEquals(1.08, rates.rate("EUR"), "rate(\"EUR\")");
        assertEquals(1, fetches.get(), "fetches for two currencies");
    }
}
