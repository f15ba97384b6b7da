package course.exercises.threadcost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The trainer's hidden test for exercise 01: counts towards the grade, never shown to the learner. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("ThreadCost.startAll (hidden)")
class ThreadCostHiddenTest {

    @Order(1)
    @Test
    @Tag("points:2")
    @Tag("visibility:hidden")
    @DisplayName("a task that throws in one thread: every other thread still runs, and startAll returns")
    void oneFailingTaskStopsNothing() throws InterruptedException {
        AtomicInteger runs = new AtomicInteger();
        Runnable task = () -> {
            if (runs.incrementAndGet() == 1) {
                throw new IllegalStateException("the first task fails on purpose");
            }
        };
        ThreadCost.startAll(Thread.ofVirtual().uncaughtExceptionHandler((t, e) -> { }), 20, task);
        assertEquals(20, runs.get(), "tasks run");
    }
}
