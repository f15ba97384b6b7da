package course.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CellStopTest {

    @AfterEach
    void clearStop() {
        CellStop.clear();
    }

    @Test
    @DisplayName("check() throws only between request() and clear()")
    void requestAndClear() {
        CellStop.check();
        CellStop.request();
        assertTrue(CellStop.isRequested());
        assertThrows(CellInterruptedError.class, CellStop::check);
        CellStop.clear();
        assertFalse(CellStop.isRequested());
        CellStop.check();
    }

    @Test
    @DisplayName("CellInterruptedError is an Error, so catch (Exception e) in learner code does not swallow it")
    void isAnError() {
        assertInstanceOf(Error.class, new CellInterruptedError());
    }

    @Test
    @DisplayName("a thread sleeping in snippet code is found, interrupted, and counted until it ends")
    void interruptsThreadsRunningSnippetCode() throws Exception {
        Class<?> c = Class.forName("REPL.Snippets", true, new WeavingLoader(true));
        Method sleepLong = c.getMethod("sleepLong", CountDownLatch.class);
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = Thread.ofPlatform().daemon().start(() -> {
            try {
                sleepLong.invoke(null, started);
            } catch (InvocationTargetException e) {
                thrown.set(e.getCause());
            } catch (ReflectiveOperationException e) {
                thrown.set(e);
            }
        });
        assertTrue(started.await(10, TimeUnit.SECONDS));
        // wait until its stack shows the snippet frame (it is then inside sleepLong)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (CellStop.snippetThreadCount() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(1, CellStop.snippetThreadCount());
        assertEquals(1, CellStop.interruptSnippetThreads());
        assertEquals(0, CellStop.awaitNoSnippetThreads(10, TimeUnit.SECONDS));
        t.join(10_000);
        assertFalse(t.isAlive());
        assertInstanceOf(InterruptedException.class, thrown.get());
    }

    @Test
    @DisplayName("threads that run no snippet code are never interrupted")
    void leavesOtherThreadsAlone() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Boolean> interrupted = new AtomicReference<>(false);
        Thread t = Thread.ofPlatform().daemon().start(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        });
        CellStop.interruptSnippetThreads();
        release.countDown();
        t.join(10_000);
        assertFalse(interrupted.get());
    }

    @Test
    @DisplayName("the quiet handler drops CellInterruptedError and still reports other uncaught exceptions")
    void quietUncaughtHandler() throws Exception {
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        java.io.PrintStream err = System.err;
        var captured = new java.io.ByteArrayOutputStream();
        try {
            CellStop.installQuietUncaughtHandler();
            System.setErr(new java.io.PrintStream(captured, true));
            Thread a = Thread.ofPlatform().name("stopped-one").start(() -> {
                throw new CellInterruptedError();
            });
            Thread b = Thread.ofPlatform().name("failing-one").start(() -> {
                throw new IllegalStateException("boom");
            });
            a.join(10_000);
            b.join(10_000);
        } finally {
            System.setErr(err);
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
        String out = captured.toString();
        assertTrue(out.contains("failing-one") && out.contains("boom"), out);
        assertFalse(out.contains("stopped-one") || out.contains("CellInterruptedError"), out);
    }
}
