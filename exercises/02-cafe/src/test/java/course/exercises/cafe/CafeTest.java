package course.exercises.cafe;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import course.kit.Probe;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
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
     * a {@link Probe}, times each task, can interrupt one chosen task just before it runs, and remembers
     * whether anyone tried to shut it down.
     */
    static final class Staff extends AbstractExecutorService {
        final ExecutorService delegate;
        final Probe probe = new Probe();
        final AtomicBoolean shutdownAsked = new AtomicBoolean();
        /** How long each task ran, in nanoseconds, as the staff saw it. */
        final Queue<Long> taskNanos = new ConcurrentLinkedQueue<>();
        private final AtomicInteger started = new AtomicInteger();
        /** The task (0 for the first to start) whose thread is interrupted just before it runs; -1 for none. */
        volatile int interruptTask = -1;

        Staff(ExecutorService delegate) {
            this.delegate = delegate;
        }

        private static final class Order<T> extends FutureTask<T> {
            Order(Callable<T> callable) {
                super(callable);
            }
        }

        private <T> Callable<T> watched(Callable<T> task) {
            Callable<T> probed = probe.wrap(task);
            return () -> {
                if (started.getAndIncrement() == interruptTask) {
                    Thread.currentThread().interrupt();
                }
                long start = System.nanoTime();
                try {
                    return probed.call();
                } finally {
                    taskNanos.add(System.nanoTime() - start);
                }
            };
        }

        private Runnable watched(Runnable task) {
            Callable<Void> w = watched(() -> {
                task.run();
                return null;
            });
            return () -> {
                try {
                    w.call();
                } catch (RuntimeException | Error e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };
        }

        @Override
        protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
            return new Order<>(watched(callable));
        }

        @Override
        protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
            Runnable wrapped = watched(runnable);
            return new Order<>(() -> {
                wrapped.run();
                return value;
            });
        }

        @Override
        public void execute(Runnable command) {
            delegate.execute(command instanceof Order<?> ? command : watched(command));
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

    private static boolean parked(Thread t) {
        Thread.State state = t.getState();
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }

    private static String ms(long nanos) {
        return String.format("%.1f ms", nanos / 1e6);
    }

    @Order(1)
    @Test
    @Tag("points:1")
    @DisplayName("bad arguments throw before anything is brewed: negative customers or brewTime, null brewTime or staff")
    void rejectsBadArgumentsBeforeSubmittingAnything() {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Staff staff = new Staff(pool);
            assertAll(
                    () -> assertThrows(IllegalArgumentException.class,
                            () -> Cafe.serve(-1, Duration.ofMillis(1), staff),
                            "serve(-1, 1 ms, staff) must throw IllegalArgumentException"),
                    () -> assertThrows(IllegalArgumentException.class,
                            () -> Cafe.serve(3, Duration.ofMillis(-1), staff),
                            "serve(3, -1 ms, staff) must throw IllegalArgumentException"),
                    () -> assertThrows(NullPointerException.class,
                            () -> Cafe.serve(3, null, staff),
                            "serve(3, null, staff) must throw NullPointerException"),
                    () -> assertThrows(NullPointerException.class,
                            () -> Cafe.serve(3, Duration.ofMillis(1), null),
                            "serve(3, 1 ms, null) must throw NullPointerException"));
            assertEquals(0, staff.probe.entered(),
                    "tasks that ran on the staff for those bad calls (check the arguments before submitting anything)");
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
    @Tag("points:1")
    @DisplayName("returns once every customer is served, with one task per customer on the staff")
    void servesEveryCustomerWithOneTaskEach() throws InterruptedException {
        // 10 customers × 20 ms on 2 baristas: five waves, 100 ms at least.
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            Staff staff = new Staff(pool);
            CafeReport report = Cafe.serve(10, Duration.ofMillis(20), staff);
            int ran = staff.probe.entered();
            assertNotNull(report, "serve must return a CafeReport, not null");
            assertEquals(10, report.served(),
                    "customers served when serve returned (wait for every order before returning)");
            assertEquals(10, ran, "tasks that had run on the staff when serve returned (one per customer)");
        }
    }

    @Order(4)
    @Test
    @Tag("points:1")
    @DisplayName("each task brews by sleeping brewTime: never less, and no fixed sleep of its own")
    void eachTaskSleepsForBrewTime() throws InterruptedException {
        // 50 brews of 1 ms on one barista take about 60 ms; a task that sleeps longer than brewTime runs into 1 s.
        ExecutorService one = Executors.newSingleThreadExecutor();
        try {
            Staff staff = new Staff(one);
            CafeReport report = assertTimeoutPreemptively(Duration.ofSeconds(1),
                    () -> Cafe.serve(50, Duration.ofMillis(1), staff),
                    "50 brews of 1 ms on one barista took over 1 s: does each task sleep brewTime, in its own unit?");
            assertEquals(50, report.served(), "customers served");
        } finally {
            one.shutdownNow();
        }
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Staff staff = new Staff(pool);
            Cafe.serve(4, Duration.ofMillis(120), staff);
            assertEquals(4, staff.taskNanos.size(), "tasks that ran on the staff");
            long shortest = staff.taskNanos.stream().mapToLong(Long::longValue).min().orElseThrow();
            assertTrue(shortest >= Duration.ofMillis(120).toNanos(),
                    "a task on the staff ran " + ms(shortest) + "; each must sleep brewTime, 120 ms");
        }
    }

    @Order(5)
    @Test
    @Tag("points:1")
    @DisplayName("a fixed pool of 3 baristas: peakBrewing is 3")
    void peakIsBoundedByAFixedPool() throws InterruptedException {
        try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
            CafeReport report = Cafe.serve(6, Duration.ofMillis(200), new Staff(pool));
            assertEquals(6, report.served(), "customers served");
            assertEquals(3, report.peakBrewing(),
                    "peakBrewing with 3 baristas and 6 customers (more than 3: is a brew counted while its order waits"
                            + " in the queue, or never counted down when it ends?)");
        }
    }

    @Order(6)
    @Test
    @Tag("points:1")
    @DisplayName("one virtual thread per customer: all 40 drinks brew at once")
    void peakWithAThreadPerCustomer() throws InterruptedException {
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        try {
            // 40 brews of 500 ms at once take about 0.5 s; one at a time (or 8 at a time) runs into 2 s
            CafeReport report = assertTimeoutPreemptively(Duration.ofSeconds(2),
                    () -> Cafe.serve(40, Duration.ofMillis(500), new Staff(pool)),
                    "40 brews of 500 ms, a thread each, took over 2 s: submit every order before waiting for any");
            assertEquals(40, report.served(), "customers served");
            assertEquals(40, report.peakBrewing(),
                    "peakBrewing with a thread per customer (submit every order before waiting for any)");
        } finally {
            pool.shutdownNow(); // a wrong serve may leave brews behind
        }
    }

    @Order(7)
    @Test
    @Tag("points:1")
    @DisplayName("a brew that is interrupted is not served: fewer served, or serve throws")
    void anInterruptedBrewIsNotServed() {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Staff staff = new Staff(pool);
            staff.interruptTask = 0; // the first task to start finds its thread interrupted: its sleep throws at once
            CafeReport report;
            try {
                report = Cafe.serve(5, Duration.ofMillis(20), staff);
            } catch (Exception e) {
                assertTrue(staff.probe.entered() > 0, "serve threw " + e + " before any brew ran");
                return; // serve reported the failed brew by throwing: fine
            } finally {
                Thread.interrupted(); // in case the caller's flag was set: keep it from the next test
            }
            assertNotNull(report, "serve must return a CafeReport (or throw), not null");
            assertEquals(4, report.served(),
                    "served, when 1 of 5 brews was interrupted (count a customer once the brew has slept brewTime,"
                            + " not when the order is taken; do not swallow the InterruptedException)");
        }
    }

    @Order(8)
    @Test
    @Tag("points:1")
    @DisplayName("elapsed is the wall time of the whole service: from the first order to the last customer served")
    void elapsedCoversTheBrewing() throws InterruptedException {
        // 3 customers × 50 ms on one barista: three brews one after another, 150 ms at least.
        try (ExecutorService pool = Executors.newFixedThreadPool(1)) {
            long before = System.nanoTime();
            CafeReport report = Cafe.serve(3, Duration.ofMillis(50), new Staff(pool));
            long around = System.nanoTime() - before;
            assertNotNull(report.elapsed(), "elapsed must not be null");
            long elapsed = report.elapsed().toNanos();
            assertTrue(elapsed >= Duration.ofMillis(150).toNanos(),
                    "3 brews of 50 ms on one barista take at least 150 ms, but elapsed was " + ms(elapsed)
                            + " (stop the clock after the last customer is served)");
            assertTrue(elapsed <= around,
                    "elapsed was " + ms(elapsed) + ", longer than the whole call to serve, " + ms(around)
                            + " (System.nanoTime() counts nanoseconds)");
        }
    }

    @Order(9)
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

    @Order(10)
    @Test
    @Tag("points:1")
    @DisplayName("interrupted while it waits for the customers, serve throws InterruptedException")
    void anInterruptedCallerGetsInterruptedException() throws InterruptedException {
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        try {
            Staff staff = new Staff(pool);
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread caller = Thread.ofPlatform().daemon(true).start(() -> {
                try {
                    outcome.set(Cafe.serve(3, Duration.ofSeconds(10), staff));
                } catch (Throwable t) {
                    outcome.set(t);
                }
            });
            // serve is waiting once every brew has started, or once its thread parks
            long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (caller.isAlive() && staff.probe.entered() < 3 && !parked(caller)) {
                if (System.nanoTime() > deadline) {
                    fail("3 customers of 10 s each: " + staff.probe.entered() + " brews started within 2 s,"
                            + " and serve never waited");
                }
                Thread.sleep(1);
            }
            caller.interrupt();
            caller.join(Duration.ofSeconds(1));
            assertFalse(caller.isAlive(),
                    "serve was still waiting 1 s after its thread was interrupted (let InterruptedException end it)");
            if (outcome.get() instanceof RuntimeException e) {
                throw e; // serve failed on its own, before any interrupt: report its exception as it is
            }
            assertInstanceOf(InterruptedException.class, outcome.get(),
                    "what serve threw (or returned) when its thread was interrupted while it waited");
        } finally {
            pool.shutdownNow(); // ends the 10 s brews
        }
    }
}
