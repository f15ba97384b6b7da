package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.probe.Probe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class RunTest {

    /** A task that waits until {@code parties} tasks are running at once. */
    private static Task barrier(int parties) {
        var b = new CyclicBarrier(parties);
        return i -> b.await();
    }

    @Test
    void fixedPoolOfFourRunsExactlyFourAtOnce() throws Exception {
        RunResult r = Run.tasks(Pool.fixed(4), 24, barrier(4));
        assertEquals(24, r.count());
        assertEquals(24, r.started());
        assertEquals(4, r.peakConcurrency());
        assertEquals(4, r.threadsUsed());
        assertEquals(0, r.virtualTasks());
        assertEquals(0, r.failed());
        assertEquals(String.format("fixed pool of %,d", 4), r.name());
        assertEquals(r.name(), r.pool());
    }

    @Test
    void fixedPoolNeverUsesMoreThreadsThanItsSize() throws Exception {
        RunResult r = Run.tasks(Pool.fixed(3), 50, i -> {});
        assertTrue(r.threadsUsed() <= 3, "threads " + r.threadsUsed());
        assertTrue(r.peakConcurrency() <= 3, "peak " + r.peakConcurrency());
        assertEquals(50, r.records().size());
        assertTrue(r.records().stream().allMatch(t -> t.thread().startsWith("pool-")), "platform threads are named");
    }

    @Test
    void virtualPoolRunsEveryTaskOnItsOwnVirtualThreadAllAtOnce() throws Exception {
        int n = 500;
        var all = new CountDownLatch(n);
        RunResult r = Run.tasks(Pool.virtual(), n, i -> {
            all.countDown();
            all.await();
        });
        assertEquals(n, r.virtualTasks());
        assertEquals(n, r.peakConcurrency());
        assertEquals(n, r.threadsUsed());
        assertTrue(r.records().stream().allMatch(TaskRecord::virtual));
        assertTrue(r.records().stream().allMatch(t -> t.thread().startsWith("#")), "virtual threads show their id");
    }

    @Test
    void platformThreadPerTaskRunsEveryTaskOnItsOwnPlatformThread() throws Exception {
        RunResult r = Run.tasks(Pool.platformPerTask(), 8, barrier(8));
        assertEquals(8, r.peakConcurrency());
        assertEquals(8, r.threadsUsed());
        assertEquals(0, r.virtualTasks());
    }

    @Test
    void recordsComeInSubmissionOrderWithTheirIndex() throws Exception {
        var seen = new AtomicInteger();
        RunResult r = Run.tasks("ordered", Pool.fixed(1), 10, i -> assertEquals(seen.getAndIncrement(), i));
        assertEquals("ordered", r.name());
        assertEquals(0, r.failed(), "a single thread takes tasks in submission order");
        List<TaskRecord> recs = r.records();
        for (int i = 0; i < recs.size(); i++) {
            TaskRecord t = recs.get(i);
            assertEquals(i, t.index());
            assertTrue(t.endNanos() >= t.startNanos(), t.toString());
            assertTrue(t.ok());
            if (i > 0) assertTrue(t.startNanos() >= recs.get(i - 1).endNanos(), "one thread: no overlap");
        }
        assertEquals(1, r.peakConcurrency());
    }

    @Test
    void aTaskThatThrowsIsRecordedAndTheOthersRun() throws Exception {
        RunResult r = Run.tasks(Pool.fixed(2), 10, i -> {
            if (i == 3) throw new IllegalStateException("boom");
            if (i == 7) throw new UnsupportedOperationException();
        });
        assertEquals(10, r.started());
        assertEquals(2, r.failed());
        TaskRecord three = r.records().get(3);
        assertFalse(three.ok());
        assertEquals("IllegalStateException: boom", three.failure());
        assertEquals("UnsupportedOperationException", r.records().get(7).failure());
        assertNull(r.records().get(0).failure());
        assertTrue(r.toString().contains("(2 failed)"), r.toString());
    }

    @Test
    void zeroTasksIsAnEmptyRun() throws Exception {
        RunResult r = Run.tasks(Pool.virtual(), 0, i -> {});
        assertEquals(0, r.count());
        assertEquals(0, r.started());
        assertEquals(0, r.peakConcurrency());
        assertEquals(0, r.threadsUsed());
        assertTrue(r.records().isEmpty());
    }

    @Test
    void argumentsAreChecked() {
        assertThrows(NullPointerException.class, () -> Run.tasks(null, 1, i -> {}));
        assertThrows(NullPointerException.class, () -> Run.tasks(Pool.virtual(), 1, null));
        var e = assertThrows(IllegalArgumentException.class, () -> Run.tasks(Pool.virtual(), -1, i -> {}));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
    }

    @Test
    void anImpossibleRunIsRefusedBeforeAnyThreadStarts() {
        var created = new AtomicBoolean();
        Pool huge = Pool.of("fixed pool of 10,000,000", false, 10_000_000, () -> {
            created.set(true);
            return Executors.newFixedThreadPool(10_000_000);
        });
        var e = assertThrows(IllegalArgumentException.class, () -> Run.tasks(huge, 10_000_000, i -> {}));
        assertTrue(e.getMessage().contains("platform threads cannot run here"), e.getMessage());
        assertFalse(created.get(), "no executor was created");
    }

    /** Threads of this test's pools, found by name. */
    private static List<Thread> liveThreads(String prefix) {
        var out = new ArrayList<Thread>();
        for (Thread t : Thread.getAllStackTraces().keySet())
            if (t.getName().startsWith(prefix) && t.isAlive()) out.add(t);
        return out;
    }

    /** Runs {@code body} on a new thread, interrupts it once {@code started} opens, and returns what it threw. */
    private static Throwable interruptDuring(CountDownLatch started, Body body) throws Exception {
        var thrown = new AtomicReference<Throwable>();
        Thread runner = Thread.ofPlatform().name("kit-test-runner").start(() -> {
            try {
                body.call();
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        assertTrue(started.await(20, TimeUnit.SECONDS), "the tasks started");
        runner.interrupt();
        runner.join(Duration.ofSeconds(20));
        assertFalse(runner.isAlive(), "the run returned after the interrupt");
        return thrown.get();
    }

    private interface Body {
        void call() throws Exception;
    }

    @Test
    void interruptingTheCallerShutsTheRunDownAndLeavesNoThreadBehind() throws Exception {
        String prefix = "kit-test-interrupt-";
        var made = new AtomicReference<ExecutorService>();
        Pool pool = Pool.of("named fixed pool", false, 3, () -> {
            var counter = new AtomicInteger();
            made.set(Executors.newFixedThreadPool(3, r -> new Thread(r, prefix + counter.incrementAndGet())));
            return made.get();
        });
        var started = new CountDownLatch(3);
        var probe = new Probe();
        Throwable t = interruptDuring(
                started,
                () -> Run.tasks(
                        pool,
                        30,
                        i -> probe.wrapChecked(() -> {
                                    started.countDown();
                                    Thread.sleep(Duration.ofMinutes(5));
                                })
                                .call()));
        var ie = assertInstanceOf(InterruptedException.class, t);
        assertTrue(
                ie.getMessage().contains("interrupted after") && ie.getMessage().contains("of 30 tasks"),
                ie.getMessage());
        assertTrue(made.get().isShutdown() && made.get().isTerminated(), "the executor was shut down and ended");
        assertEquals(0, probe.inFlight(), "no task is still running");
        assertTrue(probe.entered() < 30, "the queued tasks never ran: " + probe.entered());
        // a terminated pool's worker threads may take a moment to die after their last instruction
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!liveThreads(prefix).isEmpty() && System.nanoTime() < deadline) Thread.sleep(20);
        assertEquals(List.of(), liveThreads(prefix), "no pool thread is left");
    }

    @Test
    void interruptingAVirtualRunStopsEveryTask() throws Exception {
        var started = new CountDownLatch(100);
        var probe = new Probe();
        Throwable t = interruptDuring(
                started,
                () -> Run.tasks(
                        Pool.virtual(),
                        100,
                        i -> probe.wrapChecked(() -> {
                                    started.countDown();
                                    Thread.sleep(Duration.ofMinutes(5));
                                })
                                .call()));
        assertInstanceOf(InterruptedException.class, t);
        assertEquals(100, probe.entered());
        assertEquals(100, probe.exited(), "every sleeping task was interrupted and ended before the run returned");
    }

    @Test
    void aCallerInterruptedBeforeTheRunStartsNoTask() {
        var probe = new Probe();
        Thread.currentThread().interrupt();
        try {
            var e = assertThrows(
                    InterruptedException.class,
                    () -> Run.tasks(
                            Pool.fixed(2),
                            10,
                            i -> probe.wrap((Runnable) () -> {}).run()));
            assertTrue(e.getMessage().contains("0 of 10"), e.getMessage());
            assertEquals(0, probe.entered());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void onRunsOnTheCallersExecutorAndLeavesItOpen() throws Exception {
        try (ExecutorService e = Executors.newFixedThreadPool(2)) {
            RunResult r = Run.on("mine", e, 12, barrier(2));
            assertEquals("mine", r.name());
            assertEquals(e.getClass().getSimpleName(), r.pool());
            assertEquals(12, r.count());
            assertEquals(2, r.peakConcurrency());
            assertEquals(2, r.threadsUsed());
            assertFalse(e.isShutdown(), "the caller's executor stays open");
            RunResult again = Run.on("again", e, 3, i -> {
                if (i == 1) throw new Exception("x");
            });
            assertEquals(1, again.failed());
            assertEquals("Exception: x", again.records().get(1).failure());
        }
    }

    @Test
    void onChecksItsArguments() {
        try (ExecutorService e = Executors.newVirtualThreadPerTaskExecutor()) {
            assertThrows(NullPointerException.class, () -> Run.on("x", null, 1, i -> {}));
            assertThrows(NullPointerException.class, () -> Run.on("x", e, 1, null));
            assertThrows(IllegalArgumentException.class, () -> Run.on("x", e, -1, i -> {}));
        }
    }

    @Test
    void interruptingOnCancelsItsTasks() throws Exception {
        var started = new CountDownLatch(4);
        var probe = new Probe();
        try (ExecutorService e = Executors.newVirtualThreadPerTaskExecutor()) {
            Throwable t = interruptDuring(
                    started,
                    () -> Run.on(
                            "x",
                            e,
                            4,
                            i -> probe.wrapChecked(() -> {
                                        started.countDown();
                                        Thread.sleep(Duration.ofMinutes(5));
                                    })
                                    .call()));
            assertInstanceOf(InterruptedException.class, t);
        } // close() waits: it would hang here for five minutes if the tasks had not been cancelled
        assertEquals(4, probe.exited());
    }

    @Test
    void sleepTasksRunToCompletionOnAFixedPool() throws Exception {
        RunResult r = Run.tasks(Pool.fixed(2), 6, Tasks.sleep(Duration.ofMillis(20)));
        assertEquals(6, r.records().stream().filter(TaskRecord::ok).count());
        assertTrue(r.peakConcurrency() <= 2);
        // six 20 ms sleeps on two threads: three rounds, and a sleep never ends early
        assertTrue(
                r.elapsed().compareTo(Duration.ofMillis(60)) >= 0, r.elapsed().toString());
    }
}
