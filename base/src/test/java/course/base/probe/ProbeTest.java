package course.base.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ProbeTest {

    @Test
    void countsEnterAndExitAndPeak() {
        var p = new Probe();
        p.enter();
        p.enter();
        assertEquals(2, p.inFlight());
        p.exit();
        p.enter();
        p.exit();
        p.exit();
        assertEquals(3, p.entered());
        assertEquals(3, p.exited());
        assertEquals(0, p.inFlight());
        assertEquals(2, p.peak());
        assertEquals(3, p.platformCount());
        assertEquals(0, p.virtualCount());
    }

    @Test
    void fixedPoolOfFourPeaksAtExactlyFour() throws Exception {
        var p = new Probe();
        var barrier = new CyclicBarrier(4);
        try (var pool = Executors.newFixedThreadPool(4)) {
            for (int i = 0; i < 20; i++) pool.submit(p.wrapChecked(() -> barrier.await()));
        }
        assertEquals(4, p.peak());
        assertEquals(20, p.entered());
        assertEquals(20, p.exited());
        assertEquals(20, p.platformCount());
        assertEquals(0, p.virtualCount());
        assertEquals(0, p.inFlight());
        assertEquals(4, p.threads(), "a pool of four reuses its four threads");
    }

    @Test
    void virtualThreadsAreCountedAsVirtualAndAllRunAtOnce() {
        var p = new Probe();
        int n = 200;
        var all = new CountDownLatch(n);
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                pool.submit(p.wrapChecked(() -> {
                    all.countDown();
                    all.await();
                }));
            }
        }
        assertEquals(n, p.peak());
        assertEquals(n, p.virtualCount());
        assertEquals(0, p.platformCount());
        assertEquals(n, p.threads(), "a thread of its own per task");
    }

    @Test
    void wrappedRunnableExitsEvenWhenItThrows() {
        var p = new Probe();
        Runnable r = p.wrap((Runnable) () -> {
            throw new IllegalStateException("boom");
        });
        var e = assertThrows(IllegalStateException.class, r::run);
        assertEquals("boom", e.getMessage());
        assertEquals(1, p.entered());
        assertEquals(1, p.exited());
        assertEquals(0, p.inFlight());
    }

    @Test
    void wrappedCallableReturnsItsValueAndCountsInside() throws Exception {
        var p = new Probe();
        Callable<Integer> c = p.wrap((Callable<Integer>) p::inFlight);
        assertEquals(1, c.call(), "the task runs between enter and exit");
        assertEquals(0, p.inFlight());
        assertEquals(1, p.exited());
    }

    @Test
    void wrappedThrowingRunnablePassesCheckedExceptionsAndReturnsNull() throws Exception {
        var p = new Probe();
        Callable<Void> ok = p.wrapChecked(() -> {});
        assertNull(ok.call());
        Callable<Void> bad = p.wrapChecked(() -> {
            throw new InterruptedException("stop");
        });
        assertThrows(InterruptedException.class, bad::call);
        assertEquals(2, p.entered());
        assertEquals(2, p.exited());
    }

    @Test
    void wrapRefusesNull() {
        var p = new Probe();
        assertThrows(NullPointerException.class, () -> p.wrap((Runnable) null));
        assertThrows(NullPointerException.class, () -> p.wrap((Callable<Object>) null));
        assertThrows(NullPointerException.class, () -> p.wrapChecked(null));
    }

    @Test
    void toStringShowsEveryCounter() {
        var p = new Probe();
        p.enter();
        String s = p.toString();
        assertTrue(
                s.contains("entered=1")
                        && s.contains("exited=0")
                        && s.contains("inFlight=1")
                        && s.contains("peak=1")
                        && s.contains("virtual=0")
                        && s.contains("platform=1"),
                s);
    }
}
