package course.exercises.deadline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/** The course's tests for exercise 08. Each test's {@code points:N} tag is what it is worth. */
@DisplayName("Deadline.call")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DeadlineTest {
    /** A budget no test comes near: the call is always done long before it runs out. */
    private static final Duration AMPLE = Duration.ofMinutes(1);

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
    @DisplayName("a call that returns within the budget: its result")
    void resultWithinTheBudget() throws Exception {
        assertEquals("row 7", Deadline.call(() -> "row 7", AMPLE), "call(() -> \"row 7\", 1 min)");
    }

    @Test
    @Order(3)
    @Tag("points:2")
    @DisplayName("the call runs on a new virtual thread")
    void onANewVirtualThread() throws Exception {
        Thread thread = Deadline.call(Thread::currentThread, AMPLE);
        assertTrue(thread.isVirtual(), "the call ran on " + thread + ", not a virtual thread");
        assertNotSame(Thread.currentThread(), thread, "the call ran on the caller's own thread");
    }

    @Test
    @Order(4)
    @Tag("points:2")
    @DisplayName("a failed call: ExecutionException with the call's own exception as cause")
    void failureKeepsItsCause() {
        var boom = new IOException("downstream refused");
        var e = assertThrows(ExecutionException.class, () -> Deadline.call(() -> { throw boom; }, AMPLE),
                "a call that throws IOException");
        assertSame(boom, e.getCause(), "the cause must be the call's own exception, not " + e.getCause());
    }

    @Test
    @Order(5)
    @Tag("points:3")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @DisplayName("the budget runs out: the call is interrupted, has ended, and TimeoutException is thrown")
    void budgetRunsOutTheCallIsCancelled() throws Exception {
        var started = new CountDownLatch(1);
        var sawInterrupt = new AtomicBoolean();
        var ended = new AtomicBoolean();
        Callable<String> waitsForever = () -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();   // nothing counts it down: only a cancel ends this wait
                return "never";
            } catch (InterruptedException e) {
                sawInterrupt.set(true);
                throw e;
            } finally {
                ended.set(true);
            }
        };
        assertThrows(TimeoutException.class, () -> Deadline.call(waitsForever, Duration.ZERO), "a budget of zero");
        boolean endedOnReturn = ended.get();
        assertEquals(0, started.getCount(), "the call must start, even with a budget of zero");
        assertTrue(sawInterrupt.get(), "the call was never interrupted: a timed-out call must be cancelled");
        assertTrue(endedOnReturn, "call returned while the cancelled call was still running");
    }

    @Test
    @Order(6)
    @Tag("points:3")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @DisplayName("a call that ignores the interrupt is waited for before TimeoutException")
    void slowToStopIsWaitedFor() throws Exception {
        var interrupted = new CountDownLatch(1);   // the call has seen its interrupt
        var mayEnd = new CountDownLatch(1);        // the call may end now
        var callReturned = new CountDownLatch(1);  // Deadline.call has returned or thrown
        var ended = new AtomicBoolean();
        Callable<String> stubborn = () -> {
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            while (true) {                          // ignores further interrupts until it may end
                try {
                    mayEnd.await();
                    break;
                } catch (InterruptedException again) {
                    // keeps going, as code that swallows interrupts does
                }
            }
            ended.set(true);
            return "late";
        };
        // Lets the call end once Deadline.call has returned; if Deadline.call waits (as it must), after 1 s.
        Thread releaser = Thread.ofVirtual().start(() -> {
            try {
                interrupted.await();
                callReturned.await(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                mayEnd.countDown();
            }
        });
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        boolean endedOnReturn;
        try {
            Deadline.call(stubborn, Duration.ZERO);
        } catch (Throwable e) {
            thrown.set(e);
        } finally {
            endedOnReturn = ended.get();
            callReturned.countDown();
            mayEnd.countDown();
            releaser.interrupt();
        }
        assertTrue(thrown.get() instanceof TimeoutException, "expected TimeoutException, got " + thrown.get());
        assertTrue(endedOnReturn, "Deadline.call returned while the cancelled call was still running");
        assertFalse(Thread.currentThread().isInterrupted(), "the caller's thread must not be left interrupted");
    }
}
