package course.exercises.pinning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import course.base.Failure;
import course.base.TestOrder;
import course.base.diagnostics.Carriers;
import course.base.diagnostics.PinnedEvents;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The course's tests for exercise 06. Each test's {@code points:N} tag is what it is worth.
 *
 * <p>The properties (jqwik, fixed seeds) try tables of any rates (0.0, -0.0, NaN and infinities among them), every
 * kind of failure the source may throw ({@link Failure}: checked, unchecked, {@link Error}s, with and without a
 * cause) and up to 8 callers waiting for a fetch that fails. Waiters are seen waiting by their thread states, never
 * by a sleep; every wait of the test is bounded, so that a wrong solution fails in seconds instead of hanging.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Rates")
class RatesTest {
    static final Map<String, Double> TABLE = Map.of("EUR", 1.08, "GBP", 1.27, "JPY", 0.0067);

    /**
     * A source that counts its fetches and blocks each fetch until {@code release} is counted down. It refuses to
     * block the test's own thread, which only a constructor that fetches would make it do.
     */
    static final class SlowSource implements Rates.Source {
        final Map<String, Double> table;
        final AtomicInteger fetches = new AtomicInteger();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final Thread test = Thread.currentThread();

        SlowSource(Map<String, Double> table) {
            this.table = table;
        }

        @Override
        public Map<String, Double> fetch() throws InterruptedException {
            fetches.incrementAndGet();
            if (Thread.currentThread() == test && release.getCount() > 0) {
                throw new IllegalStateException(
                        "the test's own thread fetched before any caller called rate: does the constructor fetch?");
            }
            entered.countDown();
            release.await();
            return table;
        }
    }

    /** {@code n} virtual threads named caller-0 … calling {@code rates.rate("EUR")}; their results and failures. */
    static final class Callers {
        final List<Thread> threads = new ArrayList<>();
        final ConcurrentLinkedQueue<Double> results = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();

        Callers(Rates rates, int n) {
            for (int i = 0; i < n; i++) {
                threads.add(Thread.ofVirtual().name("caller-" + i).start(() -> {
                    try {
                        results.add(rates.rate("EUR"));
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
        }

        /**
         * Waits until a caller is inside {@code source}'s fetch, for up to 10 s; fails at once when every caller
         * has returned without calling it.
         */
        void awaitFetch(SlowSource source) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!source.entered.await(10, TimeUnit.MILLISECONDS)) {
                if (threads.stream().noneMatch(Thread::isAlive)) {
                    fail("all " + threads.size() + " callers returned without calling this Rates' own source"
                            + " (does something shared between Rates objects, a static field say, answer for it?)");
                }
                assertTrue(System.nanoTime() < deadline, "no caller fetched within 10 s");
            }
        }

        /**
         * Waits until every caller is parked (WAITING, or BLOCKED on a monitor): all of them are then inside
         * {@code rate}, waiting for the fetch. Gives up after {@code limit} (callers that spin, poll, or are stuck
         * behind pinned carriers never all park) and says whether they all parked.
         */
        boolean allParked(Duration limit) throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            while (System.nanoTime() < deadline) {
                if (threads.stream().allMatch(t -> parked(t.getState()))) return true;
                Thread.sleep(1);
            }
            return false;
        }

        /**
         * Lets the fetch finish, then waits for every caller. Callers that never parked may be spinning on every
         * carrier, so that the released fetch could never run again: then the scheduler's parallelism is raised
         * to a carrier per caller. The scheduler only adds a carrier when work arrives in an empty queue, so
         * while a caller is still running, a new platform thread hands it an empty virtual thread as well.
         */
        void releaseAndJoin(CountDownLatch release, boolean parked) throws InterruptedException {
            if (parked) {
                release.countDown();
                for (Thread t : threads) t.join();
                return;
            }
            try (var lent = Carriers.parallelism(Carriers.scheduler().getParallelism() + threads.size() + 1)) {
                release.countDown();
                for (Thread t : threads) {
                    while (!t.join(Duration.ofMillis(50))) {
                        Thread.ofPlatform()
                                .start(() -> Thread.ofVirtual().start(() -> {}))
                                .join();
                    }
                }
            }
        }
    }

    /** Parked with no timer: waiting to be woken (a lock, a condition, a latch, a future, a monitor, Object.wait). */
    static boolean parked(Thread.State s) {
        return s == Thread.State.WAITING || s == Thread.State.BLOCKED;
    }

    @Order(1)
    @Test
    @Tag("points:1")
    @DisplayName("the first call fetches; later calls answer from the table without fetching")
    void fetchesOnce() throws Exception {
        var source = new SlowSource(TABLE);
        source.release.countDown();
        Rates rates = new Rates(source);
        assertEquals(0, source.fetches.get(), "fetches made by the constructor (it must not fetch)");
        assertEquals(1.08, rates.rate("EUR"), 0.0, "rate(\"EUR\")");
        assertEquals(1.27, rates.rate("GBP"), 0.0, "rate(\"GBP\")");
        assertEquals(1.08, rates.rate("EUR"), 0.0, "rate(\"EUR\"), again");
        assertEquals(1, source.fetches.get(), "fetches for three calls");
    }

    /** A table of rates, and the currencies asked for one after another, some of them not in the table. */
    record Lookups(Map<String, Double> table, List<String> asked) {
        @Override
        public String toString() {
            return "table " + table + ", rate(...) of " + asked;
        }
    }

    @Provide
    Arbitrary<Lookups> lookups() {
        Arbitrary<String> code = Arbitraries.strings().withCharRange('A', 'Z').ofLength(3);
        Arbitrary<Double> rate = Arbitraries.oneOf(
                Arbitraries.doubles().between(-1e9, 1e9),
                Arbitraries.of(0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                        Double.MIN_VALUE, Double.MAX_VALUE, 1.0));
        return Arbitraries.maps(code, rate).ofMinSize(0).ofMaxSize(6).flatMap(table -> {
            Arbitrary<String> asked = table.isEmpty()
                    ? code
                    : Arbitraries.frequencyOf(
                            net.jqwik.api.Tuple.of(3, Arbitraries.of(List.copyOf(table.keySet()))),
                            net.jqwik.api.Tuple.of(1, code));
            return asked.list().ofMinSize(1).ofMaxSize(8).map(a -> new Lookups(Map.copyOf(table), a));
        });
    }

    @TestOrder(2)
    @Property(seed = "2060002", tries = 25)
    @net.jqwik.api.Tag("points:1")
    @Label("any table, any rates (0.0, NaN, infinities too): each call answers its currency's rate or throws"
            + " IllegalArgumentException for one the table lacks, from one fetch")
    void everyRateFromOneFetch(@ForAll("lookups") Lookups l) throws Exception {
        var source = new SlowSource(l.table());
        source.release.countDown();
        Rates rates = new Rates(source);
        assertEquals(0, source.fetches.get(), "fetches made by the constructor (it must not fetch)");
        for (String currency : l.asked()) {
            Double expected = l.table().get(currency);
            if (expected == null) {
                assertThrows(IllegalArgumentException.class, () -> rates.rate(currency),
                        "rate(\"" + currency + "\"), a currency the table lacks");
            } else {
                double got = rates.rate(currency);
                assertTrue(Double.compare(expected, got) == 0, "rate(\"" + currency + "\") gave " + got
                        + ", but the table says " + expected + " (a rate of 0.0 or NaN is a rate like any other)");
            }
        }
        assertEquals(1, source.fetches.get(), "fetches for " + l.asked().size() + " calls (an unknown currency"
                + " is answered from the table too: it does not fetch again)");
    }

    @Order(3)
    @Test
    @Tag("points:2")
    @Timeout(30)
    @DisplayName("64 virtual threads calling during a slow fetch: one fetch, every caller gets the rate")
    void concurrentCallersShareOneFetch() throws Exception {
        var source = new SlowSource(TABLE);
        Rates rates = new Rates(source);
        var callers = new Callers(rates, 64);
        boolean parked = false;
        try {
            callers.awaitFetch(source);
            parked = callers.allParked(Duration.ofSeconds(3));
        } finally {
            callers.releaseAndJoin(source.release, parked);
        }
        assertEquals(List.of(), List.copyOf(callers.failures), "exceptions thrown by callers");
        assertEquals(64, callers.results.size(), "callers that got a rate");
        assertTrue(callers.results.stream().allMatch(r -> r == 1.08), "every caller gets 1.08: " + callers.results);
        assertEquals(1, source.fetches.get(), "fetches for 64 callers (callers that arrive during the fetch must wait for it)");
    }

    @Order(4)
    @Test
    @Tag("points:2")
    @Timeout(30)
    @DisplayName("callers waiting for the fetch park until it ends: none wakes up to poll, sleep, yield or spin")
    void waitersParkUntilTheFetchEnds() throws Exception {
        var source = new SlowSource(TABLE);
        Rates rates = new Rates(source);
        var callers = new Callers(rates, 16);
        boolean parked = false; // every caller parked, and stayed so: the fetch may be released the quick way
        try {
            callers.awaitFetch(source);
            // Every caller reaches its wait. A caller that spins (Thread.onSpinWait, Thread.yield) stays RUNNABLE;
            // one that polls with a timer (Thread.sleep, a timed wait in a loop) is TIMED_WAITING.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            boolean reached = false;
            while (!reached) {
                Thread timed = callers.threads.stream()
                        .filter(t -> t.getState() == Thread.State.TIMED_WAITING)
                        .findFirst()
                        .orElse(null);
                if (timed != null) {
                    fail(timed.getName() + " waits with a timer (TIMED_WAITING) while the fetch runs: it polls"
                            + " (Thread.sleep, a timed wait in a loop) instead of parking until the fetch ends");
                }
                reached = callers.threads.stream().allMatch(t -> parked(t.getState()));
                if (!reached && System.nanoTime() > deadline) {
                    List<Thread> running = callers.threads.stream()
                            .filter(t -> !parked(t.getState()))
                            .toList();
                    fail(running.size() + " of " + callers.threads.size() + " callers never parked in the 3 s the"
                            + " fetch was held (" + running.getFirst().getName() + " was "
                            + running.getFirst().getState() + "): they spin (Thread.onSpinWait, Thread.yield)"
                            + " instead of parking until the fetch ends");
                }
                Thread.sleep(1);
            }
            // Then they stay parked: a parked waiter is woken by the fetch's end, and the fetch is held.
            int[] wakeUps = new int[callers.threads.size()];
            for (int sweep = 0; sweep < 100; sweep++) {
                for (int i = 0; i < wakeUps.length; i++) {
                    Thread t = callers.threads.get(i);
                    Thread.State state = t.getState();
                    if (state == Thread.State.TIMED_WAITING) {
                        fail(t.getName() + " waits with a timer (TIMED_WAITING) while the fetch runs: it polls"
                                + " (Thread.sleep, a timed wait in a loop) instead of parking until the fetch ends");
                    }
                    if (!parked(state) && ++wakeUps[i] >= 3) {
                        fail(t.getName() + " was parked, then seen " + state + " " + wakeUps[i] + " times while"
                                + " the fetch was still held: it wakes up to check again instead of staying parked"
                                + " until the fetch ends");
                    }
                }
                Thread.sleep(1);
            }
            parked = true;
        } finally {
            callers.releaseAndJoin(source.release, parked);
        }
        assertEquals(List.of(), List.copyOf(callers.failures), "exceptions thrown by callers");
        assertEquals(1, source.fetches.get(), "fetches for 16 callers");
    }

    @Order(5)
    @Test
    @Tag("points:2")
    @Timeout(30)
    @DisplayName("callers waiting for the fetch leave the carriers free: another virtual thread still runs")
    void waitersLeaveTheCarriersFree() throws Exception {
        int carriers = Carriers.scheduler().getParallelism();
        var source = new SlowSource(TABLE);
        Rates rates = new Rates(source);
        var callers = new Callers(rates, 4 * carriers);
        var probeRan = new CountDownLatch(1);
        Thread probe = null;
        boolean parked = false;
        try {
            callers.awaitFetch(source);
            parked = callers.allParked(Duration.ofSeconds(3));
            probe = Thread.ofVirtual().name("probe").start(probeRan::countDown);
            assertTrue(probeRan.await(3, TimeUnit.SECONDS), "a virtual thread started while " + 4 * carriers
                    + " callers waited for the fetch did not run: the callers hold all " + carriers
                    + " carriers (do they spin, or wait inside a class initialiser, instead of parking?)");
        } finally {
            callers.releaseAndJoin(source.release, parked);
            if (probe != null) probe.join();
        }
    }

    @Order(6)
    @Test
    @Tag("points:2")
    @Timeout(30)
    @DisplayName("no virtual thread is pinned while callers wait for the fetch (JFR jdk.VirtualThreadPinned)")
    void nobodyIsPinned() throws Exception {
        var source = new SlowSource(TABLE);
        Rates rates = new Rates(source);
        boolean[] parked = {false};
        List<PinnedEvents.Pin> pins = PinnedEvents.during(Duration.ZERO, () -> {
            var callers = new Callers(rates, 16);
            try {
                callers.awaitFetch(source);
                parked[0] = callers.allParked(Duration.ofSeconds(3));
            } finally {
                callers.releaseAndJoin(source.release, parked[0]);
            }
        });
        List<PinnedEvents.Pin> ours = PinnedEvents.of(pins, n -> n.startsWith("caller-"));
        if (!ours.isEmpty()) {
            fail(ours.size() + " pinned parks of the callers; the first: " + ours.getFirst().reason() + " at "
                    + ours.getFirst().top(4).replace("\n", " ← ")
                    + " (a fetch inside a class initialiser pins the thread that runs it and every thread that waits for it)");
        }
    }

    /** True if {@code thrown} is {@code cause} or has it among its causes. */
    static boolean causedBy(Throwable thrown, Throwable cause) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t == cause) return true;
            if (t.getCause() == t) break;
        }
        return false;
    }

    @Provide
    Arbitrary<List<Failure>> failures() {
        return Combinators.combine(Arbitraries.of(Failure.Kind.class), Arbitraries.of(true, false))
                .as(Failure::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(3);
    }

    @TestOrder(7)
    @Property(seed = "2060007", tries = 20)
    @net.jqwik.api.Tag("points:1")
    @Label("a failed fetch is not remembered: the call throws the fetch's own exception (checked, unchecked or an"
            + " Error, with or without a cause), and the next call fetches again")
    void failureIsNotRemembered(@ForAll("failures") List<Failure> failures) throws Exception {
        var calls = new AtomicInteger();
        List<Throwable> thrown = new ArrayList<>();
        Rates rates = new Rates(() -> {
            int n = calls.incrementAndGet();
            if (n > failures.size()) return TABLE;
            Throwable t = failures.get(n - 1).create("the bank is down (fetch " + n + ")");
            thrown.add(t);
            return sneaky(t);
        });
        for (int n = 1; n <= failures.size(); n++) {
            Object got = rateWithin2s(rates, "call " + n + ", whose fetch throws " + failures.get(n - 1));
            assertTrue(got instanceof Throwable, "call " + n + " returned " + got + ", but its fetch threw "
                    + failures.get(n - 1));
            assertEquals(n, calls.get(), "fetches after " + n + " calls whose fetches failed (a failed fetch is"
                    + " not remembered: the next call fetches again)");
            assertTrue(causedBy((Throwable) got, thrown.get(n - 1)), "call " + n + " threw " + got + ", which is not"
                    + " its fetch's exception (" + thrown.get(n - 1) + ") and not caused by it");
        }
        assertEquals(1.08, rateWithin2s(rates, "the call after " + failures.size() + " failed fetches"),
                "the call after the failed ones, whose fetch succeeds");
        assertEquals(failures.size() + 1, calls.get(), "fetches");
    }

    /** {@code rates.rate("EUR")} on a thread of its own: its rate or what it threw; fails if it waits over 2 s. */
    static Object rateWithin2s(Rates rates, String what) throws InterruptedException {
        var got = new java.util.concurrent.atomic.AtomicReference<Object>();
        Thread t = Thread.ofVirtual().name("caller").start(() -> {
            try {
                got.set(rates.rate("EUR"));
            } catch (Throwable e) {
                got.set(e);
            }
        });
        if (!t.join(Duration.ofSeconds(2))) {
            t.interrupt();
            fail(what + ": rate(\"EUR\") still waits after 2 s (is something left locked or unfinished after a"
                    + " failed fetch, an Error say?)");
        }
        return got.get();
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> Map<String, Double> sneaky(Throwable t) throws E {
        throw (E) t;
    }

    /** How the fetches after the first, failed one end. */
    enum Later {
        SUCCEED,
        FAIL;

        @Override
        public String toString() {
            return this == SUCCEED ? "later fetches succeed" : "later fetches fail too";
        }
    }

    /** Waiters for a first fetch that fails; what the fetches after it do. */
    record FailedFetch(int waiters, Failure failure, Later later) {
        @Override
        public String toString() {
            return waiters + (waiters == 1 ? " caller waits" : " callers wait") + " for a fetch that throws " + failure
                    + "; " + later;
        }
    }

    @Provide
    Arbitrary<FailedFetch> failedFetches() {
        return Combinators.combine(
                        Arbitraries.integers().between(1, 8),
                        Combinators.combine(Arbitraries.of(Failure.Kind.class), Arbitraries.of(false, true))
                                .as(Failure::new),
                        Arbitraries.of(Later.class))
                .as(FailedFetch::new);
    }

    /**
     * A source whose first fetch is held until {@link #release} and then throws; later fetches return the table or
     * throw, as {@link FailedFetch#later} says. A later fetch is held until every caller other than its own thread
     * is parked or done (or a second fetch starts beside it), so that callers that would fetch at once are seen
     * fetching at once.
     */
    static final class FailingSource implements Rates.Source {
        final FailedFetch plan;
        final AtomicInteger fetches = new AtomicInteger();
        final AtomicInteger inFetch = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<Throwable> thrown = new CopyOnWriteArrayList<>();
        volatile List<Thread> callers = List.of();

        FailingSource(FailedFetch plan) {
            this.plan = plan;
        }

        @Override
        public Map<String, Double> fetch() throws Exception {
            int n = fetches.incrementAndGet();
            mostAtOnce.accumulateAndGet(inFetch.incrementAndGet(), Math::max);
            try {
                if (n == 1) {
                    entered.countDown();
                    if (!release.await(10, TimeUnit.SECONDS)) throw new IllegalStateException("never released");
                } else {
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                    while (inFetch.get() == 1 && System.nanoTime() < deadline && !othersSettled()) {
                        Thread.sleep(1);
                    }
                    if (plan.later() == Later.SUCCEED) return TABLE;
                }
                Throwable t = plan.failure().create("the bank is down (fetch " + n + ")");
                thrown.add(t);
                return sneaky(t);
            } finally {
                inFetch.decrementAndGet();
            }
        }

        private boolean othersSettled() {
            Thread me = Thread.currentThread();
            return callers.stream()
                    .filter(t -> t != me)
                    .allMatch(t -> parked(t.getState()) || t.getState() == Thread.State.TERMINATED);
        }
    }

    @TestOrder(8)
    @Property(seed = "2060008", tries = 20)
    @net.jqwik.api.Tag("points:2")
    @Label("callers parked waiting for a fetch that throws (any kind) wake up: each throws that failure or fetches"
            + " again, one fetch at a time")
    void waitersWakeWhenTheFetchFails(@ForAll("failedFetches") FailedFetch plan) throws Exception {
        var source = new FailingSource(plan);
        Rates rates = new Rates(source);
        var first = new Callers(rates, 1);
        var outcomes = new ConcurrentHashMap<Thread, Object>();
        List<Thread> callers = new ArrayList<>(first.threads);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (!source.entered.await(1, TimeUnit.MILLISECONDS)) {
                if (!first.threads.getFirst().isAlive() || System.nanoTime() > deadline) {
                    fail("the first call to rate did not fetch: " + (first.failures.isEmpty()
                            ? "it returned " + first.results : "it threw " + first.failures.peek()));
                }
            }
            for (int i = 1; i <= plan.waiters(); i++) {
                callers.add(Thread.ofVirtual().name("caller-" + i).start(() -> {
                    try {
                        outcomes.put(Thread.currentThread(), rates.rate("EUR"));
                    } catch (Throwable t) {
                        outcomes.put(Thread.currentThread(), t);
                    }
                }));
            }
            source.callers = List.copyOf(callers);
            // every waiter is parked (WAITING, or BLOCKED on a monitor) before the fetch fails
            List<Thread> waiters = callers.subList(1, callers.size());
            while (!waiters.stream().allMatch(t -> parked(t.getState()))) {
                if (System.nanoTime() > deadline + TimeUnit.SECONDS.toNanos(1)) {
                    Thread t = waiters.stream().filter(c -> !parked(c.getState())).findFirst().orElseThrow();
                    fail(t.getName() + " was " + t.getState() + ", not parked, while the fetch ran (callers that arrive"
                            + " during the fetch wait parked for it; see sentence 3)");
                }
                Thread.sleep(1);
            }
            source.release.countDown();
            long joinBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            for (Thread t : callers) t.join(Duration.ofNanos(Math.max(1, joinBy - System.nanoTime())));
            List<String> stuck = callers.stream().filter(Thread::isAlive).map(Thread::getName).toList();
            if (!stuck.isEmpty()) {
                fail(stuck.size() + " of " + callers.size() + " callers still wait 2 s after the fetch threw "
                        + plan.failure() + " (" + stuck + "): a fetch that throws ends too, and must wake its"
                        + " waiters (count down, signal or unlock in a finally, for every kind of throwable)");
            }
        } finally {
            source.release.countDown();
            for (Thread t : callers) if (t.isAlive()) t.interrupt();
        }
        Throwable firstThrew = first.failures.peek();
        assertNotNull(firstThrew, "the first call returned " + first.results + ", but its fetch threw " + plan.failure());
        assertTrue(causedBy(firstThrew, source.thrown.getFirst()), "the first call threw " + firstThrew
                + ", which is not its fetch's exception (" + source.thrown.getFirst() + ") and not caused by it");
        for (Thread t : callers.subList(1, callers.size())) {
            Object got = outcomes.get(t);
            if (got instanceof Throwable e) {
                assertTrue(source.thrown.stream().anyMatch(f -> causedBy(e, f)), t.getName() + " waited for the"
                        + " fetch, then threw " + e + ", which is not a failed fetch's exception, nor caused by one");
            } else {
                assertEquals(1.08, (Double) got, 0.0, t.getName() + "'s rate, from a later fetch");
            }
        }
        assertEquals(1, source.mostAtOnce.get(), "fetches that ran at once after the first one failed (a caller"
                + " that fetches again does so as a new first call would: the others wait for it, sentence 2)");
        assertTrue(source.fetches.get() <= callers.size(),
                source.fetches.get() + " fetches for " + callers.size() + " calls: one call fetches once at most");
        boolean fetched = plan.later() == Later.SUCCEED && source.fetches.get() > 1;
        int before = source.fetches.get();
        source.callers = List.of();
        Object after = rateWithin2s(rates, "a call made after the others were done");
        if (after instanceof Throwable e) {
            assertTrue(!fetched && source.thrown.stream().anyMatch(f -> causedBy(e, f)), "a call made after the"
                    + " others were done threw " + e + (fetched ? ", though the table was fetched" : ""));
        } else {
            assertEquals(1.08, after, "rate(\"EUR\") after the callers were done");
        }
        assertEquals(fetched ? before : before + 1, source.fetches.get(), "fetches by a call made after the others"
                + " were done, " + (fetched ? "once the table was fetched" : "while no fetch had succeeded yet")
                + " (a failed fetch is not remembered)");
    }

    @Order(9)
    @Test
    @Tag("points:1")
    @DisplayName("an unknown currency throws IllegalArgumentException")
    void unknownCurrency() throws Exception {
        var source = new SlowSource(TABLE);
        source.release.countDown();
        Rates rates = new Rates(source);
        assertThrows(IllegalArgumentException.class, () -> rates.rate("XXX"), "rate(\"XXX\")");
    }

    @Order(10)
    @Test
    @Tag("points:1")
    @DisplayName("each Rates fetches from its own source")
    void ownSource() throws Exception {
        var a = new SlowSource(Map.of("EUR", 1.0));
        var b = new SlowSource(Map.of("EUR", 2.0));
        a.release.countDown();
        b.release.countDown();
        assertEquals(1.0, new Rates(a).rate("EUR"), 0.0, "rate from the first source");
        assertEquals(2.0, new Rates(b).rate("EUR"), 0.0,
                "rate from a second Rates with its own source (is the table kept in a static field?)");
        assertEquals(1, b.fetches.get(), "fetches from the second source");
    }

    @Order(11)
    @Test
    @Tag("points:1")
    @Timeout(30)
    @DisplayName("one Rates' slow fetch does not hold up another Rates")
    void anotherRatesDoesNotWait() throws Exception {
        var slow = new SlowSource(Map.of("EUR", 1.0));
        var quick = new SlowSource(Map.of("EUR", 2.0));
        quick.release.countDown();
        Rates slowRates = new Rates(slow);
        Rates quickRates = new Rates(quick);
        var callers = new Callers(slowRates, 1);
        Thread other = null;
        var got = new ConcurrentLinkedQueue<Object>();
        try {
            callers.awaitFetch(slow);
            other = Thread.ofVirtual().name("other").start(() -> {
                try {
                    got.add(quickRates.rate("EUR"));
                } catch (Throwable t) {
                    got.add(t);
                }
            });
            assertTrue(other.join(Duration.ofSeconds(3)),
                    "a call to a second Rates, whose source answers at once, still waits after 3 s while the first"
                            + " Rates' fetch is held: do they share a static lock or table?");
            assertEquals(List.of(2.0), List.copyOf(got), "what the second Rates' call gave");
        } finally {
            callers.releaseAndJoin(slow.release, true);
            if (other != null) other.join();
        }
    }

    @Order(12)
    @Test
    @Tag("points:1")
    @DisplayName("a null source or currency throws NullPointerException")
    void nullsAreRejected() {
        assertThrows(NullPointerException.class, () -> new Rates(null), "new Rates(null)");
        // A HashMap holds null keys: a table kept as one answers get(null) with null instead of throwing.
        Rates rates = new Rates(() -> new HashMap<>(TABLE));
        assertThrows(NullPointerException.class, () -> rates.rate(null), "rate(null)");
    }
}
