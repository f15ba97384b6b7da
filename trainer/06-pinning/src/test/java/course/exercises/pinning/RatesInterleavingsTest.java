package course.exercises.pinning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.Failure;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The trainer's hidden tests of sentences 2, 3 and 5 under controlled scheduling: Lincheck runs three callers of
 * {@code rate} through many interleavings of their steps, chosen deterministically, so that a check-then-act race
 * on the table or a waiter that is never woken shows on every run, not once in a thousand. Lincheck 3.7 follows
 * platform threads only (grader/README.md), so the callers here are platform threads; the learner's code is the
 * same whichever kind of thread calls it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Rates (hidden, interleavings)")
class RatesInterleavingsTest {
    /** Interleavings tried per test: enough to find each race the mutants hold, within the trainer's budget. */
    static final int INTERLEAVINGS = 30;
    static final int CALLERS = 3;

    /** What each caller got: its rate, or what it threw. */
    private static List<Object> callConcurrently(Rates rates) {
        List<Object> outcomes = new ArrayList<>();
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            int slot = i;
            outcomes.add(null);
            callers.add(new Thread(() -> {
                Object outcome;
                try {
                    outcome = rates.rate("EUR");
                } catch (Throwable t) {
                    outcome = t;
                }
                synchronized (outcomes) {
                    outcomes.set(slot, outcome);
                }
            }));
        }
        callers.forEach(Thread::start);
        for (Thread caller : callers) {
            try {
                caller.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
        synchronized (outcomes) {
            return List.copyOf(outcomes);
        }
    }

    @Order(1)
    @Test
    @Tag("points:1")
    @Tag("visibility:after_due_date")
    @Timeout(60)
    @DisplayName("three callers, in 30 interleavings that Lincheck explores: one fetch, and each gets its rate")
    void oneFetchHoweverTheCallersInterleave() {
        Lincheck.runConcurrentTest(INTERLEAVINGS, () -> {
            AtomicInteger fetches = new AtomicInteger();
            Rates rates = new Rates(() -> {
                fetches.incrementAndGet();
                return Map.of("EUR", 1.08);
            });
            List<Object> outcomes = callConcurrently(rates);
            assertEquals(List.of(1.08, 1.08, 1.08), outcomes, "what each of the three callers got");
            assertEquals(1, fetches.get(), "fetches for three callers at once");
        });
    }

    @Order(2)
    @Test
    @Tag("points:1")
    @Tag("visibility:after_due_date")
    @Timeout(60)
    @DisplayName("three callers, a fetch that throws an Error then one that throws an IOException, in 30 interleavings: nobody waits for ever")
    void aFailedFetchLeavesNoCallerWaiting() {
        Lincheck.runConcurrentTest(INTERLEAVINGS, () -> {
            // The first fetch throws an Error (which catch (Exception e) misses), the second an IOException, the
            // third succeeds: whoever waited for a failed fetch must be woken, whatever it threw.
            AtomicInteger fetches = new AtomicInteger();
            Throwable error = new Failure(Failure.Kind.ERROR, false).create("the rates service crashed");
            Throwable down = new IOException("the rates service is down");
            Rates rates = new Rates(() -> switch (fetches.incrementAndGet()) {
                case 1 -> throw (Error) error;
                case 2 -> throw (IOException) down;
                default -> Map.of("EUR", 1.08);
            });
            // Lincheck reports a caller that never returns as "the test has hung", with the interleaving.
            List<Object> outcomes = callConcurrently(rates);
            for (Object outcome : outcomes) {
                if (!(outcome instanceof Double)) {
                    Throwable t = (Throwable) outcome;
                    while (t != error && t != down && t.getCause() != null && t.getCause() != t) {
                        t = t.getCause();
                    }
                    assertTrue(t == error || t == down,
                            "a caller threw " + outcome + ": it should get the rate or a failed fetch's failure");
                }
            }
        });
    }
}
