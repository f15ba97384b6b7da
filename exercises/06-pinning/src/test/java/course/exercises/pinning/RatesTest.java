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

    /** A source that counts its fetches and, once {@link #hold()} is called, blocks each fetch until released. */
    static final class SlowSource implements Rates.Source {
        final Map<String, Double> table;
        final AtomicInteger fetches = new AtomicInteger();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        SlowSource(Map<String, Double> table) {
            this.table = table;
        }

        @Override
        public Map<String, Double> fetch() throws InterruptedException {
            fetches.incrementAndGet();
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
         * Waits until every caller is parked (WAITING): all of them are then inside {@code rate}, waiting for the
         * fetch. Gives up after {@code limit} (callers that spin, or that are stuck behind pinned carriers, never
         * park) and says whether they all parked.
         */
        boolean allParked(Duration limit) throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            while (System.nanoTime() < deadline) {
                if (threads.stream().allMatch(t -> t.getState() == Thread.State.WAITING)) return true;
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
    @Tag("points:1")
    @DisplayName("an unknown currency throws IllegalArgumentException")
    void unknownCurrency() throws Exception {
        var source = new SlowSource(TABLE);
        source.release.countDown();
        Rates rates = new Rates(source);
        assertThrows(IllegalArgumentException.class, () -> rates.rate("XXX"), "rate(\"XXX\")");
    }

    @Order(3)
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

    @Order(4)
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

    @Order(7)
    @Test
    @Tag("points:1")
    @DisplayName("a failed fetch is not remembered: the call throws, the next call fetches again")
    void failureIsNotRemembered() throws Exception {
        var calls = new AtomicInteger();
        Rates rates = new Rates(() -> {
            if (calls.incrementAndGet() == 1) throw new IllegalStateException("the bank is down");
            return TABLE;
        });
        Exception e = assertThrows(Exception.class, () -> rates.rate("EUR"), "the first call, whose fetch fails");
        assertNotNull(e);
        assertEquals(1.08, rates.rate("EUR"), 0.0, "the second call, whose fetch succeeds");
        assertEquals(2, calls.get(), "fetches");
    }
}
