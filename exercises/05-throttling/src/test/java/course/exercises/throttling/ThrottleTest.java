package course.exercises.throttling;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Probe;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/** The course's tests for exercise 05. Each test's {@code points:N} tag is what it is worth. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Throttle.callAll")
class ThrottleTest {

    @Order(1)
    @Test
    @Tag("points:1")
    @DisplayName("maxInFlight < 1 throws IllegalArgumentException")
    void maxInFlightBelowOneIsRejected() {
        List<Callable<Integer>> calls = List.of(() -> 1);
        assertThrows(IllegalArgumentException.class, () -> Throttle.callAll(calls, 0),
                "callAll(calls, 0) must throw IllegalArgumentException");
    }

    @Order(2)
    @Test
    @Tag("points:1")
    @DisplayName("no calls: returns an empty list")
    void noCallsGiveAnEmptyList() throws Exception {
        List<Integer> results = Throttle.callAll(List.<Callable<Integer>>of(), 3);
        assertNotNull(results, "callAll must return a list, not null");
        assertEquals(List.of(), results, "results of no calls");
    }

    @Order(3)
    @Test
    @Tag("points:2")
    @DisplayName("results come back in input order, not completion order")
    void resultsKeepInputOrder() throws Exception {
        int n = 4;
        List<CountDownLatch> done = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            done.add(new CountDownLatch(1));
        }
        // Call k finishes only after call k+1 has finished: they complete in reverse order.
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            calls.add(() -> {
                if (k + 1 < n) {
                    done.get(k + 1).await(5, TimeUnit.SECONDS);
                }
                done.get(k).countDown();
                return k;
            });
        }
        assertEquals(List.of(0, 1, 2, 3), Throttle.callAll(calls, n), "results of calls 0..3 (they complete 3, 2, 1, 0)");
    }

    @Order(4)
    @Test
    @Tag("points:2")
    @DisplayName("each call runs on its own virtual thread")
    void eachCallOnItsOwnVirtualThread() throws Exception {
        Probe probe = new Probe();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        List<Callable<String>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(probe.wrap(() -> {
                threads.add(Thread.currentThread());
                return "ok";
            }));
        }
        List<String> results = Throttle.callAll(calls, 5);
        assertAll(
                () -> assertEquals(20, results.size(), "number of results"),
                () -> assertEquals(20, probe.entered(), "calls that ran"),
                () -> assertEquals(20, probe.virtualCount(), "calls that ran on a virtual thread"),
                () -> assertEquals(20, threads.size(), "distinct threads (one new virtual thread per call)"));
    }

    @Order(5)
    @Test
    @Tag("points:3")
    @Timeout(20)
    @DisplayName("never more than maxInFlight calls at once, and exactly maxInFlight while work waits")
    void keepsTheLimitExactly() throws Exception {
        int limit = 3;
        int n = 7 * limit;
        Probe probe = new Probe();
        CountDownLatch limitReached = new CountDownLatch(limit);
        CountDownLatch gate = new CountDownLatch(1);
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            calls.add(probe.wrap(() -> {
                limitReached.countDown();
                gate.await(5, TimeUnit.SECONDS);
                return k;
            }));
        }
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread caller = Thread.ofPlatform().start(() -> {
            try {
                outcome.set(Throttle.callAll(calls, limit));
            } catch (Exception | Error e) {
                outcome.set(e);
            }
        });
        // Every call waits at the gate. With the limit right, exactly `limit` calls get in; a call beyond the
        // limit, if the code lets one in, has a moment to show up before the gate opens.
        boolean reached = false;
        for (int waited = 0; !reached && caller.isAlive() && waited < 5_000; waited += 50) {
            reached = limitReached.await(50, TimeUnit.MILLISECONDS);
        }
        boolean filled = reached;
        Thread.sleep(200);
        int inFlightAtTheGate = probe.inFlight();
        gate.countDown();
        caller.join();
        assertAll(
                () -> assertTrue(filled, "only " + probe.peak() + " calls ever ran at once; " + limit
                        + " should have, as maxInFlight = " + limit + " and " + n + " calls were waiting"),
                () -> assertEquals(limit, inFlightAtTheGate, "calls in flight while the rest waited (maxInFlight = "
                        + limit + ")"),
                () -> assertEquals(limit, probe.peak(), "calls in flight at the same moment (maxInFlight = " + limit + ")"),
                () -> assertEquals(IntStream.range(0, n).boxed().toList(), outcome.get(), "the results"));
    }

    @Order(6)
    @Test
    @Tag("points:2")
    @DisplayName("a failing call: ExecutionException with its cause, thrown after every call finished")
    void failureIsReportedAfterAllCallsFinished() {
        Probe probe = new Probe();
        IOException boom = new IOException("service unavailable");
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int k = i;
            calls.add(probe.wrap(() -> {
                if (k == 1) {
                    throw boom;
                }
                Thread.sleep(100);
                return k;
            }));
        }
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> Throttle.callAll(calls, 5),
                "callAll must throw ExecutionException when a call fails");
        assertAll(
                () -> assertSame(boom, thrown.getCause(), "the ExecutionException's cause (the failed call's exception)"),
                () -> assertEquals(5, probe.exited(), "calls that had finished when callAll threw"));
    }

    @Order(7)
    @Test
    @Tag("points:2")
    @Timeout(5)
    @DisplayName("a failing call gives its permit back (maxInFlight = 2, half the calls fail)")
    void failingCallsReleaseTheirPermits() {
        Probe probe = new Probe();
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            int k = i;
            calls.add(probe.wrap(() -> {
                if (k % 2 == 0) {
                    throw new IllegalStateException("call " + k + " failed");
                }
                return k;
            }));
        }
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> Throttle.callAll(calls, 2),
                "callAll must throw ExecutionException when calls fail");
        assertAll(
                () -> assertEquals(12, probe.exited(), "calls that ran to the end (a kept permit blocks the rest)"),
                () -> assertTrue(thrown.getCause() instanceof IllegalStateException,
                        "the cause must be the failed call's exception, was " + thrown.getCause()),
                () -> assertEquals("call 0 failed", thrown.getCause().getMessage(),
                        "the cause must come from the earliest failed call in list order"));
    }
}
