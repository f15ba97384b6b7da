package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class RecorderTest {
    @Test
    void recordsEveryTaskOfAFixedPoolWithItsThreadKindAndPeak() throws Exception {
        int workers = 3;
        var allIn = new CountDownLatch(workers);
        var rec = Recorder.quiet("pool", "fixed pool of 3", 9);
        try (var pool = Executors.newFixedThreadPool(workers)) {
            for (int i = 0; i < 9; i++) {
                pool.submit(rec.task(() -> {
                    allIn.countDown();
                    allIn.await(); // the first wave meets here: all three at once
                }));
            }
        }
        RunResult r = rec.stop();
        assertEquals(9, r.count());
        assertEquals(9, r.started());
        assertEquals(0, r.virtualTasks());
        assertEquals(workers, r.threadsUsed());
        assertEquals(workers, r.peakConcurrency());
        assertEquals(0, r.failed());
        assertSame(r, rec.stop(), "stop twice returns the same result");
    }

    @Test
    void recordsThreadsStartedByTheBuilderAsVirtual() throws Exception {
        var rec = Recorder.quiet("virtual", "virtual", 50);
        var gate = new CountDownLatch(1);
        var threads = new ArrayList<Thread>();
        Runnable body = rec.each(gate::await);
        for (int i = 0; i < 50; i++) threads.add(Thread.ofVirtual().start(body));
        gate.countDown();
        for (Thread t : threads) t.join();
        RunResult r = rec.stop();
        assertEquals(50, r.count());
        assertEquals(50, r.virtualTasks());
        assertEquals(50, r.threadsUsed());
    }

    @Test
    void aWrappedExecutorRecordsTasksSubmittedByOtherCode() throws Exception {
        var rec = Recorder.quiet("yours", "fixed pool of 2", 5);
        try (var pool = rec.executor(Executors.newFixedThreadPool(2))) {
            List<Callable<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                int k = i;
                calls.add(() -> k * k);
            }
            var futures = pool.invokeAll(calls); // code that knows nothing of the recorder
            assertEquals(16, futures.get(4).get());
        }
        RunResult r = rec.stop();
        assertEquals(5, r.count());
        assertTrue(r.threadsUsed() <= 2);
    }

    @Test
    void failuresAreCountedAndCallsRethrow() throws Exception {
        var rec = Recorder.quiet("failing", "virtual", 2);
        try (var ex = Executors.newVirtualThreadPerTaskExecutor()) {
            ex.submit(rec.task(() -> {
                throw new IllegalStateException("no connection");
            }));
            var f = ex.submit(rec.call(() -> {
                throw new java.io.IOException("timed out");
            }));
            var e = assertThrows(ExecutionException.class, f::get);
            assertEquals("timed out", e.getCause().getMessage());
        }
        RunResult r = rec.stop();
        assertEquals(2, r.failed());
        assertEquals("IllegalStateException: no connection", r.records().get(0).failure());
    }

    @Test
    void moreTasksThanItsCapacityIsRefusedWithTheReason() {
        var rec = Recorder.quiet("small", "x", 1);
        rec.task(() -> {});
        var e = assertThrows(IllegalStateException.class, () -> rec.task(() -> {}));
        assertTrue(e.getMessage().contains("sized for 1 tasks"), e.getMessage());
    }

    @Test
    void aRecorderStoppedEarlyKeepsOnlyTheTasksItWrapped() {
        var rec = Recorder.quiet("partial", "x", 10);
        rec.task(() -> {});
        rec.task(() -> {});
        RunResult r = rec.stop();
        assertEquals(2, r.count());
        assertEquals(0, r.started(), "wrapped but never run");
    }
}
