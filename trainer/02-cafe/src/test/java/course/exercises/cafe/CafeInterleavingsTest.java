package course.exercises.cafe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
 * The trainer's hidden tests of sentences 4, 5 and 7 under controlled scheduling: Lincheck runs {@code serve} on a
 * staff of three platform threads through many interleavings, chosen deterministically. Lincheck 3.7 follows
 * platform threads only (grader/README.md); the contract allows any staff.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Cafe.serve (hidden, interleavings)")
class CafeInterleavingsTest {
    /** Interleavings tried per test. */
    static final int INTERLEAVINGS = 30;
    static final int CUSTOMERS = 3;

    /**
     * A staff of three platform threads whose every task waits, before it runs, until all three orders have been
     * handed over: a serve that waits for an order before it submits the next leaves them waiting for ever, which
     * Lincheck names as a hang. It counts the tasks inside it, at once and in all.
     */
    static final class HeldStaff extends AbstractExecutorService {
        final ExecutorService pool = Executors.newFixedThreadPool(CUSTOMERS);
        final CountDownLatch handed = new CountDownLatch(CUSTOMERS);
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();
        final AtomicInteger ended = new AtomicInteger();

        @Override
        public void execute(Runnable command) {
            pool.execute(() -> {
                try {
                    handed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                try {
                    command.run();
                } finally {
                    inside.decrementAndGet();
                    ended.incrementAndGet();
                }
            });
            handed.countDown();
        }

        @Override
        public void shutdown() {
            pool.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            return pool.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return pool.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return pool.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return pool.awaitTermination(timeout, unit);
        }
    }

    /** Serves the three customers on {@code staff}, then ends its pool. */
    private static CafeReport serve(HeldStaff staff) {
        try {
            return Cafe.serve(CUSTOMERS, Duration.ZERO, staff);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            staff.pool.shutdown();
        }
    }

    @Order(1)
    @Test
    @Tag("points:1")
    @Tag("visibility:after_due_date")
    @Timeout(60)
    @DisplayName("three customers on three baristas, in 30 interleavings that Lincheck explores: every order is handed over before serve waits, and every customer is served")
    void everyOrderIsSubmittedBeforeServeWaits() {
        Lincheck.runConcurrentTest(INTERLEAVINGS, () -> {
            HeldStaff staff = new HeldStaff();
            CafeReport report = serve(staff);
            assertEquals(CUSTOMERS, report.served(), "customers served");
            assertEquals(CUSTOMERS, staff.ended.get(), "tasks that had ended when serve returned");
        });
    }

    @Order(2)
    @Test
    @Tag("points:1")
    @Tag("visibility:after_due_date")
    @Timeout(60)
    @DisplayName("three customers on three baristas, in 30 interleavings that Lincheck explores: peakBrewing is never more than were inside the staff at once")
    void thePeakIsNeverMoreThanWereBrewing() {
        Lincheck.runConcurrentTest(INTERLEAVINGS, () -> {
            HeldStaff staff = new HeldStaff();
            CafeReport report = serve(staff);
            int most = staff.most.get();
            if (report.peakBrewing() > most || report.peakBrewing() < 1) {
                throw new AssertionError("peakBrewing was " + report.peakBrewing() + ", but " + most
                        + " tasks at most were inside the staff at once");
            }
        });
    }
}
