package course.exercises.deadline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import course.base.Failure;
import course.base.TestOrder;
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
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.constraints.IntRange;

/**
 * The course's tests for exercise 08. Each test's {@code points:N} tag is what it is worth.
 *
 * <p>No verdict depends on the clock. The downstream calls wait on latches that only an interrupt or the test
 * ends; the tests watch thread states and what the call saw. The few time limits are guards that only a wrong
 * implementation reaches (a correct one is done in milliseconds), so that it fails fast instead of hanging.
 *
 * <p>The properties (jqwik, fixed seeds) try budgets to the nanosecond: under and above a second, whole seconds,
 * days and years up to {@code Long.MAX_VALUE} nanoseconds, zero and negative ones; every kind of failure
 * ({@link Failure}: checked, unchecked, {@link Error}s, with and without a cause); and interrupts at each stage of
 * the call, one or several.
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

    /** {@code Long.MAX_VALUE} nanoseconds, about 292 years: the longest budget the tests use, either way. */
    private static final long MOST = Long.MAX_VALUE;

    /**
     * Budgets a call that answers at once always meets: from half a second to 292 years, to the nanosecond (whole
     * seconds, a second and a fraction, days past {@code Integer.MAX_VALUE} milliseconds, the longest of all).
     */
    @Provide
    Arbitrary<Duration> ampleBudgets() {
        return Arbitraries.oneOf(
                        Arbitraries.longs().between(500_000_000L, 999_999_999L),
                        Arbitraries.longs().between(1, 100_000).map(s -> s * 1_000_000_000L),
                        Arbitraries.longs().between(1_000_000_000L, 100_000_000_000_000L),
                        Arbitraries.longs().between(Integer.MAX_VALUE * 1_000_000L, MOST)
                                .withDistribution(RandomDistribution.uniform()))
                .map(Duration::ofNanos);
    }

    /**
     * Budgets that run out while the call waits: up to 20 ms, to the nanosecond (under a millisecond too), zero, and
     * negative ones down to -292 years.
     */
    @Provide
    Arbitrary<Duration> shortBudgets() {
        return Arbitraries.oneOf(
                        Arbitraries.longs().between(1, 999_999),
                        Arbitraries.longs().between(1_000_000, 20_000_000),
                        Arbitraries.of(0L, -1L, -999_999_999L, Long.MIN_VALUE),
                        Arbitraries.longs().between(Long.MIN_VALUE, -1))
                .map(Duration::ofNanos);
    }

    /** What the property's caller saw, on a thread of its own: the result or what was thrown. */
    record Outcome(Object result, Throwable thrown, boolean interruptedOnReturn) {
        @Override
        public String toString() {
            return thrown == null ? "returned " + result : "threw " + thrown;
        }
    }

    /** Calls {@code Deadline.call(downstream, budget)} on a virtual thread; fails with {@code why} after GUARD. */
    static Outcome callWithin(Callable<?> downstream, Duration budget, String why) throws InterruptedException {
        return callWithin(caller -> downstream, budget, why);
    }

    /** As above, with a downstream call made for the caller's thread. */
    static Outcome callWithin(java.util.function.Function<Thread, Callable<?>> downstreamFor, Duration budget,
            String why) throws InterruptedException {
        var outcome = new java.util.concurrent.atomic.AtomicReference<Outcome>();
        var downstreamRef = new java.util.concurrent.atomic.AtomicReference<Callable<?>>();
        Thread caller = Thread.ofVirtual().name("caller").unstarted(() -> {
            Callable<?> downstream = downstreamRef.get();
            Object result = null;
            Throwable thrown = null;
            try {
                result = Deadline.call(downstream, budget);
            } catch (Throwable t) {
                thrown = t;
            }
            outcome.set(new Outcome(result, thrown, Thread.currentThread().isInterrupted()));
        });
        downstreamRef.set(downstreamFor.apply(caller));
        caller.start();
        if (!caller.join(GUARD)) {
            caller.interrupt();
            fail(why);
        }
        if (outcome.get().thrown() instanceof UnsupportedOperationException notWritten) throw notWritten;
        return outcome.get();
    }

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
            this(downstream, budget, false);
        }

        /** With {@code interruptedFirst}, the caller's thread is already interrupted when it calls. */
        Caller(Blocking downstream, Duration budget, boolean interruptedFirst) {
            this.downstream = downstream;
            this.thread = Thread.ofVirtual().name("caller").start(() -> {
                if (interruptedFirst) Thread.currentThread().interrupt();
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

        /**
         * Waits until the caller's wait has seen its interrupt (the status is cleared) and it waits again, parked,
         * or has returned; at most 500 ms (a wait that keeps the status set is then left to it).
         */
        void awaitInterruptSeen() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            while (System.nanoTime() < deadline && !returned()
                    && (thread.isInterrupted()
                            || !List.of(Thread.State.WAITING, Thread.State.BLOCKED).contains(thread.getState()))) {
                Thread.sleep(1);
            }
        }

        /**
         * Waits until the downstream call has seen its interrupt, or the caller has returned; at most GUARD, then
         * fails with "{@code when}, but GUARD s later call had neither interrupted the call nor returned{@code
         * hint}".
         */
        void awaitDownstreamInterruptedOrReturned(String when, String hint) throws InterruptedException {
            long deadline = System.nanoTime() + GUARD.toNanos();
            while (System.nanoTime() < deadline
                    && !returned()
                    && !downstream.interrupted.await(1, TimeUnit.MILLISECONDS)) {
                // waiting
            }
            rethrowIfNotWritten();
            if (!downstream.wasInterrupted() && !returned()) {
                fail(when + ", but " + GUARD.toSeconds() + " s later call had neither interrupted the call nor"
                        + " returned" + hint);
            }
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

        /** {@link #awaitReturn}, failing with "call had not returned GUARD s after {@code event}". */
        void awaitReturnAfter(String event) throws InterruptedException {
            awaitReturn("call had not returned " + GUARD.toSeconds() + " s after " + event);
        }

        /** How call came back, for a message: what it threw, or "the result" it returned. */
        Object outcome() {
            return thrown == null ? "the result " + result : thrown;
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

    /** A call that answers once its caller waits for it (so that the answer is never there before the wait). */
    static Callable<Object> answersOnceTheCallerWaits(Thread caller, Object answer) {
        return () -> {
            long deadline = System.nanoTime() + GUARD.toNanos();
            while (System.nanoTime() < deadline
                    && !List.of(Thread.State.WAITING, Thread.State.TIMED_WAITING, Thread.State.BLOCKED)
                            .contains(caller.getState())) {
                Thread.sleep(1);
            }
            return answer;
        };
    }

    @TestOrder(5)
    @Property(seed = "2080005", tries = 20)
    @net.jqwik.api.Tag("points:2")
    @Label("any budget from half a second to 292 years, to the nanosecond: a call that answers in it gives its"
            + " result, null too")
    void resultWithinAnyBudget(@ForAll("ampleBudgets") Duration budget, @ForAll boolean nullAnswer)
            throws Exception {
        Object answer = nullAnswer ? null : "row 7";
        Outcome o = callWithin(caller -> answersOnceTheCallerWaits(caller, answer), budget,
                "call had not returned " + GUARD.toSeconds() + " s after the call answered " + answer
                        + ", within a budget of " + budget);
        assertTrue(o.thrown() == null, "a call that answered " + answer + " at once, within a budget of " + budget
                + ": call " + o + " (is the budget read whole, Duration.toNanos, not getNano, toSeconds, or an int?)");
        assertEquals(answer, o.result(), "call(answers " + answer + ", " + budget + ")");
        assertTrue(!o.interruptedOnReturn(), "the caller's thread was left interrupted, and nobody interrupted it");
    }

    @TestOrder(6)
    @Property(seed = "2080006", tries = 28)
    @net.jqwik.api.Tag("points:2")
    @Label("a failed call, whatever it throws (checked, unchecked, an Error, with or without a cause): at once an"
            + " ExecutionException whose cause is the call's own")
    void failureKeepsItsCause(@ForAll Failure.Kind kind, @ForAll boolean withCause,
            @ForAll("ampleBudgets") Duration budget) throws Exception {
        var failure = new Failure(kind, withCause);
        Throwable own = failure.create("downstream refused");
        Outcome o = callWithin(() -> {
                    if (own instanceof Exception e) throw e;
                    throw (Error) own;
                }, budget, "the call threw " + failure + " at once, but call had not returned " + GUARD.toSeconds()
                        + " s later, with a budget of " + budget + " (does the call's thread catch Exception only? An"
                        + " Error is a failure too: then nobody completes the result, and call waits out the budget)");
        assertTrue(o.thrown() instanceof ExecutionException, "a call that throws " + failure + ", budget " + budget
                + ": expected ExecutionException, but call " + o + (kind.isError() && o.thrown() instanceof TimeoutException
                        ? " (does the call's thread catch Exception only? An Error is a failure too)" : ""));
        assertSame(own, o.thrown().getCause(), "the cause must be the call's own " + failure + ", as it was thrown"
                + " (not wrapped again, not its cause), not " + o.thrown().getCause());
        assertTrue(!o.interruptedOnReturn(), "the caller's thread was left interrupted, and nobody interrupted it");
    }

    @Test
    @Order(7)
    @Tag("points:3")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @DisplayName("the budget runs out: the call is interrupted, has ended, and TimeoutException is thrown")
    void budgetRunsOutTheCallIsCancelled() throws Exception {
        var caller = new Caller(new Blocking(false), SHORT);
        try {
            caller.awaitReturn("the budget of 20 ms ran out, but call had not returned " + GUARD.toSeconds()
                    + " s later (does it wait for the result with no limit, or read the budget in the wrong unit?)");
            assertTrue(caller.thrown instanceof TimeoutException,
                    "expected TimeoutException, got " + caller.outcome());
            assertTrue(caller.downstream.wasInterrupted(),
                    "the call was never interrupted: a timed-out call must be cancelled");
            assertTrue(caller.downstreamEndedOnReturn, "call returned while the cancelled call was still running");
        } finally {
            caller.cleanUp();
        }
    }

    @Test
    @Order(8)
    @Tag("points:3")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @DisplayName("a call that ignores the interrupt is waited for before TimeoutException")
    void slowToStopIsWaitedFor() throws Exception {
        var caller = new Caller(new Blocking(true), SHORT);
        try {
            caller.awaitDownstreamInterruptedOrReturned("the budget of 20 ms ran out", " (does it wait for the result"
                    + " with no limit, or read the budget in the wrong unit?)");
            caller.letTheDownstreamEnd();
            caller.awaitReturnAfter("its budget ran out");
            assertTrue(caller.thrown instanceof TimeoutException,
                    "expected TimeoutException, got " + caller.outcome());
            assertTrue(caller.downstream.wasInterrupted(), "the call was never interrupted");
            assertTrue(caller.downstreamEndedOnReturn,
                    "call returned while the cancelled call, which ignores its interrupt for a while, was still running");
            assertTrue(!caller.interruptedOnReturn, "the caller's thread must not be left interrupted");
        } finally {
            caller.cleanUp();
        }
    }

    @Test
    @Order(9)
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
                        + ": expected TimeoutException, got " + caller.outcome());
                assertTrue(caller.downstream.wasInterrupted() && caller.downstreamEndedOnReturn,
                        "a budget of " + budget + ": the call must be interrupted and have ended when call returns");
            } finally {
                caller.cleanUp();
            }
        }
    }

    @TestOrder(10)
    @Property(seed = "2080010", tries = 16)
    @net.jqwik.api.Tag("points:2")
    @Label("any budget that runs out (under a millisecond, zero, negative to -292 years): the call starts, is"
            + " interrupted and has ended, then TimeoutException")
    void everyBudgetThatRunsOutCancelsTheCall(@ForAll("shortBudgets") Duration budget, @ForAll boolean stubborn)
            throws Exception {
        var caller = new Caller(new Blocking(stubborn), budget);
        try {
            caller.awaitDownstreamInterruptedOrReturned("a budget of " + budget + " ran out", " (is the budget rounded"
                    + " to whole milliseconds, and a wait of 0 ms taken for no limit?)");
            caller.letTheDownstreamEnd();
            caller.awaitReturnAfter("a budget of " + budget
                    + " ran out");
            assertTrue(caller.downstream.started.getCount() == 0,
                    "the call never started with a budget of " + budget + ": it must always start");
            assertTrue(caller.thrown instanceof TimeoutException, "a budget of " + budget + ": expected"
                    + " TimeoutException, got " + caller.outcome());
            assertTrue(caller.downstream.wasInterrupted(), "a budget of " + budget + ": the call was never interrupted");
            assertTrue(caller.downstreamEndedOnReturn, "a budget of " + budget + ": call returned while the cancelled"
                    + " call" + (stubborn ? ", which ignores its interrupt for a while," : "") + " was still running");
            assertTrue(!caller.interruptedOnReturn, "the caller's thread was left interrupted, and nobody interrupted it");
        } finally {
            caller.cleanUp();
        }
    }

    @Test
    @Order(11)
    @Tag("points:2")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @DisplayName("the caller is interrupted while it waits: the call is interrupted, has ended, then InterruptedException")
    void callerInterruptedCancelsTheCall() throws Exception {
        var caller = new Caller(new Blocking(false), AMPLE);
        try {
            caller.awaitStarted();
            caller.awaitWaiting();
            caller.thread.interrupt();
            caller.awaitReturnAfter("its caller was interrupted");
            assertTrue(caller.thrown instanceof InterruptedException,
                    "expected InterruptedException, got " + caller.outcome());
            assertTrue(caller.downstream.wasInterrupted(), "call threw InterruptedException but never interrupted the"
                    + " call: it is left running, holding a connection for an answer nobody waits for");
            assertTrue(caller.downstreamEndedOnReturn,
                    "call threw InterruptedException while the cancelled call was still running");
        } finally {
            caller.cleanUp();
        }
    }

    @Test
    @Order(12)
    @Tag("points:2")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @DisplayName("the caller is interrupted while it waits: a call that ignores the interrupt is waited for")
    void callerInterruptedWaitsForAStubbornCall() throws Exception {
        var caller = new Caller(new Blocking(true), AMPLE);
        try {
            caller.awaitStarted();
            caller.awaitWaiting();
            caller.thread.interrupt();
            caller.awaitDownstreamInterruptedOrReturned("the caller was interrupted", "");
            caller.letTheDownstreamEnd();
            caller.awaitReturnAfter("its caller was interrupted");
            assertTrue(caller.thrown instanceof InterruptedException,
                    "expected InterruptedException, got " + caller.outcome());
            assertTrue(caller.downstream.wasInterrupted(), "call threw InterruptedException but never interrupted the call");
            assertTrue(caller.downstreamEndedOnReturn, "call threw InterruptedException while the cancelled call,"
                    + " which ignores its interrupt for a while, was still running");
        } finally {
            caller.cleanUp();
        }
    }

    /** When the caller's thread is interrupted. */
    enum Stage {
        ON_ENTRY("already interrupted when it calls"),
        WHILE_IT_WAITS("interrupted while it waits for the result");

        private final String shown;

        Stage(String shown) {
            this.shown = shown;
        }

        @Override
        public String toString() {
            return shown;
        }
    }

    @TestOrder(13)
    @Property(seed = "2080013", tries = 16)
    @net.jqwik.api.Tag("points:2")
    @Label("the caller interrupted before or while it waits, once or again while the call stops, under any budget:"
            + " the call is interrupted, has ended, then InterruptedException")
    void anInterruptAtAnyStageCancelsTheCall(@ForAll Stage stage, @ForAll boolean stubborn,
            @ForAll @IntRange(min = 1, max = 3) int interrupts, @ForAll("ampleBudgets") Duration budget)
            throws Exception {
        var caller = new Caller(new Blocking(stubborn), budget, stage == Stage.ON_ENTRY);
        String what = "the caller " + stage + " (budget " + budget + ")";
        try {
            if (stage == Stage.WHILE_IT_WAITS) {
                caller.awaitStarted();
                caller.awaitWaiting();
                caller.thread.interrupt();
            }
            caller.awaitDownstreamInterruptedOrReturned(what, " (an interrupt already set when call starts to wait"
                    + " counts too: keep it)");
            for (int i = 1; i < interrupts && stubborn && !caller.returned(); i++) {
                caller.awaitInterruptSeen();
                caller.thread.interrupt(); // again, while call waits for the cancelled call to end
            }
            caller.letTheDownstreamEnd();
            caller.awaitReturnAfter(what);
            assertTrue(caller.thrown instanceof InterruptedException, what + ": expected InterruptedException, got "
                    + caller.outcome());
            if (caller.downstream.started.getCount() == 0) {
                assertTrue(caller.downstream.wasInterrupted(), what + ": call threw InterruptedException but never"
                        + " interrupted the call it started: it is left running");
                assertTrue(caller.downstreamEndedOnReturn, what + (interrupts > 1 && stubborn ? ", then " + (interrupts
                        - 1) + " more time(s) while the call stopped" : "") + ": call returned while the cancelled"
                        + " call was still running");
            }
        } finally {
            caller.cleanUp();
        }
    }

    @TestOrder(14)
    @Property(seed = "2080014", tries = 8)
    @net.jqwik.api.Tag("points:2")
    @Label("interrupts (one or several) while call waits for a cancelled call to end: it still waits, and the"
            + " interrupt is kept")
    void anInterruptDuringTheWaitForTheEndIsKept(@ForAll("shortBudgets") Duration budget,
            @ForAll @IntRange(min = 1, max = 3) int interrupts) throws Exception {
        var caller = new Caller(new Blocking(true), budget);
        try {
            caller.awaitDownstreamInterruptedOrReturned("a budget of " + budget + " ran out", "");
            assertTrue(caller.downstream.wasInterrupted(), "the budget ran out, but call returned without interrupting"
                    + " the call");
            for (int i = 0; i < interrupts; i++) {
                caller.awaitWaiting();               // for the cancelled call to end
                if (caller.returned()) {
                    fail("call returned while the cancelled call, which ignores its interrupt for a while, was still"
                            + " running (it must wait until the call has ended" + (i > 0 ? ", however many"
                            + " interrupts arrive meanwhile: this was after " + i : "") + ")");
                }
                caller.thread.interrupt();
                caller.awaitInterruptSeen();
            }
            caller.letTheDownstreamEnd();
            caller.awaitReturnAfter("the cancelled call ended");
            assertTrue(caller.downstreamEndedOnReturn, "interrupted " + interrupts + " time(s) while it waited for"
                    + " the cancelled call to end, call stopped waiting and returned while that call was still running");
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
