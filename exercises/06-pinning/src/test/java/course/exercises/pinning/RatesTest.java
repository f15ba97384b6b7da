package course.exercises.pinning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import course.kit.diagnostics.Carriers;
import course.kit.diagnostics.PinnedEvents;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
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

/** The course's tests for exercise 06. Each test's {@code points:N} tag is what it is worth. */
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

    @Order(2)
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

    @Order(3)
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

    @Order(4)
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

    @Order(5)
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

    @Order(6)
    @Test
    @Tag("points:1")
    @DisplayName("a failed fetch is not remembered: the call throws the fetch's exception, the next call fetches again")
    void failureIsNotRemembered() throws Exception {
        var calls = new AtomicInteger();
        var down = new IllegalStateException("the bank is down");
        Rates rates = new Rates(() -> {
            if (calls.incrementAndGet() == 1) throw down;
            return TABLE;
        });
        Exception e = assertThrows(Exception.class, () -> rates.rate("EUR"), "the first call, whose fetch fails");
        boolean causedByIt = false;
        for (Throwable t = e; t != null && !causedByIt; t = t.getCause()) causedByIt = t == down;
        assertTrue(causedByIt, "the first call threw " + e + ", which is not the fetch's exception and not caused by it");
        assertEquals(1.08, rates.rate("EUR"), 0.0, "the second call, whose fetch succeeds");
        assertEquals(2, calls.get(), "fetches");
    }

    @Order(7)
    @Test
    @Tag("points:1")
    @DisplayName("an unknown currency throws IllegalArgumentException")
    void unknownCurrency() throws Exception {
        var source = new SlowSource(TABLE);
        source.release.countDown();
        Rates rates = new Rates(source);
        assertThrows(IllegalArgumentException.class, () -> rates.rate("XXX"), "rate(\"XXX\")");
    }

    @Order(8)
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

    @Order(9)
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

    @Order(10)
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
