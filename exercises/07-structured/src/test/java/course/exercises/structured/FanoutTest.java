package course.exercises.structured;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The course's tests for exercise 07. Each test's {@code points:N} tag is what it is worth. The calls
 * synchronise with latches and record what happened to them (started, interrupted, ended). A correct
 * {@code serve} passes however slow the machine is; {@link #GUARD} only bounds how long a test waits for
 * something that a correct {@code serve} does at once, so that a wrong one fails fast instead of hanging.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Fanout.serve")
class FanoutTest {
    private static final Duration GENEROUS = Duration.ofSeconds(30);
    /** How long a test waits for what a correct serve does at once (a call to start, serve to return). */
    private static final Duration GUARD = Duration.ofSeconds(2);
    /** How long a cancelled call takes to end once it is interrupted, so that a serve that does not wait shows. */
    private static final Duration LINGER = Duration.ofMillis(200);

    /** What the calls of one test did. */
    private static final class Events {
        final CountDownLatch started;
        final CountDownLatch interrupted;
        final CountDownLatch ended;

        Events(int calls) {
            started = new CountDownLatch(calls);
            interrupted = new CountDownLatch(calls);
            ended = new CountDownLatch(calls);
        }

        /**
         * A call that starts, then sleeps 10 s unless it is interrupted (cancelled); once interrupted, it takes
         * {@link #LINGER} to end, as a call that cleans up does.
         */
        Callable<String> sleeper(String name) {
            return () -> {
                started.countDown();
                try {
                    Thread.sleep(10_000);
                    return name;
                } catch (InterruptedException e) {
                    interrupted.countDown();
                    linger();
                    throw e;
                } finally {
                    ended.countDown();
                }
            };
        }
    }

    /** Sleeps {@link #LINGER}, whatever interrupts come. */
    private static void linger() {
        long until = System.nanoTime() + LINGER.toNanos();
        for (long left = LINGER.toNanos(); left > 0; left = until - System.nanoTime()) {
            try {
                Thread.sleep(Duration.ofNanos(left));
            } catch (InterruptedException again) {
                // a cancelled call finishes its cleanup
            }
        }
    }

    /**
     * What serve threw, run on a thread of its own; fails if it returned, or if it had neither returned nor
     * thrown {@code guard} after it was called (then its thread is interrupted, to end it).
     */
    private static Throwable thrownBy(Callable<?> serve, Duration guard, String what) throws InterruptedException {
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread caller = Thread.ofPlatform().daemon().start(() -> {
            try {
                outcome.set(serve.call());
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
        if (!caller.join(guard)) {
            caller.interrupt();
            fail(what + ": serve had neither returned nor thrown " + guard.toMillis() + " ms after it was called");
        }
        if (outcome.get() instanceof UnsupportedOperationException notWritten) {
            throw notWritten; // serve is not written yet: say so, rather than what it failed to throw
        }
        if (outcome.get() instanceof Throwable t) {
            return t;
        }
        return fail(what + ": serve returned " + outcome.get() + " instead of throwing");
    }

    @Order(1)
    @Test
    @Tag("points:1")
    @DisplayName("no calls: an empty list; a null argument: NullPointerException, even with no calls")
    void emptyAndNull() throws Exception {
        List<String> none = Fanout.serve("r", List.<Callable<String>>of(), GENEROUS);
        assertNotNull(none, "serve must return a list, not null");
        assertEquals(List.of(), none, "results of no calls");
        List<Callable<String>> one = List.of(() -> "x");
        List<Callable<String>> empty = List.of();
        List<Callable<String>> withNull = Arrays.asList(() -> "x", null);
        assertThrows(NullPointerException.class, () -> Fanout.serve(null, one, GENEROUS), "a null requestId");
        assertThrows(NullPointerException.class, () -> Fanout.serve("r", null, GENEROUS), "a null list of calls");
        assertThrows(NullPointerException.class, () -> Fanout.serve("r", one, null), "a null deadline");
        assertThrows(NullPointerException.class, () -> Fanout.serve("r", withNull, GENEROUS),
                "a null call in the list");
        assertThrows(NullPointerException.class, () -> Fanout.serve(null, empty, GENEROUS),
                "a null requestId, with no calls");
        assertThrows(NullPointerException.class, () -> Fanout.serve("r", empty, null),
                "a null deadline, with no calls");
    }

    @Order(2)
    @Test
    @Tag("points:2")
    @DisplayName("every call runs at the same time")
    void callsRunAtTheSameTime() throws Exception {
        int n = 4;
        CountDownLatch allStarted = new CountDownLatch(n);
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            calls.add(() -> {
                allStarted.countDown();
                if (!allStarted.await(GUARD.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new AssertionError("call " + k + " waited " + GUARD.toMillis()
                            + " ms for the others, but only " + (n - allStarted.getCount()) + " of the " + n
                            + " calls had started");
                }
                return k;
            });
        }
        try {
            assertEquals(List.of(0, 1, 2, 3), Fanout.serve("r", calls, GENEROUS), "results of calls 0..3");
        } catch (ExecutionException e) {
            fail("the calls must all run at the same time: " + e.getCause().getMessage(), e);
        }
    }

    @Order(3)
    @Test
    @Tag("points:1")
    @DisplayName("results come back in the order of calls, even when the calls complete in reverse")
    void resultsInTheOrderOfCalls() throws Exception {
        int n = 4;
        List<CountDownLatch> done = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            done.add(new CountDownLatch(1));
        }
        // Call k completes only after call k+1 has: they complete 3, 2, 1, 0.
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            calls.add(() -> {
                if (k + 1 < n && !done.get(k + 1).await(GUARD.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new AssertionError("call " + k + " waited " + GUARD.toMillis() + " ms for call " + (k + 1)
                            + " to complete: the calls do not run at the same time");
                }
                done.get(k).countDown();
                return k;
            });
        }
        assertEquals(List.of(0, 1, 2, 3), Fanout.serve("r", calls, GENEROUS),
                "results of calls 0..3 (they complete 3, 2, 1, 0): result i is what call i returned");
    }

    @Order(4)
    @Test
    @Tag("points:2")
    @DisplayName("every call reads REQUEST_ID; it is unbound again after serve")
    void requestIdVisibleInEveryCall() throws Exception {
        List<Callable<String>> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            calls.add(() -> Fanout.REQUEST_ID.isBound() ? Fanout.REQUEST_ID.get() : "unbound");
        }
        assertEquals(List.of("req-7", "req-7", "req-7", "req-7", "req-7"), Fanout.serve("req-7", calls, GENEROUS),
                "REQUEST_ID as each call read it");
        assertEquals(List.of("req-8", "req-8"), Fanout.serve("req-8", calls.subList(0, 2), GENEROUS),
                "REQUEST_ID in the next request");
        assertFalse(Fanout.REQUEST_ID.isBound(), "REQUEST_ID must not stay bound in the caller after serve");
    }

    @Order(5)
    @Test
    @Tag("points:1")
    @DisplayName("a caller that has its own REQUEST_ID: the calls read serve's, the caller keeps its own")
    void requestIdRebindsInsideABinding() throws Exception {
        List<Callable<String>> calls = List.of(() -> Fanout.REQUEST_ID.get(), () -> Fanout.REQUEST_ID.get());
        AtomicReference<List<String>> read = new AtomicReference<>();
        String after = ScopedValue.where(Fanout.REQUEST_ID, "outer").call(() -> {
            read.set(Fanout.serve("inner", calls, GENEROUS));
            return Fanout.REQUEST_ID.get();
        });
        assertEquals(List.of("inner", "inner"), read.get(),
                "REQUEST_ID as each call read it, serve(\"inner\", …) called where REQUEST_ID was \"outer\"");
        assertEquals("outer", after, "REQUEST_ID in the caller after serve (it was \"outer\" before)");
    }

    @Order(6)
    @Test
    @Tag("points:2")
    @DisplayName("each call is a subtask of a StructuredTaskScope, on its own virtual thread")
    void subtasksOfAScope() throws Exception {
        int n = 3;
        CountDownLatch allStarted = new CountDownLatch(n);
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        AtomicReference<String> dump = new AtomicReference<>();
        CountDownLatch dumped = new CountDownLatch(1);
        List<Callable<Boolean>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            calls.add(() -> {
                threads.add(Thread.currentThread());
                allStarted.countDown();
                allStarted.await(GUARD.toMillis(), TimeUnit.MILLISECONDS);
                if (k == 0) {
                    try {
                        dump.set(threadDump()); // while every call is running
                    } finally {
                        dumped.countDown();
                    }
                } else {
                    dumped.await(GUARD.toMillis(), TimeUnit.MILLISECONDS);
                }
                return Thread.currentThread().isVirtual();
            });
        }
        assertEquals(List.of(true, true, true), Fanout.serve("r", calls, GENEROUS), "each call on a virtual thread");
        assertEquals(n, threads.size(), "one thread per call");
        for (Thread t : threads) {
            String container = containerOf(dump.get(), t.threadId());
            assertTrue(container.contains("StructuredTaskScope"),
                    "the thread dump puts the call's thread in " + container + ", not in a StructuredTaskScope");
        }
    }

    @Order(7)
    @Test
    @Tag("points:3")
    @DisplayName("a failure cancels the siblings; its own exception is the cause; nothing runs after")
    void failureCancelsSiblings() throws Exception {
        Events e = new Events(2);
        IllegalStateException boom = new IllegalStateException("call 2 failed");
        CountDownLatch failed = new CountDownLatch(1);
        List<Callable<String>> calls = List.of(
                () -> {                               // fails only after it is interrupted, with another exception
                    try {
                        failed.await();
                        Thread.sleep(10_000);
                        return "never";
                    } catch (InterruptedException ie) {
                        throw new IllegalArgumentException("cancelled call 0");
                    }
                },
                e.sleeper("call 1"),
                () -> {
                    e.started.await();                // both siblings are running
                    failed.countDown();
                    throw boom;
                },
                e.sleeper("call 3"));
        Throwable thrown = thrownBy(() -> Fanout.serve("r", calls, GENEROUS), GUARD,
                "call 2 failed while calls 1 and 3 slept 10 s (they must be interrupted)");
        assertInstanceOf(ExecutionException.class, thrown, "a failed call must end serve with an ExecutionException");
        assertSame(boom, thrown.getCause(), "the cause must be the first failed call's own exception, not "
                + thrown.getCause());
        assertEquals(0, e.interrupted.getCount(), "the 10 s siblings must be interrupted, not awaited");
        assertEquals(0, e.ended.getCount(),
                "calls still running when serve threw (interrupted, they take " + LINGER.toMillis() + " ms to end)");
    }

    @Order(8)
    @Test
    @Tag("points:1")
    @DisplayName("the cause is the failure that came first in time, not the first in the list")
    void firstFailureInTime() throws Exception {
        IllegalStateException first = new IllegalStateException("call 2 failed first");
        IllegalArgumentException later = new IllegalArgumentException("call 0 failed after call 2 had ended");
        AtomicReference<Thread> firstThread = new AtomicReference<>();
        CountDownLatch firstRunning = new CountDownLatch(1);
        List<Callable<String>> calls = List.of(
                () -> {                               // fails once call 2 has failed and its thread has ended
                    try {
                        if (firstRunning.await(GUARD.toMillis(), TimeUnit.MILLISECONDS)) {
                            firstThread.get().join(GUARD);
                        }
                    } catch (InterruptedException cancelled) {
                        // cancelled because call 2 failed: fail now all the same
                    }
                    throw later;
                },
                () -> "ok",
                () -> {
                    firstThread.set(Thread.currentThread());
                    firstRunning.countDown();
                    throw first;
                });
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> Fanout.serve("r", calls, GENEROUS),
                "a failed call must end serve with an ExecutionException");
        assertSame(first, thrown.getCause(), "call 2 failed first (call 0 failed after call 2's thread had ended): "
                + "the cause must be call 2's exception, not " + thrown.getCause());
    }

    @Order(9)
    @Test
    @Tag("points:1")
    @DisplayName("a checked exception of a call is the cause as it was thrown")
    void checkedCause() throws Exception {
        IOException io = new IOException("disk");
        List<Callable<String>> calls = List.of(() -> "ok", () -> {
            throw io;
        });
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> Fanout.serve("r", calls, GENEROUS));
        assertSame(io, thrown.getCause(), "the cause must be the call's own IOException, not " + thrown.getCause());
    }

    @Order(10)
    @Test
    @Tag("points:2")
    @DisplayName("the deadline passes: TimeoutException, the calls cancelled")
    void deadline() throws Exception {
        Events e = new Events(3);
        List<Callable<String>> calls = List.of(e.sleeper("a"), e.sleeper("b"), e.sleeper("c"));
        Duration deadline = Duration.ofMillis(200);
        Throwable thrown = thrownBy(() -> Fanout.serve("r", calls, deadline), deadline.plus(GUARD),
                "calls of 10 s under a deadline of " + deadline.toMillis() + " ms");
        assertInstanceOf(TimeoutException.class, thrown,
                "a passed deadline must throw java.util.concurrent.TimeoutException, not " + thrown);
        // A call the deadline caught before it started never runs; every call that started must have ended.
        assertEquals(e.started.getCount(), e.interrupted.getCount(), "calls not interrupted at the deadline");
        assertEquals(e.started.getCount(), e.ended.getCount(),
                "calls still running when serve threw (interrupted, they take " + LINGER.toMillis() + " ms to end)");
    }

    @Order(11)
    @Test
    @Tag("points:1")
    @DisplayName("the deadline is for all the calls together, not for each")
    void deadlineIsForAllTheCalls() throws Exception {
        // Call k starts its work once call k-1 has completed, then sleeps a fifth of the deadline: each call
        // completes well within a deadline of the one before, but all of them take three deadlines.
        Duration deadline = Duration.ofMillis(500);
        int n = 15;
        Duration each = deadline.dividedBy(5);
        List<CountDownLatch> done = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            done.add(new CountDownLatch(1));
        }
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            calls.add(() -> {
                if (k > 0) {
                    done.get(k - 1).await();
                }
                Thread.sleep(each);
                done.get(k).countDown();
                return k;
            });
        }
        Duration all = each.multipliedBy(n);
        Throwable thrown = thrownBy(() -> Fanout.serve("r", calls, deadline), all.plus(GUARD),
                n + " calls, one after the other, of " + each.toMillis() + " ms each, under a deadline of "
                        + deadline.toMillis() + " ms for all");
        assertInstanceOf(TimeoutException.class, thrown,
                "calls that take " + all.toMillis() + " ms in all under a deadline of " + deadline.toMillis()
                        + " ms must throw java.util.concurrent.TimeoutException, not " + thrown);
    }

    @Order(12)
    @Test
    @Tag("points:2")
    @DisplayName("the caller is interrupted: InterruptedException, the calls cancelled")
    void callerInterrupted() throws Exception {
        Events e = new Events(2);
        List<Callable<String>> calls = List.of(e.sleeper("a"), e.sleeper("b"));
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                Fanout.serve("r", calls, GENEROUS);
                outcome.set(new AssertionError("serve returned"));
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
        long guard = System.nanoTime() + GUARD.toNanos();
        while (!e.started.await(10, TimeUnit.MILLISECONDS)) { // the calls run, or serve ended before they did
            if (System.nanoTime() - guard > 0) {
                caller.interrupt();
                fail("only " + (2 - e.started.getCount()) + " of the 2 calls had started " + GUARD.toMillis()
                        + " ms after serve was called: the calls must run at the same time");
            }
            if (!caller.isAlive()) {
                Throwable early = outcome.get();
                if (early instanceof Exception ex) {
                    throw ex;
                }
                throw (Error) early;
            }
        }
        caller.interrupt();
        assertTrue(caller.join(GUARD),
                "serve kept waiting " + GUARD.toMillis() + " ms after its thread was interrupted");
        assertInstanceOf(InterruptedException.class, outcome.get(), "what serve threw when interrupted");
        assertEquals(0, e.interrupted.getCount(), "calls not interrupted");
        assertEquals(0, e.ended.getCount(),
                "calls still running when serve threw (interrupted, they take " + LINGER.toMillis() + " ms to end)");
    }

    /** A JSON thread dump of this JVM (it groups threads by container: a scope, an executor or the root). */
    private static String threadDump() throws IOException {
        Path dir = Files.createTempDirectory("fanout-dump");
        Path file = dir.resolve("threads.json");
        try {
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
            return Files.readString(file);
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    /** The name of the container that holds thread {@code tid} in a JSON thread dump. */
    private static String containerOf(String dump, long tid) {
        assertNotNull(dump, "no thread dump was taken");
        String[] containers = dump.split("\"container\"\\s*:");
        for (int i = 1; i < containers.length; i++) {
            if (containers[i].matches("(?s).*\"tid\"\\s*:\\s*\"?" + tid + "\"?\\s*,.*")) {
                String c = containers[i].strip();
                return c.substring(0, Math.max(1, c.indexOf(',')));
            }
        }
        return "no container";
    }
}
