package course.exercises.deadline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The course's tests for exercise 08. Each test's {@code points:N} tag is what it is worth.
 *
 * <p>No verdict depends on the clock. The downstream calls wait on latches that only an interrupt or the test
 * ends; the tests watch thread states and what the call saw. The few time limits are guards that only a wrong
 * implementation reaches (a correct one is done in milliseconds), so that it fails fast instead of hanging.
 */
@DisplayName("Deadline.call")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DeadlineTest {
    /** A budget no test comes near: the call is always done long before it runs out. */
    private static final Duration AMPLE = Duration.ofMinutes(1);

    /** A budget that runs out while the call still waits. */
    private static final Duration SHORT = Duration.ofMillis(20);

    /** How long a test waits for something a correct implementation does at once. */
    private static final Duration GUARD = Duration.ofSeconds(3);

    /**
     * A downstream call that waits until it is interrupted (nothing else ends its wait). A stubborn one then
     * ignores interrupts and goes on until {@link #mayEnd} is counted down, as code that swallows interrupts does.
     */
    static final class Blocking implements Callable<String> {
        final boolean stubborn;
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch interrupted = new CountDownLatch(1);
        final CountDownLatch mayEnd = new CountDownLatch(1);
        volatile boolean ended;
        volatile Thread thread;

        Blocking(boolean stubborn) {
            this.stubborn = stubborn;
        }

        @Override
        public String call() throws InterruptedException {
            thread = Thread.currentThread();
            started.countDown();
            try {
                try {
                    new CountDownLatch(1).await();
                    return "never";
                } catch (InterruptedException e) {
                    interrupted.countDown();
                    if (!stubborn) throw e;
                }
                while (true) {
                    try {
                        mayEnd.await();
                        break;
                    } catch (InterruptedException again) {
                        // ignored, until the test lets it end
                    }
                }
                throw new InterruptedException("cancelled, and took its time to stop");
            } finally {
                ended = true;
            }
        }

        boolean wasInterrupted() {
            return interrupted.getCount() == 0;
        }

        /** Ends a call that a wrong implementation left running, so that it does not outlive the test. */
        void end() {
            mayEnd.countDown();
            Thread t = thread;
            if (t != null) t.interrupt();
        }
    }

    /** A virtual thread that calls {@code Deadline.call(downstream, budget)} and notes how it came back. */
    static final class Caller {
        final Blocking downstream;
        final Thread thread;
        volatile Object result;
        volatile Throwable thrown;
        volatile boolean downstreamEndedOnReturn;
        volatile boolean interruptedOnReturn;

        Caller(Blocking downstream, Duration budget) {
            this.downstream = downstream;
            this.thread = Thread.ofVirtual().name("caller").start(() -> {
                try {
                    result = Deadline.call(downstream, budget);
                } catch (Throwable t) {
                    thrown = t;
                } finally {
                    downstreamEndedOnReturn = downstream.ended;
                    interruptedOnReturn = Thread.currentThread().isInterrupted();
                }
            });
        }

        boolean returned() {
            return thread.getState() == Thread.State.TERMINATED;
        }

        /** Waits until the downstream call has started; fails if the caller returns first, or after GUARD. */
        void awaitStarted() throws InterruptedException {
            long deadline = System.nanoTime() + GUARD.toNanos();
            while (!downstream.started.await(1, TimeUnit.MILLISECONDS)) {
                if (returned()) {
                    fail("call " + (thrown == null ? "returned " + result : "threw " + thrown)
                            + " without starting the call");
                }
                if (System.nanoTime() > deadline) fail("the call had not started " + GUARD.toSeconds() + " s later");
            }
        }

        /** Waits until the caller waits (for the result or for the call's end) or has returned; at most GUARD. */
        void awaitWaiting() throws InterruptedException {
            awaitState(GUARD, Thread.State.WAITING, Thread.State.TIMED_WAITING, Thread.State.BLOCKED);
        }

        /** Waits until {@code thread} is in one of {@code states} or has ended, for up to {@code limit}. */
        void awaitState(Duration limit, Thread.State... states) throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            while (System.nanoTime() < deadline && !returned() && !List.of(states).contains(thread.getState())) {
                Thread.sleep(1);
            }
        }

        /** Waits until the downstream call has seen its interrupt, or the caller has returned; at most GUARD. */
        void awaitDownstreamInterruptedOrReturned() throws InterruptedException {
            long deadline = System.nanoTime() + GUARD.toNanos();
            while (System.nanoTime() < deadline
                    && !returned()
                    && !downstream.interrupted.await(1, TimeUnit.MILLISECONDS)) {
                // waiting
            }
            rethrowIfNotWritten();
        }

        /** A call that is not written yet (it throws UnsupportedOperationException) is reported as it is. */
        void rethrowIfNotWritten() {
            if (returned() && thrown instanceof UnsupportedOperationException notWritten) {
                throw notWritten;
            }
        }

        /**
         * Lets a stubborn downstream call end, once the caller has returned or is parked with no timer (as it is
         * while it waits for the call's end), or after 1 s: an implementation that returns while the call still
         * runs has then returned, and one that waits with a timer has had time to give up.
         */
        void letTheDownstreamEnd() throws InterruptedException {
            awaitState(Duration.ofSeconds(1), Thread.State.WAITING, Thread.State.BLOCKED);
            downstream.mayEnd.countDown();
        }

        /** Waits for the caller to return, at most GUARD, failing with {@code why} if it does not. */
        void awaitReturn(String why) throws InterruptedException {
            if (!thread.join(GUARD)) fail(why);
            rethrowIfNotWritten();
        }

        /** Ends whatever a wrong implementation left running. */
        void cleanUp() throws InterruptedException {
            downstream.end();
            if (!thread.join(GUARD)) {
                thread.interrupt();
                thread.join(GUARD);
            }
        }
    }

    @Test
    @Order(1)
    @Tag("points:1")
    @DisplayName("a null call or budget throws NullPointerException")
    void nullsAreRejected() {
        assertThrows(NullPointerException.class, () -> Deadline.call(null, AMPLE), "call(null, budget)");
        assertThrows(NullPointerException.class, () -> Deadline.call(() -> "row", null), "call(downstream, null)");
    }

    @Test
    @Order(2)
    @Tag("points:2")
    @DisplayName("each call runs on a new virtual thread of its own: 20 calls, 20 threads")
    void onANewVirtualThread() throws Exception {
        Set<Thread> threads = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            Thread thread = Deadline.call(Thread::currentThread, AMPLE);
            assertTrue(thread.isVirtual(), "the call ran on " + thread + ", not a virtual thread");
            assertNotSame(Thread.currentThread(), thread, "the call ran on the caller's own thread");
            threads.add(thread);
        }
        assertEquals(20, threads.size(),
                "distinct threads that ran 20 calls (threads reused from a pool give fewer)");
    }

    @Test
    @Order(3)
    @Tag("points:2")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @DisplayName("a call that answers while the caller waits, within the budget: its result")
    void resultWithinTheBudget() throws Exception {
        Thread caller = Thread.currentThread();
        Callable<String> answersOnceTheCallerWaits = () -> {
            long deadline = System.nanoTime() + GUARD.toNanos();
            while (System.nanoTime() < deadline
                    && !List.of(Thread.State.WAITING, Thread.State.TIMED_WAITING, Thread.State.BLOCKED)
                            .contains(caller.getState())) {
                Thread.sleep(1);
            }
            return "row 7";
        };
        Object got;
        try {
            got = Deadline.call(answersOnceTheCallerWaits, AMPLE);
        } catch (TimeoutException e) {
            throw new AssertionError("TimeoutException for a call that answered while its caller waited, with a"
                    + " budget of 1 minute: is the budget read in the right unit (Duration.toNanos, not getNano)?", e);
        }
        assertEquals("row 7", got, "call(answers once the caller waits, 1 min)");
    }

    @Test
    @Order(4)
    @Tag("points:1")
    @DisplayName("a call that returns null within the budget: null")
    void nullResultIsAResult() throws Exception {
        assertNull(Deadline.call(() -> null, AMPLE), "call(() -> null, 1 min)");
    }

    @Test
    @Order(5)
    @Tag("points:2")
    @DisplayName("a failed call: ExecutionException with the call's own exception as cause, checked or not")
    void failureKeepsItsCause() {
        var refused = new IOException("downstream refused");
        var e = assertThrows(ExecutionException.class, () -> Deadline.call(() -> { throw refused; }, AMPLE),
                "a call that throws IOException");
        assertSame(refused, e.getCause(), "the cause must be the call's own exception, not " + e.getCause());
        var broken = new IllegalStateException("downstream broken");
        var f = assertThrows(ExecutionException.class, () -> Deadline.call(() -> { throw broken; }, AMPLE),
                "a call that throws IllegalStateException");
        assertSame(broken, f.getCause(), "the cause must be the call's own exception, not " + f.getCause());
    }

    @Test
    @Order(6)
    @Tag("points:3")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @DisplayName("the budget runs out: the call is interrupted, has ended, and TimeoutException is thrown")
    void budgetRunsOutTheCallIsCancelled() throws Exception {
        var caller = new Caller(new Blocking(false), SHORT);
        try {
            caller.awaitReturn("the budget of 20 ms ran out, but call had not returned " + GUARD.toSeconds()
                    + " s later (does it wait for the result with no limit, or read the budget in the wrong unit?)");
            assertTrue(caller.thrown instanceof TimeoutException,
                    "expected TimeoutException, got " + (caller.thrown == null ? "the result " + caller.result : caller.thrown));
            assertTrue(caller.downstream.wasInterrupted(),
                    "the call was never interrupted: a timed-out call must be cancelled");
            assertTrue(caller.downstreamEndedOnReturn, "call returned while the cancelled call was still running");
        } finally {
            caller.cleanUp();
        }
    }

    @Test
    @Order(7)
    @Tag("points:3")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @DisplayName("a call that ignores the interrupt is waited for before TimeoutException")
    void slowToStopIsWaitedFor() throws Exception {
        var caller = new Caller(new Blocking(true), SHORT);
        try {
            caller.awaitDownstreamInterruptedOrReturned();
            if (!caller.downstream.wasInterrupted() && !caller.returned()) {
                fail("the budget of 20 ms ran out, but " + GUARD.toSeconds() + " s later call had neither interrupted"
                        + " the call nor returned (does it wait for the result with no limit, or read the budget in"
                        + " the wrong unit?)");
            }
            caller.letTheDownstreamEnd();
            caller.awaitReturn("call had not returned " + GUARD.toSeconds() + " s after its budget ran out");
            assertTrue(caller.thrown instanceof TimeoutException,
                    "expected TimeoutException, got " + (caller.thrown == null ? "the result " + caller.result : caller.thrown));
            assertTrue(caller.downstream.wasInterrupted(), "the call was never interrupted");
            assertTrue(caller.downstreamEndedOnReturn,
                    "call returned while the cancelled call, which ignores its interrupt for a while, was still running");
            assertTrue(!caller.interruptedOnReturn, "the caller's thread must not be left interrupted");
        } finally {
            caller.cleanUp();
        }
    }

    @Test
    @Order(8)
    @Tag("points:2")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @DisplayName("a budget of zero or less: the call still starts, is interrupted and has ended, then TimeoutException")
    void aBudgetOfZeroOrLessStillStartsTheCall() throws Exception {
        for (Duration budget : List.of(Duration.ZERO, Duration.ofNanos(-1), Duration.ofSeconds(-5))) {
            var caller = new Caller(new Blocking(false), budget);
            try {
                caller.awaitReturn("call(blocking, " + budget + ") had not returned after " + GUARD.toSeconds() + " s");
                assertTrue(caller.downstream.started.getCount() == 0,
                        "the call never started with a budget of " + budget + ": it must always start");
                assertTrue(caller.thrown instanceof TimeoutException, "a budget of " + budget
                        + ": expected TimeoutException, got " + (caller.thrown == null ? "the result " + caller.result : caller.thrown));
                assertTrue(caller.downstream.wasInterrupted() && caller.downstreamEndedOnReturn,
                        "a budget of " + budget + ": the call must be interrupted and have ended when call returns");
            } finally {
                caller.cleanUp();
            }
        }
    }

    @Test
    @Order(9)
    @Tag("points:2")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @DisplayName("the caller is interrupted while it waits: the call is interrupted, has ended, then InterruptedException")
    void callerInterruptedCancelsTheCall() throws Exception {
        var caller = new Caller(new Blocking(false), AMPLE);
        try {
            caller.awaitStarted();
            caller.awaitWaiting();
            caller.thread.interrupt();
            caller.awaitReturn("call had not returned " + GUARD.toSeconds() + " s after its caller was interrupted");
            assertTrue(caller.thrown instanceof InterruptedException,
                    "expected InterruptedException, got " + (caller.thrown == null ? "the result " + caller.result : caller.thrown));
            assertTrue(caller.downstream.wasInterrupted(), "call threw InterruptedException but never interrupted the"
                    + " call: it is left running, holding a connection for an answer nobody waits for");
            assertTrue(caller.downstreamEndedOnReturn,
                    "call threw InterruptedException while the cancelled call was still running");
        } finally {
            caller.cleanUp();
        }
    }

    @Test
    @Order(10)
    @Tag("points:2")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @DisplayName("the caller is interrupted while it waits: a call that ignores the interrupt is waited for")
    void callerInterruptedWaitsForAStubbornCall() throws Exception {
        var caller = new Caller(new Blocking(true), AMPLE);
        try {
            caller.awaitStarted();
            caller.awaitWaiting();
            caller.thread.interrupt();
            caller.awaitDownstreamInterruptedOrReturned();
            if (!caller.downstream.wasInterrupted() && !caller.returned()) {
                fail("the caller was interrupted, but " + GUARD.toSeconds() + " s later call had neither interrupted"
                        + " the call nor returned");
            }
            caller.letTheDownstreamEnd();
            caller.awaitReturn("call had not returned " + GUARD.toSeconds() + " s after its caller was interrupted");
            assertTrue(caller.thrown instanceof InterruptedException,
                    "expected InterruptedException, got " + (caller.thrown == null ? "the result " + caller.result : caller.thrown));
            assertTrue(caller.downstream.wasInterrupted(), "call threw InterruptedException but never interrupted the call");
            assertTrue(caller.downstreamEndedOnReturn, "call threw InterruptedException while the cancelled call,"
                    + " which ignores its interrupt for a while, was still running");
        } finally {
            caller.cleanUp();
        }
    }

    @Test
    @Order(11)
    @Tag("points:2")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @DisplayName("an interrupt while call waits for a cancelled call to end: it still waits, and the interrupt is kept")
    void anInterruptDuringTheWaitForTheEndIsKept() throws Exception {
        var caller = new Caller(new Blocking(true), SHORT);
        try {
            caller.awaitDownstreamInterruptedOrReturned();
            if (!caller.downstream.wasInterrupted() && !caller.returned()) {
                fail("the budget of 20 ms ran out, but " + GUARD.toSeconds() + " s later call had neither interrupted"
                        + " the call nor returned (does it wait for the result with no limit, or read the budget in"
                        + " the wrong unit?)");
            }
            assertTrue(caller.downstream.wasInterrupted(), "the budget ran out, but call returned without interrupting"
                    + " the call");
            caller.awaitWaiting();                   // for the cancelled call to end
            if (caller.returned()) {
                fail("call returned while the cancelled call, which ignores its interrupt for a while, was still"
                        + " running (it must wait until the call has ended)");
            }
            caller.thread.interrupt();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (caller.thread.isInterrupted() && !caller.returned() && System.nanoTime() < deadline) {
                Thread.sleep(1);                     // until its wait has seen the interrupt
            }
            caller.letTheDownstreamEnd();
            caller.awaitReturn("call had not returned " + GUARD.toSeconds() + " s after the cancelled call ended");
            assertTrue(caller.downstreamEndedOnReturn, "interrupted while it waited for the cancelled call to end,"
                    + " call stopped waiting and returned while that call was still running");
            assertTrue(caller.thrown instanceof InterruptedException
                            || (caller.thrown instanceof TimeoutException && caller.interruptedOnReturn),
                    "the interrupt was lost: call threw " + caller.thrown + " and the caller's thread was "
                            + (caller.interruptedOnReturn ? "" : "not ") + "left interrupted (restore the interrupt"
                            + " status, or throw InterruptedException)");
        } finally {
            caller.cleanUp();
        }
    }
}
