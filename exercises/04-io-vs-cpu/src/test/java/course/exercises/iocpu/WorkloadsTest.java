package course.exercises.iocpu;

import static java.time.Duration.ofMillis;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Probe;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/** The course's tests for exercise 04. Each test's {@code points:N} tag is what it is worth. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Workloads")
class WorkloadsTest {

    private static Duration ofMicros(long micros) {
        return Duration.ofNanos(micros * 1_000);
    }

    /** What a batch of blocking tasks saw: how many ran at once, on which kind and on how many threads. */
    record Observed(Probe probe, int distinctThreads) {
    }

    /**
     * Submits {@code tasks} tasks that each hold their thread until {@code holdUntil} tasks have started
     * (with a generous guard, so a wrong executor fails instead of hanging), then closes the executor.
     */
    private static Observed runBlockingTasks(ExecutorService executor, int tasks, int holdUntil)
            throws InterruptedException {
        Probe probe = new Probe();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch started = new CountDownLatch(holdUntil);
        CountDownLatch gate = new CountDownLatch(1);
        try (executor) {
            for (int i = 0; i < tasks; i++) {
                executor.submit(probe.wrap(() -> {
                    threads.add(Thread.currentThread());
                    started.countDown();
                    return gate.await(5, TimeUnit.SECONDS);
                }));
            }
            started.await(5, TimeUnit.SECONDS);
            gate.countDown();
        }
        return new Observed(probe, threads.size());
    }

    /**
     * Waits until {@code latch} opens, or until it has not counted down for {@code stall}: true if it opened.
     * A correct executor keeps starting tasks; one with a cap stops at the cap, and this returns false.
     */
    private static boolean awaitWhileItMoves(CountDownLatch latch, Duration stall) throws InterruptedException {
        long before = latch.getCount();
        while (!latch.await(stall.toMillis(), TimeUnit.MILLISECONDS)) {
            long now = latch.getCount();
            if (now == before) {
                return false;
            }
            before = now;
        }
        return true;
    }

    /**
     * Waits (a guard of 2 s) until {@code thread} has terminated or is parked: a pooled thread that finished its
     * task parks, idle, waiting for the next one; a thread started for one task ends.
     */
    private static void awaitEndedOrIdle(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() < deadline) {
            switch (thread.getState()) {
                case TERMINATED, WAITING, TIMED_WAITING -> {
                    return;
                }
                default -> Thread.sleep(1);
            }
        }
    }

    @Order(1)
    @Test
    @Tag("points:2")
    @DisplayName("poolSize: cores × U × (1 + wait/compute), the durations compared to the nanosecond")
    void poolSizeFollowsTheFormula() {
        assertAll(
                () -> assertEquals(80, Workloads.poolSize(8, 1.0, ofMillis(90), ofMillis(10)),
                        "poolSize(8 cores, U=1.0, wait 90 ms, compute 10 ms)"),
                () -> assertEquals(7, Workloads.poolSize(4, 0.5, ofMillis(50), ofMillis(20)),
                        "poolSize(4 cores, U=0.5, wait 50 ms, compute 20 ms): W/C = 2.5, not 2"),
                () -> assertEquals(2, Workloads.poolSize(2, 1.0, Duration.ZERO, ofMillis(10)),
                        "poolSize(2 cores, U=1.0, wait 0, compute 10 ms)"),
                () -> assertEquals(8, Workloads.poolSize(2, 1.0, ofMicros(1_500), ofMicros(500)),
                        "poolSize(2 cores, U=1.0, wait 1.5 ms, compute 0.5 ms): W/C = 3 (whole milliseconds give 1/0)"),
                () -> assertEquals(7, Workloads.poolSize(2, 1.0, ofMicros(2_500), ofMillis(1)),
                        "poolSize(2 cores, U=1.0, wait 2.5 ms, compute 1 ms): W/C = 2.5"));
    }

    @Order(2)
    @Test
    @Tag("points:1")
    @DisplayName("poolSize: rounds a fractional thread up (ceil)")
    void poolSizeRoundsUp() {
        assertAll(
                () -> assertEquals(5, Workloads.poolSize(3, 0.9, ofMillis(10), ofMillis(20)),
                        "poolSize(3 cores, U=0.9, wait 10 ms, compute 20 ms) = ceil(4.05)"),
                () -> assertEquals(1, Workloads.poolSize(1, 0.5, Duration.ZERO, ofMillis(1)),
                        "poolSize(1 core, U=0.5, wait 0, compute 1 ms) = ceil(0.5)"));
    }

    @Order(3)
    @Test
    @Tag("points:1")
    @DisplayName("poolSize: rejects cores < 1, U outside (0, 1], a negative wait, a compute time that is not "
            + "positive; accepts 1 core, U = 1 and no wait")
    void poolSizeRejectsBadArguments() {
        assertAll(
                () -> assertThrows(IllegalArgumentException.class, () -> Workloads.poolSize(0, 1.0, ofMillis(1), ofMillis(1)),
                        "poolSize(0 cores, ...)"),
                () -> assertThrows(IllegalArgumentException.class, () -> Workloads.poolSize(-2, 1.0, ofMillis(1), ofMillis(1)),
                        "poolSize(-2 cores, ...)"),
                () -> assertThrows(IllegalArgumentException.class, () -> Workloads.poolSize(4, 0.0, ofMillis(1), ofMillis(1)),
                        "poolSize(..., U=0.0, ...)"),
                () -> assertThrows(IllegalArgumentException.class, () -> Workloads.poolSize(4, -0.5, ofMillis(1), ofMillis(1)),
                        "poolSize(..., U=-0.5, ...)"),
                () -> assertThrows(IllegalArgumentException.class, () -> Workloads.poolSize(4, 1.5, ofMillis(1), ofMillis(1)),
                        "poolSize(..., U=1.5, ...)"),
                () -> assertThrows(IllegalArgumentException.class, () -> Workloads.poolSize(4, 1.0, ofMillis(-1), ofMillis(1)),
                        "poolSize(..., wait -1 ms, ...)"),
                () -> assertThrows(IllegalArgumentException.class, () -> Workloads.poolSize(4, 1.0, ofMillis(1), Duration.ZERO),
                        "poolSize(..., compute 0)"),
                () -> assertThrows(IllegalArgumentException.class, () -> Workloads.poolSize(4, 1.0, ofMillis(1), ofMillis(-1)),
                        "poolSize(..., compute -1 ms)"),
                () -> assertEquals(1, assertDoesNotThrow(() -> Workloads.poolSize(1, 1.0, Duration.ZERO, ofMillis(1)),
                        "poolSize(1 core, U=1.0, wait 0, compute 1 ms): each argument at its edge, all allowed"),
                        "poolSize(1 core, U=1.0, wait 0, compute 1 ms)"));
    }

    @Order(4)
    @Test
    @Tag("points:3")
    @Timeout(20)
    @DisplayName("CPU_BOUND: a fixed pool of exactly availableProcessors() platform threads")
    void cpuBoundIsAFixedPlatformPoolOfCoresThreads() throws InterruptedException {
        int cores = Runtime.getRuntime().availableProcessors();
        int tasks = 3 * cores;
        ExecutorService executor = Workloads.executorFor(WorkloadKind.CPU_BOUND);
        assertNotNull(executor, "executorFor(CPU_BOUND) returned null");
        Observed seen = runBlockingTasks(executor, tasks, cores);
        assertAll(
                () -> assertEquals(tasks, seen.probe().entered(), "tasks that ran"),
                () -> assertEquals(tasks, seen.probe().platformCount(), "tasks that ran on a platform thread"),
                () -> assertEquals(cores, seen.probe().peak(),
                        "tasks running at once (availableProcessors() = " + cores + ")"),
                () -> assertEquals(cores, seen.distinctThreads(),
                        "distinct threads that ran the " + tasks + " tasks (a fixed pool reuses its " + cores + ")"));
    }

    @Order(5)
    @Test
    @Tag("points:3")
    @Timeout(20)
    @DisplayName("IO_BOUND: a new virtual thread per task, 100 tasks at once")
    void ioBoundIsAVirtualThreadPerTask() throws InterruptedException {
        int tasks = 100;
        ExecutorService executor = Workloads.executorFor(WorkloadKind.IO_BOUND);
        assertNotNull(executor, "executorFor(IO_BOUND) returned null");
        Observed seen = runBlockingTasks(executor, tasks, tasks);
        assertAll(
                () -> assertEquals(tasks, seen.probe().entered(), "tasks that ran"),
                () -> assertEquals(tasks, seen.probe().virtualCount(), "tasks that ran on a virtual thread"),
                () -> assertEquals(tasks, seen.probe().peak(), "tasks running at once"),
                () -> assertEquals(tasks, seen.distinctThreads(), "distinct threads (one new thread per task)"));
    }

    @Order(6)
    @Test
    @Tag("points:2")
    @Timeout(10)
    @DisplayName("IO_BOUND: never reuses a thread, not even an idle one: 20 tasks one after another, 20 threads")
    void ioBoundNeverReusesAThread() throws Exception {
        int tasks = 20;
        Probe probe = new Probe();
        try (ExecutorService executor = Workloads.executorFor(WorkloadKind.IO_BOUND)) {
            assertNotNull(executor, "executorFor(IO_BOUND) returned null");
            for (int i = 0; i < tasks; i++) {
                // Each task is submitted once the one before has ended and its thread has ended or sits idle.
                Thread ranOn = executor.submit(probe.wrap(Thread::currentThread)).get(5, TimeUnit.SECONDS);
                awaitEndedOrIdle(ranOn);
            }
        }
        assertAll(
                () -> assertEquals(tasks, probe.entered(), "tasks that ran"),
                () -> assertEquals(tasks, probe.threads(),
                        "distinct threads that ran " + tasks + " tasks submitted one after another (an executor "
                                + "that keeps idle threads, such as a cached pool, hands a task to one that ran "
                                + "an earlier task)"));
    }

    @Order(7)
    @Test
    @Tag("points:2")
    @Timeout(20)
    @DisplayName("IO_BOUND: no limit: 20,000 tasks that wait are all running at once")
    void ioBoundHasNoLimit() throws Exception {
        int tasks = 20_000;
        Probe probe = new Probe();
        CountDownLatch started = new CountDownLatch(tasks);
        CountDownLatch gate = new CountDownLatch(1);
        boolean allStarted;
        long startedBeforeTheGate;
        try (ExecutorService executor = Workloads.executorFor(WorkloadKind.IO_BOUND)) {
            assertNotNull(executor, "executorFor(IO_BOUND) returned null");
            // 20,000 platform threads could exhaust the machine: check the kind with one task first.
            Thread first = executor.submit(Thread::currentThread).get(5, TimeUnit.SECONDS);
            assertTrue(first.isVirtual(), "executorFor(IO_BOUND) ran a task on a platform thread (" + first
                    + "); this test starts " + tasks + " tasks and needs virtual threads");
            try {
                for (int i = 0; i < tasks; i++) {
                    executor.submit(probe.wrap(() -> {
                        started.countDown();
                        return gate.await(15, TimeUnit.SECONDS);
                    }));
                }
                allStarted = awaitWhileItMoves(started, Duration.ofSeconds(1));
            } finally {
                startedBeforeTheGate = tasks - started.getCount();
                gate.countDown();
            }
        }
        assertAll(
                () -> assertEquals(tasks, probe.entered(), "tasks that ran"),
                () -> assertTrue(allStarted, startedBeforeTheGate + " of " + tasks + " waiting tasks had started, "
                        + "then no more started for 1 s: the executor holds the rest back (a pool of a fixed "
                        + "size, however large, is a limit)"),
                () -> assertEquals(tasks, probe.peak(), "tasks running at once"));
    }

    @Order(8)
    @Test
    @Tag("points:1")
    @DisplayName("every call returns a new executor: closing one leaves the next usable")
    void everyCallReturnsANewExecutor() throws Exception {
        for (WorkloadKind kind : WorkloadKind.values()) {
            ExecutorService first = Workloads.executorFor(kind);
            first.close();
            try (ExecutorService second = Workloads.executorFor(kind)) {
                assertNotSame(first, second, "executorFor(" + kind + ") returned the same executor twice");
                assertEquals(7, second.submit(() -> 7).get(), "a task on a fresh executorFor(" + kind + ")");
            }
        }
    }
}
