package course.exercises.cafe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Probe;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The course's tests for exercise 02. Each test's {@code points:N} tag is what it is worth. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Cafe.serve")
class CafeTest {

    /**
     * The staff handed to {@code serve}: it runs every task on the executor it wraps, counts the tasks with
     * a {@link Probe}, and remembers whether anyone tried to shut it down.
     */
    static final class Staff extends AbstractExecutorService {
        final ExecutorService delegate;
        final Probe probe = new Probe();
        final AtomicBoolean shutdownAsked = new AtomicBoolean();

        Staff(ExecutorService delegate) {
            this.delegate = delegate;
        }

        private static final class Order<T> extends FutureTask<T> {
            Order(Callable<T> callable) {
                super(callable);
            }
        }

        @Override
        protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
            return new Order<>(probe.wrap(callable));
        }

        @Override
        protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
            Runnable wrapped = probe.wrap(runnable);
            return new Order<>(() -> {
                wrapped.run();
                return value;
            });
        }

        @Override
        public void execute(Runnable command) {
            delegate.execute(command instanceof Order<?> ? command : probe.wrap(command));
        }

        @Override
        public void shutdown() {
            shutdownAsked.set(true);
            delegate.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdownAsked.set(true);
            return delegate.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return delegate.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return delegate.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return delegate.awaitTermination(timeout, unit);
        }
    }

    @Order(1)
    @Test
    @Tag("points:1")
    @DisplayName("a negative number of customers throws IllegalArgumentException")
    void negativeCustomersAreRejected() {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            assertThrows(IllegalArgumentException.class, () -> Cafe.serve(-1, Duration.ofMillis(1), pool),
                    "serve(-1, ...) must throw IllegalArgumentException");
        }
    }

    @Order(2)
    @Test
    @Tag("points:1")
    @DisplayName("no customers: nothing brewed, served 0, peak 0")
    void noCustomers() throws InterruptedException {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Staff staff = new Staff(pool);
            CafeReport report = Cafe.serve(0, Duration.ofMillis(10), staff);
            assertNotNull(report, "serve must return a CafeReport, not null");
            assertEquals(0, report.served(), "served");
            assertEquals(0, report.peakBrewing(), "peakBrewing");
            assertEquals(0, staff.probe.entered(), "tasks submitted to the staff");
        }
    }

    @Order(3)
    @Test
    @Tag("points:2")
    @DisplayName("serves every customer, with one task per customer on the staff")
    void servesEveryCustomerWithOneTaskEach() throws InterruptedException {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Staff staff = new Staff(pool);
            CafeReport report = Cafe.serve(30, Duration.ofMillis(10), staff);
            assertNotNull(report, "serve must return a CafeReport, not null");
            assertEquals(30, report.served(), "customers served");
            assertEquals(30, staff.probe.entered(), "tasks that ran on the staff (one per customer)");
        }
    }

    @Order(4)
    @Test
    @Tag("points:2")
    @DisplayName("a fixed pool of 3 baristas: peakBrewing is 3")
    void peakIsBoundedByAFixedPool() throws InterruptedException {
        try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
            CafeReport report = Cafe.serve(6, Duration.ofMillis(200), new Staff(pool));
            assertEquals(6, report.served(), "customers served");
            assertEquals(3, report.peakBrewing(),
                    "peakBrewing with 3 baristas and 6 customers (more than 3: is the count decremented when a brew ends?)");
        }
    }

    @Order(5)
    @Test
    @Tag("points:2")
    @DisplayName("one virtual thread per customer: all 40 drinks brew at once")
    void peakWithAThreadPerCustomer() throws InterruptedException {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            CafeReport report = Cafe.serve(40, Duration.ofMillis(500), new Staff(pool));
            assertEquals(40, report.served(), "customers served");
            assertEquals(40, report.peakBrewing(),
                    "peakBrewing with a thread per customer (submit every order before waiting for any)");
        }
    }

    @Order(6)
    @Test
    @Tag("points:1")
    @DisplayName("does not shut down the staff: it still takes work afterwards")
    void leavesTheStaffRunning() throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            Staff staff = new Staff(pool);
            Cafe.serve(4, Duration.ofMillis(5), staff);
            assertFalse(staff.shutdownAsked.get(), "serve called shutdown(), shutdownNow() or close() on the staff");
            assertFalse(pool.isShutdown(), "the staff was shut down by serve");
            assertEquals(42, pool.submit(() -> 42).get(), "a task submitted after serve returned");
        } catch (ExecutionException e) {
            throw new AssertionError("the staff could not run a task after serve returned", e);
        }
    }

    @Order(7)
    @Test
    @Tag("points:1")
    @DisplayName("the elapsed time covers the brewing")
    void elapsedCoversTheBrewing() throws InterruptedException {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            CafeReport report = Cafe.serve(5, Duration.ofMillis(60), new Staff(pool));
            assertNotNull(report.elapsed(), "elapsed must not be null");
            assertTrue(report.elapsed().compareTo(Duration.ofMillis(60)) >= 0,
                    "every brew takes 60 ms, so elapsed must be at least PT0.06S, was " + report.elapsed());
        }
    }
}
