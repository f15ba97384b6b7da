package course.exercises.structured;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 * synchronise with latches and record what happened to them (started, interrupted, ended); no test depends
 * on how fast the machine is.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Fanout.serve")
class FanoutTest {
    private static final Duration GENEROUS = Duration.ofSeconds(30);

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

        /** A call that starts, then sleeps 10 s unless it is interrupted (cancelled). */
        Callable<String> sleeper(String name) {
            return () -> {
                started.countDown();
                try {
                    Thread.sleep(10_000);
                    return name;
                } catch (InterruptedException e) {
                    interrupted.countDown();
                    throw e;
                } finally {
                    ended.countDown();
                }
            };
        }
    }

    @Order(1)
    @Test
    @Tag("points:1")
    @DisplayName("no calls: an empty list; a null argument: NullPointerException")
    void emptyAndNull() throws Exception {
        List<String> none = Fanout.serve("r", List.<Callable<String>>of(), GENEROUS);
        assertNotNull(none, "serve must return a list, not null");
        assertEquals(List.of(), none, "results of no calls");
        List<Callable<String>> one = List.of(() -> "x");
        assertThrows(NullPointerException.class, () -> Fanout.serve(null, one, GENEROUS), "a null requestId");
        assertThrows(NullPointerException.class, () -> Fanout.serve("r", null, GENEROUS), "a null list of calls");
        assertThrows(NullPointerException.class, () -> Fanout.serve("r", one, null), "a null deadline");
    }

    @Order(2)
    @Test
    @Tag("points:2")
    @DisplayName("every call runs at the same time; results come back in the order of calls")
    void concurrentAndInOrder() throws Exception {
        int n = 4;
        CountDownLatch allStarted = new CountDownLatch(n);
        List<CountDownLatch> done = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            done.add(new CountDownLatch(1));
        }
        // Each call waits until all have started; then call k finishes only after call k+1: reverse order.
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            calls.add(() -> {
                allStarted.countDown();
                if (!allStarted.await(5, TimeUnit.SECONDS)) {
                    throw new AssertionError("the calls did not all run at the same time");
                }
                if (k + 1 < n) {
                    done.get(k + 1).await(5, TimeUnit.SECONDS);
                }
                done.get(k).countDown();
                return k;
            });
        }
        assertEquals(List.of(0, 1, 2, 3), Fanout.serve("r", calls, GENEROUS),
                "results of calls 0..3 (they complete 3, 2, 1, 0)");
    }

    @Order(3)
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
        assertTrue(!Fanout.REQUEST_ID.isBound(), "REQUEST_ID must not stay bound in the caller after serve");
    }

    @Order(4)
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
                allStarted.await(5, TimeUnit.SECONDS);
                if (k == 0) {
                    try {
                        dump.set(threadDump()); // while every call is running
                    } finally {
                        dumped.countDown();
                    }
                } else {
                    dumped.await(5, TimeUnit.SECONDS);
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

    @Order(5)
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
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> Fanout.serve("r", calls, GENEROUS),
                "a failed call must end serve with an ExecutionException");
        assertSame(boom, thrown.getCause(), "the cause must be the first failed call's own exception, not "
                + thrown.getCause());
        assertEquals(0, e.ended.getCount(), "calls still running when serve threw");
        assertEquals(0, e.interrupted.getCount(), "the 10 s siblings must be interrupted, not awaited");
    }

    @Order(6)
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

    @Order(7)
    @Test
    @Tag("points:2")
    @DisplayName("the deadline passes: TimeoutException, the calls cancelled")
    void deadline() throws Exception {
        Events e = new Events(3);
        List<Callable<String>> calls = List.of(e.sleeper("a"), e.sleeper("b"), e.sleeper("c"));
        Throwable thrown = assertThrows(Exception.class, () -> Fanout.serve("r", calls, Duration.ofMillis(500)),
                "calls of 10 s under a deadline of 500 ms");
        assertInstanceOf(TimeoutException.class, thrown,
                "a passed deadline must throw java.util.concurrent.TimeoutException, not " + thrown);
        // A call the deadline caught before it started never runs; every call that started must have ended.
        assertEquals(e.started.getCount(), e.ended.getCount(), "calls still running when serve threw");
        assertEquals(e.started.getCount(), e.interrupted.getCount(), "calls not interrupted at the deadline");
    }

    @Order(8)
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
        while (!e.started.await(10, TimeUnit.MILLISECONDS)) { // the calls run, or serve ended before they did
            if (!caller.isAlive()) {
                Throwable early = outcome.get();
                if (early instanceof Exception ex) {
                    throw ex;
                }
                throw (Error) early;
            }
        }
        caller.interrupt();
        assertTrue(caller.join(Duration.ofSeconds(4)), "serve kept waiting after its thread was interrupted");
        assertInstanceOf(InterruptedException.class, outcome.get(), "what serve threw when interrupted");
        assertEquals(0, e.ended.getCount(), "calls still running when serve threw");
        assertEquals(0, e.interrupted.getCount(), "calls not interrupted");
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
