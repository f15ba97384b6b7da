package course.exercises.cafe;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import course.base.TestOrder;
import course.base.probe.Probe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The course's tests for exercise 02. Each test's {@code points:N} tag is what it is worth.
 *
 * <p>Most tests are jqwik properties: a sentence of the contract checked for many generated inputs (numbers of
 * customers, brew times to the nanosecond and above a second, kinds of staff), drawn from a fixed seed, so that a
 * grade is the same on every run. When one fails, jqwik shrinks the input to the simplest one that still fails, and
 * the grade says "for example: …" with it. No test reads the clock to decide what a correct {@code serve} must do:
 * the staff notes when each task started and ended, and every bound below follows from those notes and
 * {@code brewTime}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Cafe.serve")
class CafeTest {

    /** The kinds of staff the contract allows: any {@link ExecutorService}. */
    enum Kind {
        ONE_BARISTA, FIXED_POOL, CACHED_POOL, VIRTUAL_PER_TASK, FORK_JOIN_POOL;

        ExecutorService create(int size) {
            return switch (this) {
                case ONE_BARISTA -> Executors.newSingleThreadExecutor();
                case FIXED_POOL -> Executors.newFixedThreadPool(size);
                case CACHED_POOL -> Executors.newCachedThreadPool();
                case VIRTUAL_PER_TASK -> Executors.newVirtualThreadPerTaskExecutor();
                case FORK_JOIN_POOL -> new ForkJoinPool(size);
            };
        }

        /** How many tasks this staff runs at once, at most (Integer.MAX_VALUE: as many as it is given). */
        int limit(int size) {
            return switch (this) {
                case ONE_BARISTA -> 1;
                case FIXED_POOL, FORK_JOIN_POOL -> size;
                case CACHED_POOL, VIRTUAL_PER_TASK -> Integer.MAX_VALUE;
            };
        }
    }

    /** A staff of one kind: {@code size} threads for the fixed and fork-join pools. */
    record StaffKind(Kind kind, int size) {
        ExecutorService create() {
            return kind.create(size);
        }

        int limit() {
            return kind.limit(size);
        }

        @Override
        public String toString() {
            return switch (kind) {
                case ONE_BARISTA -> "one barista (Executors.newSingleThreadExecutor())";
                case FIXED_POOL -> "Executors.newFixedThreadPool(" + size + ")";
                case CACHED_POOL -> "Executors.newCachedThreadPool()";
                case VIRTUAL_PER_TASK -> "Executors.newVirtualThreadPerTaskExecutor()";
                case FORK_JOIN_POOL -> "new ForkJoinPool(" + size + ")";
            };
        }
    }

    /** One call of serve: the test's input. */
    record Service(int customers, Duration brewTime, StaffKind staff) {
        @Override
        public String toString() {
            return "serve(" + customers + ", " + brewTime + " (" + String.format("%,d", brewTime.toNanos())
                    + " ns), " + staff + ")";
        }
    }

    /** Durations from {@code min} to {@code max}, to the nanosecond, spread evenly (the bounds are edge cases). */
    static Arbitrary<Duration> durations(Duration min, Duration max) {
        return Arbitraries.longs()
                .between(min.toNanos(), max.toNanos())
                .withDistribution(RandomDistribution.uniform())
                .map(Duration::ofNanos);
    }

    /** Any staff kind; pools of 1 to {@code maxSize} threads. */
    static Arbitrary<StaffKind> staffKinds(int maxSize) {
        return Combinators.combine(Arbitraries.of(Kind.class), Arbitraries.integers().between(1, maxSize))
                .as(StaffKind::new);
    }

    /**
     * Services on any staff, with as many customers as keep the whole service short: at most {@code waves} waves of
     * brews on a staff that runs a limited number at once, at most {@code maxCustomers} customers.
     */
    static Arbitrary<Service> services(int minCustomers, int maxCustomers, int waves, Duration minBrew, Duration maxBrew) {
        return staffKinds(6).flatMap(staff -> Combinators.combine(
                        Arbitraries.integers()
                                .between(minCustomers, (int) Math.min(maxCustomers, (long) staff.limit() * waves)),
                        durations(minBrew, maxBrew))
                .as((n, brew) -> new Service(n, brew, staff)));
    }

    /**
     * One task the staff ran: when it arrived on its thread (before any hold), when its body started and ended, and
     * on which thread.
     */
    record Run(int order, long arrivedNanos, long startNanos, long endNanos, Thread thread) {
        long nanos() {
            return endNanos - startNanos;
        }
    }

    /**
     * The staff handed to {@code serve}: it runs every task it is given on the executor it wraps, and notes each
     * one: when it started and ended, on which thread. Every way of giving an {@link AbstractExecutorService} work
     * ({@code submit}, {@code execute}, {@code invokeAll}, an {@code ExecutorCompletionService} on it,
     * {@code CompletableFuture.runAsync(…, staff)}) ends in one call of {@link #execute} per task: that is where a
     * task is counted, once. It can interrupt chosen tasks just before they run, hold every task until a number of
     * tasks have been handed over, and remembers whether anyone tried to shut it down.
     */
    static final class Staff extends AbstractExecutorService {
        /**
         * How long a held task waits for the other orders: long enough for 2,500 orders to be handed over on a busy
         * machine; only a serve that waits for an order before submitting the next ever waits it out.
         */
        static final long HOLD_MS = 3_000;
        final ExecutorService delegate;
        final Probe probe = new Probe();
        final AtomicBoolean shutdownAsked = new AtomicBoolean();
        final Queue<Run> runs = new ConcurrentLinkedQueue<>();
        final AtomicInteger handed = new AtomicInteger();
        private final AtomicInteger started = new AtomicInteger();
        private final Object monitor = new Object();
        private int finished;
        /** Tasks (by the order they start, from 0) whose thread is interrupted just before they run. */
        volatile Set<Integer> interruptBeforeRun = Set.of();
        /**
         * When set, each task waits at its start until every order has been handed over and {@link #holdArrivals}
         * tasks have arrived: those then surely run at once.
         */
        volatile CountDownLatch holdUntilHanded;
        /** See {@link #holdUntilHanded}. */
        volatile CountDownLatch holdArrivals;
        /** Why a task waited at {@link #holdUntilHanded} in vain, if one did. */
        final AtomicReference<String> heldInVain = new AtomicReference<>();
        /** When set, counted down as each task ends. */
        volatile CountDownLatch onEnd;
        /** When set, each task waits at its start until the {@link Gate} opens. */
        volatile Gate gate;
        /** When the first task was handed over (System.nanoTime()); Long.MIN_VALUE before. */
        final AtomicLong firstHanded = new AtomicLong(Long.MIN_VALUE);
        private final Set<Thread> running = java.util.concurrent.ConcurrentHashMap.newKeySet();

        Staff(ExecutorService delegate) {
            this.delegate = delegate;
        }

        @Override
        public void execute(Runnable command) {
            Objects.requireNonNull(command, "command");
            firstHanded.compareAndSet(Long.MIN_VALUE, System.nanoTime());
            handed.incrementAndGet();
            CountDownLatch hold = holdUntilHanded;
            CountDownLatch arrivals = holdArrivals;
            Gate g = gate;
            delegate.execute(() -> {
                if (g != null) {
                    g.pass();
                }
                run(command, hold, arrivals);
            });
            if (hold != null) {
                hold.countDown();
            }
        }

        private void run(Runnable command, CountDownLatch hold, CountDownLatch arrivals) {
            long arrived = System.nanoTime();
            if (hold != null) {
                arrivals.countDown();
                try {
                    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HOLD_MS);
                    if (!hold.await(HOLD_MS, TimeUnit.MILLISECONDS)
                            || !arrivals.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                        heldInVain.compareAndSet(null, "a task waited " + HOLD_MS + " ms for the other orders, and only "
                                + handed.get() + " had been handed to the staff");
                        while (hold.getCount() > 0 || arrivals.getCount() > 0) { // let the others go: one verdict is enough
                            hold.countDown();
                            arrivals.countDown();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            int order = started.getAndIncrement();
            if (interruptBeforeRun.contains(order) || (hold != null && heldInVain.get() != null)) {
                // chosen to be interrupted; or, once a serve is known to wait for each order, brewing in vain
                Thread.currentThread().interrupt();
            }
            running.add(Thread.currentThread());
            probe.enter();
            long start = System.nanoTime();
            try {
                command.run();
            } finally {
                long end = System.nanoTime();
                running.remove(Thread.currentThread());
                runs.add(new Run(order, hold == null ? start : arrived, start, end, Thread.currentThread()));
                probe.exit();
                CountDownLatch ended = onEnd;
                if (ended != null) {
                    ended.countDown();
                }
                synchronized (monitor) {
                    finished++;
                    monitor.notifyAll();
                }
            }
        }

        /** The threads running a task now. */
        Set<Thread> runsInFlight() {
            return Set.copyOf(running);
        }

        /**
         * Waits until every task handed over has ended (at most 2 s): a task's notes are written just after its
         * body returns, which may be just after {@code serve} saw it complete.
         */
        List<Run> awaitRuns() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            synchronized (monitor) {
                while (finished < handed.get()) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        fail(handed.get() + " tasks were handed to the staff, and only " + finished
                                + " of them had ended 2 s after serve returned");
                    }
                    TimeUnit.NANOSECONDS.timedWait(monitor, left);
                }
            }
            List<Run> all = new ArrayList<>(runs);
            all.sort(Comparator.comparingInt(Run::order));
            return all;
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

        @Override
        public void close() {
            shutdownAsked.set(true);
            delegate.close();
        }

        /** Ends the staff the test made, and any brew a wrong serve left behind. */
        void end() {
            delegate.shutdownNow();
        }
    }

    /**
     * Holds every task at its start until the thread that called {@code serve} has stopped to wait (it stays WAITING,
     * TIMED_WAITING or BLOCKED for {@link #STILL_NANOS}; at most {@link #PARK_MS} in all), then as long again as that
     * took from the call. A serve that hands out every order before it waits has then handed out its last, and every
     * brew ends later after that than serve's clock can have started before its first order: a clock stopped before
     * the wait comes out too short on any machine, however busy. A serve that waits for each order in turn opens the
     * gate at its first wait, once.
     */
    static final class Gate {
        static final long PARK_MS = 1_000;
        static final long STILL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
        private final Thread caller;
        private final long called;
        private long opens = Long.MIN_VALUE; // guarded by this

        /** A gate for the orders of {@code caller}, which called serve at {@code called} (System.nanoTime()). */
        Gate(Thread caller, long called) {
            this.caller = caller;
            this.called = called;
        }

        private static boolean waiting(Thread.State state) {
            return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING || state == Thread.State.BLOCKED;
        }

        /** Waits until the gate opens (the first task to arrive decides when). */
        void pass() {
            long until;
            synchronized (this) {
                if (opens == Long.MIN_VALUE) {
                    long now = System.nanoTime();
                    long deadline = now + TimeUnit.MILLISECONDS.toNanos(PARK_MS);
                    long still = Long.MIN_VALUE; // since when the caller has waited, on every look
                    while (now < deadline && (still == Long.MIN_VALUE || now - still < STILL_NANOS)) {
                        if (!waiting(caller.getState())) {
                            still = Long.MIN_VALUE;
                        } else if (still == Long.MIN_VALUE) {
                            still = now;
                        }
                        LockSupport.parkNanos(20_000);
                        now = System.nanoTime();
                    }
                    // a caller that never stopped to wait (it spins) gets no guarantee, and no delay
                    opens = still != Long.MIN_VALUE && now - still >= STILL_NANOS ? now + (now - called) : now;
                }
                until = opens;
            }
            for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
        }
    }

    /** What a test does with a staff. */
    @FunctionalInterface
    interface StaffCheck {
        void check(Staff staff) throws Exception;
    }

    /** Runs {@code body} with a staff on {@code pool}, then ends the pool, whatever {@code serve} left on it. */
    static void withStaff(ExecutorService pool, StaffCheck body) throws Exception {
        Staff staff = new Staff(pool);
        try {
            body.check(staff);
        } finally {
            staff.end();
        }
    }

    /**
     * The most drinks surely brewing at one moment, from the staff's notes: a brew's sleep of at least
     * {@code brew} lies inside its task, so it surely covers [end - brew, start + brew] (when that is not empty).
     */
    static int surelyBrewingAtOnce(List<Run> runs, Duration brew) {
        long b = brew.toNanos();
        List<long[]> windows = runs.stream()
                .filter(r -> r.nanos() >= b) // a task shorter than its brew breaks sentence 3: it proves nothing here
                .filter(r -> r.endNanos - b <= r.startNanos + b)
                .map(r -> new long[] {r.endNanos - b, r.startNanos + b})
                .toList();
        return mostAtOnce(windows);
    }

    /** The most tasks inside the staff at one moment, from its notes. */
    static int inTheStaffAtOnce(List<Run> runs) {
        return mostAtOnce(runs.stream().map(r -> new long[] {r.startNanos, r.endNanos}).toList());
    }

    private static int mostAtOnce(List<long[]> intervals) {
        List<long[]> events = new ArrayList<>();
        for (long[] i : intervals) {
            events.add(new long[] {i[0], 1});
            events.add(new long[] {i[1], -1});
        }
        // at the same instant, a start before an end: two intervals that touch overlap
        events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> -e[1]));
        int now = 0;
        int most = 0;
        for (long[] e : events) {
            now += (int) e[1];
            most = Math.max(most, now);
        }
        return most;
    }

    private static String ms(long nanos) {
        return String.format("%,.3f ms", nanos / 1e6);
    }

    private static boolean parked(Thread t) {
        Thread.State state = t.getState();
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }

    /** A call of serve that the contract rejects: a negative count, a negative brew time, or both. */
    @Provide
    Arbitrary<Service> badCalls() {
        Arbitrary<Integer> negative = Arbitraries.integers().between(Integer.MIN_VALUE, -1);
        Arbitrary<Integer> count = Arbitraries.integers().between(0, 1000);
        Arbitrary<Duration> brew = durations(Duration.ZERO, Duration.ofSeconds(5));
        Arbitrary<Duration> negativeBrew = durations(Duration.ofSeconds(-5), Duration.ofNanos(-1));
        StaffKind staff = new StaffKind(Kind.VIRTUAL_PER_TASK, 1);
        return Arbitraries.oneOf(
                Combinators.combine(negative, brew).as((n, b) -> new Service(n, b, staff)),
                Combinators.combine(count, negativeBrew).as((n, b) -> new Service(n, b, staff)),
                Combinators.combine(negative, negativeBrew).as((n, b) -> new Service(n, b, staff)));
    }

    @TestOrder(1)
    @Property(seed = "2020001", tries = 60)
    @net.jqwik.api.Tag("points:1")
    @Label("bad arguments throw before anything is brewed: any negative customers or brewTime, a null brewTime or staff")
    void rejectsBadArgumentsBeforeSubmittingAnything(@ForAll("badCalls") Service call) throws Exception {
        withStaff(call.staff().create(), staff -> {
            assertAll(
                    () -> assertThrows(IllegalArgumentException.class,
                            () -> Cafe.serve(call.customers(), call.brewTime(), staff),
                            call + " must throw IllegalArgumentException"),
                    () -> assertThrows(NullPointerException.class,
                            () -> Cafe.serve(Math.max(0, call.customers()), null, staff),
                            "serve(" + Math.max(0, call.customers()) + ", null, staff) must throw NullPointerException"),
                    () -> assertThrows(NullPointerException.class,
                            () -> Cafe.serve(Math.max(0, call.customers()), call.brewTime().abs(), null),
                            "serve(" + Math.max(0, call.customers()) + ", " + call.brewTime().abs()
                                    + ", null) must throw NullPointerException"));
            assertEquals(0, staff.handed.get(),
                    "tasks handed to the staff by those bad calls (check the arguments before submitting anything)");
        });
    }

    @Order(2)
    @Test
    @Tag("points:1")
    @DisplayName("no customers: nothing brewed, served 0, peak 0")
    void noCustomers() throws Exception {
        withStaff(Executors.newVirtualThreadPerTaskExecutor(), staff -> {
            CafeReport report = Cafe.serve(0, Duration.ofMillis(10), staff);
            assertNotNull(report, "serve must return a CafeReport, not null");
            assertEquals(0, report.served(), "served");
            assertEquals(0, report.peakBrewing(), "peakBrewing");
            assertEquals(0, staff.handed.get(), "tasks handed to the staff");
        });
    }

    @Provide
    Arbitrary<Service> shortServices() {
        return services(0, 400, 3, Duration.ZERO, Duration.ofMillis(1));
    }

    @TestOrder(3)
    @Property(seed = "2020003", tries = 14)
    @net.jqwik.api.Tag("points:1")
    @Label("one task per customer on any staff; serve returns once every customer is served")
    void servesEveryCustomerWithOneTaskEach(@ForAll("shortServices") Service s) throws Exception {
        withStaff(s.staff().create(), staff -> {
            CafeReport report = Cafe.serve(s.customers(), s.brewTime(), staff);
            long returned = System.nanoTime();
            List<Run> runs = staff.awaitRuns();
            assertNotNull(report, "serve must return a CafeReport, not null");
            assertEquals(s.customers(), staff.handed.get(),
                    "tasks handed to the staff (one per customer, counted however they were submitted)");
            assertEquals(s.customers(), report.served(),
                    "customers served when serve returned (wait for every order before returning)");
            for (Run r : runs) {
                // a brew sleeps brewTime after its task starts: a task still running when serve returned had
                // surely not finished its brew if start + brewTime came later
                assertTrue(r.endNanos() <= returned || r.startNanos() + s.brewTime().toNanos() <= returned,
                        "serve returned " + ms(r.startNanos() + s.brewTime().toNanos() - returned)
                                + " before task " + (r.order() + 1) + "'s brew could have ended (wait for"
                                + " every customer before returning)");
            }
        });
    }

    @Provide
    Arbitrary<Service> finelyTimedServices() {
        return services(1, 6, 2, Duration.ofNanos(1), Duration.ofMillis(3));
    }

    @TestOrder(4)
    @Property(seed = "2020004", tries = 24)
    @net.jqwik.api.Tag("points:1")
    @Label("each task brews by sleeping brewTime, to the nanosecond: never less (1.9 ms is not 1 ms)")
    void eachTaskSleepsForBrewTime(@ForAll("finelyTimedServices") Service s) throws Exception {
        withStaff(s.staff().create(), staff -> {
            Cafe.serve(s.customers(), s.brewTime(), staff);
            for (Run r : staff.awaitRuns()) {
                assertTrue(r.nanos() >= s.brewTime().toNanos(),
                        "a task on the staff ran " + ms(r.nanos()) + "; each must sleep brewTime, "
                                + ms(s.brewTime().toNanos()) + " (is brewTime rounded to whole milliseconds?)");
            }
        });
    }

    @Order(5)
    @Test
    @Tag("points:1")
    @DisplayName("a brew sleeps brewTime and no fixed time of its own: 50 brews of 1 ms on one barista end within 1 s")
    void noFixedSleepOfItsOwn() throws Exception {
        // 50 brews of 1 ms on one barista take about 60 ms; a task that sleeps a fixed time (50 ms, say) runs into 1 s.
        withStaff(Executors.newSingleThreadExecutor(), staff -> {
            long before = System.nanoTime();
            CafeReport report = Cafe.serve(50, Duration.ofMillis(1), staff);
            assertEquals(50, report.served(), "customers served");
            assertTrue(System.nanoTime() - before < TimeUnit.SECONDS.toNanos(1),
                    "50 brews of 1 ms on one barista took over 1 s: does each task sleep brewTime, in its own unit?");
        });
    }

    /** Three brews of 1 s to 3 s whose fraction of a second is under 50 ms. */
    @Provide
    Arbitrary<List<Duration>> longBrews() {
        return Combinators.combine(
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.longs().between(0, 49_999_999L).withDistribution(RandomDistribution.uniform()))
                .as((sec, nanos) -> Duration.ofSeconds(sec, nanos))
                .list()
                .ofSize(3);
    }

    @TestOrder(6)
    @Property(seed = "2020005", tries = 3)
    @net.jqwik.api.Tag("points:1")
    @Label("a brew of more than a second sleeps all of it, its seconds and their fraction")
    void brewsOfMoreThanASecondSleepAllOfIt(@ForAll("longBrews") List<Duration> brews) throws Exception {
        // Three cafés at once, each with a brew between 1 s and 3 s whose fraction of a second is under 50 ms. A brew
        // that sleeps only the fraction (getNano(), toMillisPart()) ends within 50 ms; one that sleeps all of it
        // cannot end within the 100 ms this test watches, and is then stopped (it is not waited for).
        List<Staff> staffs = new ArrayList<>();
        List<Thread> callers = new ArrayList<>();
        List<AtomicReference<Object>> outcomes = new ArrayList<>();
        CountDownLatch anyEnded = new CountDownLatch(1);
        try {
            for (Duration brew : brews) {
                Staff staff = new Staff(Executors.newVirtualThreadPerTaskExecutor());
                staff.onEnd = anyEnded;
                staffs.add(staff);
                AtomicReference<Object> outcome = new AtomicReference<>();
                outcomes.add(outcome);
                callers.add(Thread.ofVirtual().start(() -> {
                    try {
                        outcome.set(Cafe.serve(2, brew, staff));
                    } catch (Throwable t) {
                        outcome.set(t);
                    }
                }));
            }
            for (int i = 0; i < brews.size(); i++) {
                awaitStarted(staffs.get(i), 2, callers.get(i), outcomes.get(i), "2 customers of " + brews.get(i));
            }
            // wait for the first brew to end, 100 ms at most: a correct brew cannot end so soon
            if (anyEnded.await(100, TimeUnit.MILLISECONDS)) {
                for (int i = 0; i < brews.size(); i++) {
                    for (Run r : staffs.get(i).runs) {
                        assertTrue(r.nanos() >= brews.get(i).toNanos(),
                                "a brew of " + brews.get(i) + " ended after " + ms(r.nanos())
                                        + " (are the whole seconds of brewTime lost: getNano(), toMillisPart()?)");
                    }
                }
            }
            for (int i = 0; i < brews.size(); i++) {
                assertEquals(null, outcomes.get(i).get(), "serve(2, " + brews.get(i)
                        + ", staff) had already returned or thrown while its brews were still due to sleep");
            }
        } finally {
            staffs.forEach(Staff::end);
            for (Thread caller : callers) {
                caller.join(Duration.ofSeconds(2));
            }
        }
    }

    @Provide
    Arbitrary<Service> peakServices() {
        return services(0, 120, 4, Duration.ofMillis(3), Duration.ofMillis(6));
    }

    @TestOrder(7)
    @Property(seed = "2020006", tries = 16)
    @net.jqwik.api.Tag("points:1")
    @Label("peakBrewing is the most drinks brewing at once: never an order waiting in the queue, never a brew that ended")
    void peakIsTheMostBrewingAtOnce(@ForAll("peakServices") Service s) throws Exception {
        withStaff(s.staff().create(), staff -> {
            CafeReport report = Cafe.serve(s.customers(), s.brewTime(), staff);
            List<Run> runs = staff.awaitRuns();
            int atMost = inTheStaffAtOnce(runs);
            int atLeast = surelyBrewingAtOnce(runs, s.brewTime());
            assertTrue(report.peakBrewing() <= atMost,
                    "peakBrewing was " + report.peakBrewing() + ", but the staff never ran more than " + atMost
                            + " tasks at once (is a brew counted while its order waits in the queue, or never"
                            + " counted down when it ends?)");
            assertTrue(report.peakBrewing() >= atLeast,
                    "peakBrewing was " + report.peakBrewing() + ", but " + atLeast + " drinks were surely brewing"
                            + " at one moment (count up when the brew starts, down when it ends, and keep the"
                            + " highest count)");
        });
    }

    /**
     * Up to 2,500 customers on a virtual thread each (a serve that waits for every thousand orders is stuck too),
     * fewer on a staff of platform threads.
     */
    @Provide
    Arbitrary<Service> crowds() {
        Arbitrary<Duration> brews = durations(Duration.ofMillis(2), Duration.ofMillis(4));
        Arbitrary<Service> onVirtualThreads = Combinators.combine(Arbitraries.integers().between(1, 2_500), brews)
                .as((n, brew) -> new Service(n, brew, new StaffKind(Kind.VIRTUAL_PER_TASK, 1)));
        Arbitrary<Service> onPlatformThreads = Combinators.combine(
                        Arbitraries.of(new StaffKind(Kind.FIXED_POOL, 4), new StaffKind(Kind.CACHED_POOL, 1)),
                        Arbitraries.integers().between(1, 12),
                        brews)
                .as((staff, n, brew) -> new Service(staff.kind() == Kind.CACHED_POOL ? n * 12 : n, brew, staff));
        return Arbitraries.oneOf(onVirtualThreads, onPlatformThreads);
    }

    @TestOrder(8)
    @Property(seed = "2020007", tries = 8)
    @net.jqwik.api.Tag("points:1")
    @Label("every order is submitted before serve waits for any: all customers brew at once on a thread each")
    void submitsEveryOrderBeforeWaiting(@ForAll("crowds") Service s) throws Exception {
        // Every task waits at its start until all the orders have been handed to the staff: a serve that waits for
        // an order before it submits the next is stuck, and the staff notices.
        withStaff(s.staff().create(), staff -> {
            staff.holdUntilHanded = new CountDownLatch(s.customers());
            staff.holdArrivals = new CountDownLatch(Math.min(s.customers(), s.staff().limit()));
            CafeReport report;
            try {
                report = Cafe.serve(s.customers(), s.brewTime(), staff);
            } finally {
                assertEquals(null, staff.heldInVain.get(), "serve waited for an order before it had submitted them all");
            }
            List<Run> runs = staff.awaitRuns();
            int atOnce = mostAtOnce(runs.stream().map(r -> new long[] {r.arrivedNanos(), r.endNanos()}).toList());
            assertEquals(Math.min(s.customers(), s.staff().limit()), atOnce,
                    "tasks on the staff at once (submit every order before waiting for any)");
            assertEquals(s.customers(), report.served(), "customers served");
        });
    }

    /** Some of the customers' brews, interrupted as they start. */
    record Interrupted(int customers, Set<Integer> brews) {
        @Override
        public String toString() {
            return customers + " customers, the brews started " + brews.stream().map(i -> i + 1).sorted().toList()
                    + " interrupted as they start";
        }
    }

    @Provide
    Arbitrary<Interrupted> interruptions() {
        return Arbitraries.integers().between(1, 24).flatMap(n -> Arbitraries.integers()
                .between(0, n - 1)
                .set()
                .ofMinSize(1)
                .ofMaxSize(n)
                .map(brews -> new Interrupted(n, brews)));
    }

    @TestOrder(9)
    @Property(seed = "2020008", tries = 14)
    @net.jqwik.api.Tag("points:1")
    @Label("brews interrupted as they start are not served: fewer served, or serve throws")
    void anInterruptedBrewIsNotServed(@ForAll("interruptions") Interrupted in) throws Exception {
        withStaff(Executors.newVirtualThreadPerTaskExecutor(), staff -> {
            staff.interruptBeforeRun = in.brews();
            CafeReport report;
            try {
                report = Cafe.serve(in.customers(), Duration.ofMillis(2), staff);
            } catch (Exception e) {
                assertTrue(staff.handed.get() > 0, "serve threw " + e + " before any brew ran");
                return; // serve reported a failed brew by throwing: fine
            } finally {
                Thread.interrupted(); // in case the caller's flag was set: keep it from the next try
            }
            assertNotNull(report, "serve must return a CafeReport (or throw), not null");
            assertEquals(in.customers() - in.brews().size(), report.served(),
                    "served (count a customer once the brew has slept brewTime, not when the order is taken;"
                            + " do not swallow the InterruptedException)");
        });
    }

    @Order(10)
    @Test
    @Tag("points:1")
    @DisplayName("brews interrupted while they sleep are not served")
    void aBrewInterruptedWhileAsleepIsNotServed() throws Exception {
        withStaff(Executors.newVirtualThreadPerTaskExecutor(), staff -> {
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread caller = Thread.ofPlatform().daemon(true).start(() -> {
                try {
                    outcome.set(Cafe.serve(5, Duration.ofSeconds(30), staff));
                } catch (Throwable t) {
                    outcome.set(t);
                }
            });
            awaitAllSleeping(staff, 5, caller, outcome);
            staff.runsInFlight().forEach(Thread::interrupt);
            caller.join(Duration.ofSeconds(3));
            assertFalse(caller.isAlive(), "serve was still running 3 s after its 5 sleeping brews were interrupted");
            if (outcome.get() instanceof CafeReport report) {
                assertEquals(0, report.served(), "served, when all 5 brews were interrupted during their sleep");
            }
        });
    }

    @Provide
    Arbitrary<Service> timedServices() {
        return services(1, 8, 2, Duration.ofNanos(500_000), Duration.ofMillis(3));
    }

    @TestOrder(11)
    @Property(seed = "2020009", tries = 14)
    @net.jqwik.api.Tag("points:1")
    @Label("elapsed is the wall time of the whole service: from the first order to the last customer served, to the nanosecond")
    void elapsedCoversTheBrewing(@ForAll("timedServices") Service s) throws Exception {
        withStaff(s.staff().create(), staff -> {
            long before = System.nanoTime();
            // The brews wait until serve has stopped to wait (see Gate), so that they surely end after serve's
            // last order when it hands them all out first, on a busy machine too.
            staff.gate = new Gate(Thread.currentThread(), before);
            CafeReport report = Cafe.serve(s.customers(), s.brewTime(), staff);
            long around = System.nanoTime() - before;
            List<Run> runs = staff.awaitRuns();
            assertNotNull(report.elapsed(), "elapsed must not be null");
            long elapsed = report.elapsed().toNanos();
            // The clock starts before the first order is handed over, and stops after the last customer is served:
            // after every brew's sleep, which lies inside its task and so ends no earlier than start + brewTime.
            long b = s.brewTime().toNanos();
            List<Run> brews = runs.stream().filter(r -> r.nanos() >= b).toList(); // (shorter: sentence 3)
            long served = brews.isEmpty()
                    ? 0
                    : brews.stream().mapToLong(r -> r.startNanos() + b).max().orElseThrow()
                            - staff.firstHanded.get();
            assertTrue(elapsed >= served,
                    "elapsed was " + ms(elapsed) + ", but from the first order to the last customer served took at"
                            + " least " + ms(served)
                            + " (stop the clock after the last customer is served, and keep its nanoseconds)");
            assertTrue(elapsed <= around,
                    "elapsed was " + ms(elapsed) + ", longer than the whole call to serve, " + ms(around)
                            + " (System.nanoTime() counts nanoseconds)");
            // A wall time that is a whole number of milliseconds happens once in a million calls, unless it was
            // truncated: two more services must not both come out whole as well.
            for (int again = 0; again < 2 && elapsed % 1_000_000 == 0; again++) {
                elapsed = Cafe.serve(s.customers(), s.brewTime(), staff).elapsed().toNanos();
            }
            assertTrue(elapsed % 1_000_000 != 0,
                    "elapsed was a whole number of milliseconds three times running (" + ms(elapsed)
                            + "): keep the nanoseconds of System.nanoTime(), do not round them to milliseconds");
        });
    }

    @Provide
    Arbitrary<Service> smallServices() {
        return services(0, 8, 1, Duration.ZERO, Duration.ofMillis(1));
    }

    @TestOrder(12)
    @Property(seed = "2020010", tries = 10)
    @net.jqwik.api.Tag("points:1")
    @Label("does not shut down the staff, whatever its kind: it still takes work afterwards")
    void leavesTheStaffRunning(@ForAll("smallServices") Service s) throws Exception {
        withStaff(s.staff().create(), staff -> {
            Cafe.serve(s.customers(), s.brewTime(), staff);
            assertFalse(staff.shutdownAsked.get(), "serve called shutdown(), shutdownNow() or close() on the staff");
            assertFalse(staff.delegate.isShutdown(), "the staff was shut down by serve");
            try {
                assertEquals(42, staff.delegate.submit(() -> 42).get(2, TimeUnit.SECONDS),
                        "a task submitted after serve returned");
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new AssertionError("the staff could not run a task after serve returned", e);
            }
        });
    }

    @TestOrder(13)
    @Property(seed = "2020011", tries = 6)
    @net.jqwik.api.Tag("points:1")
    @Label("interrupted while it waits for the customers, serve throws InterruptedException")
    void anInterruptedCallerGetsInterruptedException(
            @ForAll @IntRange(min = 1, max = 6) int customers, @ForAll boolean alreadyInterrupted) throws Exception {
        withStaff(Executors.newVirtualThreadPerTaskExecutor(), staff -> {
            AtomicReference<Object> outcome = new AtomicReference<>();
            AtomicBoolean inServe = new AtomicBoolean();
            Thread caller = Thread.ofPlatform().daemon(true).start(() -> {
                try {
                    if (alreadyInterrupted) {
                        Thread.currentThread().interrupt();
                    }
                    inServe.set(true);
                    outcome.set(Cafe.serve(customers, Duration.ofSeconds(10), staff));
                } catch (Throwable t) {
                    outcome.set(t);
                }
            });
            if (!alreadyInterrupted) {
                // serve is waiting once every brew has started, or once its thread parks inside serve
                long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
                while (caller.isAlive()
                        && (!inServe.get() || (staff.probe.entered() < customers && !parked(caller)))) {
                    if (System.nanoTime() > deadline) {
                        fail(customers + " customers of 10 s: " + staff.probe.entered()
                                + " brews started within 2 s, and serve never waited");
                    }
                    Thread.sleep(1);
                }
                caller.interrupt();
            }
            caller.join(Duration.ofSeconds(1));
            assertFalse(caller.isAlive(),
                    "serve was still waiting 1 s after its thread was interrupted (let InterruptedException end it)");
            if (outcome.get() instanceof RuntimeException e) {
                throw e; // serve failed on its own: report its exception as it is
            }
            assertInstanceOf(InterruptedException.class, outcome.get(),
                    "what serve threw (or returned) when its thread was interrupted while it waited");
        });
    }

    /** Waits (at most 2 s) until {@code n} tasks have started on the staff, as a call of serve with {@code what} must. */
    private static void awaitStarted(Staff staff, int n, Thread caller, AtomicReference<Object> outcome, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (staff.probe.entered() < n) {
            if (!caller.isAlive()) {
                Object o = outcome.get();
                if (o instanceof Throwable t) {
                    throw new AssertionError("serve for " + what + " threw " + t, t);
                }
                fail("serve for " + what + " returned " + o + " after starting " + staff.probe.entered() + " brews");
            }
            if (System.nanoTime() > deadline) {
                fail("serve for " + what + ": " + staff.probe.entered() + " brews started within 2 s");
            }
            Thread.sleep(1);
        }
    }

    /** Waits (at most 2 s) until {@code n} tasks are on the staff and every one of them is asleep. */
    private static void awaitAllSleeping(Staff staff, int n, Thread caller, AtomicReference<Object> outcome)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (staff.probe.inFlight() < n || !staff.runsInFlight().stream().allMatch(CafeTest::parked)) {
            if (!caller.isAlive() && outcome.get() instanceof Throwable t) {
                throw new AssertionError("serve for " + n + " customers of 30 s threw " + t, t);
            }
            if (!caller.isAlive() || System.nanoTime() > deadline) {
                fail(n + " customers of 30 s: " + staff.probe.inFlight() + " brews were asleep on the staff after 2 s");
            }
            Thread.sleep(1);
        }
    }
}
