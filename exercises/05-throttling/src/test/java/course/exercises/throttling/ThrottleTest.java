package course.exercises.throttling;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Probe;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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

    /** An {@link Error} a call throws: a permit must come back whatever the call throws. */
    static final class CallError extends Error {
        CallError(String message) {
            super(message);
        }
    }

    /** {@code callAll} run on a thread of its own, so that a test can watch it while the calls run. */
    static final class Caller<T> {
        final AtomicReference<Object> outcome = new AtomicReference<>();
        /** How many calls had ended (by the probe) when callAll returned or threw. */
        final AtomicInteger exitedWhenItEnded = new AtomicInteger(-1);
        final Thread thread;

        Caller(List<? extends Callable<T>> calls, int maxInFlight, Probe probe) {
            thread = Thread.ofPlatform().name("callAll").start(() -> {
                try {
                    outcome.set(Throttle.callAll(calls, maxInFlight));
                } catch (Exception | Error e) {
                    outcome.set(e);
                }
                exitedWhenItEnded.set(probe.exited());
            });
        }

        /**
         * Waits until callAll has ended, or until no call has ended for {@code stall} while it has not: true if it
         * ended. Correct code keeps finishing calls; code whose calls wait for ever makes no progress.
         */
        boolean awaitEnd(Probe probe, Duration stall) throws InterruptedException {
            int before = probe.exited();
            while (!thread.join(stall)) {
                int now = probe.exited();
                if (now == before) {
                    return false;
                }
                before = now;
            }
            return true;
        }

        /**
         * Waits until {@code latch} opens or callAll ends, at most {@code guard}. A callAll that ended having run
         * no call, with an unchecked exception of its own (a stub, a bad argument check), has that exception
         * rethrown here, so that the report shows it as it is.
         */
        void awaitOrRethrow(CountDownLatch latch, Probe probe, Duration guard) throws InterruptedException {
            long end = System.nanoTime() + guard.toNanos();
            while (!latch.await(10, TimeUnit.MILLISECONDS) && thread.isAlive() && System.nanoTime() < end) {
                // wait
            }
            rethrowOwnFailure(probe);
        }

        /**
         * Rethrows the unchecked exception of a callAll that ended having run no call (a stub, a bad argument
         * check), so that the report shows it as it is rather than the assertions it made fail.
         */
        void rethrowOwnFailure(Probe probe) {
            if (!thread.isAlive() && probe.entered() == 0 && outcome.get() instanceof RuntimeException e) {
                throw e;
            }
        }

        /** Interrupts a callAll that does not end, and waits a little for it. */
        void stop() throws InterruptedException {
            thread.interrupt();
            thread.join(Duration.ofSeconds(2));
        }
    }

    @Order(1)
    @Test
    @Tag("points:1")
    @DisplayName("maxInFlight < 1 throws IllegalArgumentException and runs no call; maxInFlight = 1 is a limit like any")
    void maxInFlightBelowOneIsRejected() {
        Probe probe = new Probe();
        List<Callable<Integer>> calls = List.of(probe.wrap(() -> 1));
        // Without the check, a Semaphore(0) lets no call in and callAll waits for ever: the test stops it after 1 s.
        assertTimeoutPreemptively(Duration.ofSeconds(1), () -> assertAll(
                () -> assertThrows(IllegalArgumentException.class, () -> Throttle.callAll(calls, 0),
                        "callAll(calls, 0) must throw IllegalArgumentException"),
                () -> assertThrows(IllegalArgumentException.class, () -> Throttle.callAll(calls, -1),
                        "callAll(calls, -1) must throw IllegalArgumentException")),
                "callAll(calls, 0) or callAll(calls, -1) neither threw nor returned within 1 s");
        assertEquals(0, probe.entered(), "calls that ran although maxInFlight was below 1");
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertEquals(List.of(1), Throttle.callAll(calls, 1),
                "callAll(calls, 1): one call at a time is allowed"));
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
                    done.get(k + 1).await(2, TimeUnit.SECONDS);
                }
                done.get(k).countDown();
                return k;
            });
        }
        assertEquals(List.of(0, 1, 2, 3), Throttle.callAll(calls, 10),
                "results of calls 0..3 (they complete 3, 2, 1, 0)");
    }

    @Order(4)
    @Test
    @Tag("points:1")
    @DisplayName("a call may return null: its result is null, in its place")
    void aCallMayReturnNull() throws Exception {
        List<Callable<String>> calls = List.of(() -> "a", () -> null, () -> "c");
        List<String> results = Throttle.callAll(calls, 2);
        assertEquals(Arrays.asList("a", null, "c"), results, "results of calls returning \"a\", null, \"c\"");
    }

    @Order(5)
    @Test
    @Tag("points:2")
    @DisplayName("each call runs once, on a new virtual thread of its own (20 calls, maxInFlight = 5: 20 threads)")
    void eachCallOnItsOwnVirtualThread() throws Exception {
        Probe probe = new Probe();
        List<Callable<String>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(probe.wrap(() -> "ok"));
        }
        List<String> results = Throttle.callAll(calls, 5);
        assertAll(
                () -> assertEquals(20, results.size(), "number of results"),
                () -> assertEquals(20, probe.entered(), "calls that ran"),
                () -> assertEquals(20, probe.virtualCount(), "calls that ran on a virtual thread"),
                () -> assertEquals(20, probe.threads(), "distinct threads that ran the 20 calls (a pool of "
                        + "maxInFlight threads reuses its threads; the limit must come from elsewhere)"));
    }

    @Order(6)
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
                gate.await(10, TimeUnit.SECONDS);
                return k;
            }));
        }
        Caller<Integer> caller = new Caller<>(calls, limit, probe);
        // Every call waits at the gate. With the limit right, exactly `limit` calls get in, quickly; a limit too
        // low stops short of it. A call beyond the limit, if the code lets one in, has a moment to show up
        // before the gate opens.
        boolean filled = false;
        for (long last = limitReached.getCount(); caller.thread.isAlive(); last = limitReached.getCount()) {
            if (limitReached.await(1, TimeUnit.SECONDS)) {
                filled = true;
                break;
            }
            if (limitReached.getCount() == last) {
                break; // no call got in for 1 s
            }
        }
        Thread.sleep(200);
        int inFlightAtTheGate = probe.inFlight();
        int peakAtTheGate = probe.peak();
        gate.countDown();
        caller.thread.join(Duration.ofSeconds(10));
        caller.rethrowOwnFailure(probe);
        boolean reached = filled;
        assertAll(
                () -> assertTrue(reached, "only " + peakAtTheGate + " calls ever ran at once; " + limit
                        + " should have, as maxInFlight = " + limit + " and " + n + " calls were waiting"),
                () -> assertEquals(limit, inFlightAtTheGate, "calls in flight while the rest waited (maxInFlight = "
                        + limit + ")"),
                () -> assertEquals(limit, probe.peak(), "calls in flight at the same moment (maxInFlight = " + limit + ")"),
                () -> assertEquals(IntStream.range(0, n).boxed().toList(), caller.outcome.get(), "the results"));
    }

    @Order(7)
    @Test
    @Tag("points:2")
    @Timeout(10)
    @DisplayName("a failing call: ExecutionException with its own exception as the cause, thrown only after every other call finished")
    void failureIsReportedAfterAllCallsFinished() throws Exception {
        Probe probe = new Probe();
        IOException boom = new IOException("service unavailable");
        CountDownLatch failed = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int k = i;
            calls.add(probe.wrap(() -> {
                if (k == 1) {
                    failed.countDown();
                    throw boom;
                }
                if (k > 1) {
                    gate.await(5, TimeUnit.SECONDS); // calls 2, 3 and 4 are still running when call 1 fails
                }
                return k;
            }));
        }
        Caller<Integer> caller = new Caller<>(calls, 5, probe);
        caller.awaitOrRethrow(failed, probe, Duration.ofSeconds(5));
        // Call 0 has returned, call 1 has failed and three calls wait at the gate: callAll must not end now. Code
        // that throws at the first failure ends within this moment; then the gate opens.
        boolean endedEarly = caller.thread.join(Duration.ofMillis(200));
        gate.countDown();
        caller.thread.join(Duration.ofSeconds(5));
        Object outcome = caller.outcome.get();
        assertAll(
                () -> assertFalse(endedEarly, "callAll ended while calls 2, 3 and 4 were still running (it had seen "
                        + caller.exitedWhenItEnded.get() + " of 5 calls end)"),
                () -> assertEquals(5, caller.exitedWhenItEnded.get(), "calls that had finished when callAll ended"),
                () -> {
                    ExecutionException thrown = assertInstanceOf(ExecutionException.class, outcome,
                            "callAll must throw ExecutionException when a call fails");
                    assertSame(boom, thrown.getCause(),
                            "the ExecutionException's cause: the failed call's own exception, not wrapped again");
                });
    }

    @Order(8)
    @Test
    @Tag("points:2")
    @Timeout(10)
    @DisplayName("two failures: the cause is the earlier call's in the list, though the later one failed first")
    void earliestFailureInListOrderWins() throws Exception {
        Probe probe = new Probe();
        IllegalStateException fromCall1 = new IllegalStateException("call 1 failed (second in time)");
        IllegalStateException fromCall3 = new IllegalStateException("call 3 failed (first in time)");
        AtomicReference<Thread> call3Thread = new AtomicReference<>();
        CountDownLatch call3Throws = new CountDownLatch(1);
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int k = i;
            calls.add(probe.wrap(() -> {
                if (k == 1) {
                    // Fail only once call 3 has failed and its thread has ended (a guard of 1 s, for a pooled
                    // thread that never ends), so that call 3's failure is first in time.
                    call3Throws.await(5, TimeUnit.SECONDS);
                    call3Thread.get().join(Duration.ofSeconds(1));
                    throw fromCall1;
                }
                if (k == 3) {
                    call3Thread.set(Thread.currentThread());
                    call3Throws.countDown();
                    throw fromCall3;
                }
                return k;
            }));
        }
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> Throttle.callAll(calls, 5),
                "callAll must throw ExecutionException when calls fail");
        assertSame(fromCall1, thrown.getCause(), "the cause must be call 1's exception, the earliest failed call in "
                + "list order, though call 3 failed first in time; it was " + thrown.getCause());
    }

    @Order(9)
    @Test
    @Tag("points:2")
    @Timeout(10)
    @DisplayName("a failing call gives its permit back, whatever it throws (maxInFlight = 2, half the calls fail)")
    void failingCallsReleaseTheirPermits() throws Exception {
        Probe probe = new Probe();
        int n = 12;
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            calls.add(probe.wrap(() -> {
                if (k % 4 == 0) {
                    throw new IllegalStateException("call " + k + " failed");
                }
                if (k % 4 == 2) {
                    throw new CallError("call " + k + " failed with an Error");
                }
                return k;
            }));
        }
        Caller<Integer> caller = new Caller<>(calls, 2, probe);
        boolean ended = caller.awaitEnd(probe, Duration.ofSeconds(1));
        if (!ended) {
            caller.stop();
        }
        caller.rethrowOwnFailure(probe);
        Object outcome = caller.outcome.get();
        assertAll(
                () -> assertTrue(ended, "callAll did not end: " + probe.exited() + " of " + n + " calls had run, "
                        + "then none for 1 s (failed calls kept their permits, and the rest wait for one)"),
                () -> assertEquals(n, probe.exited(), "calls that ran to the end"),
                () -> {
                    ExecutionException thrown = assertInstanceOf(ExecutionException.class, outcome,
                            "callAll must throw ExecutionException when calls fail");
                    assertInstanceOf(IllegalStateException.class, thrown.getCause(),
                            "the cause must be the failed call's exception");
                    assertEquals("call 0 failed", thrown.getCause().getMessage(),
                            "the cause must come from the earliest failed call in list order");
                });
    }
}
