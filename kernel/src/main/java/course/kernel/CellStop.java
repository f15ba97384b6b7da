package course.kernel;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The stop request that an interrupt sends to the code of notebook cells.
 *
 * <p>Contract: after {@link #request()}, every call to {@link #check()} throws {@link CellInterruptedError}
 * until {@link #clear()}. The kernel's agent ({@link StopAgent}) weaves a call to {@code check()} into every
 * method entry and every backward branch of JShell's snippet classes (package {@code REPL}), so a loop in a
 * cell, on any thread, ends at its next iteration. Code outside the snippets (the JDK, the kit, libraries) is
 * not woven: it stops through {@link Thread#interrupt()}, which {@link #interruptSnippetThreads()} sends to every
 * platform thread that is running snippet code.
 *
 * <p>Memory-consistency effects: the request is a volatile write; a thread that calls {@code check()} after it
 * sees the request.
 *
 * <pre>{@code
 * CellStop.request();                 // from the interrupt handler
 * CellStop.interruptSnippetThreads(); // wake snippet threads blocked in sleep, join, awaitTermination ...
 * // ... snippet threads end with CellInterruptedError or InterruptedException ...
 * CellStop.awaitNoSnippetThreads(1, TimeUnit.SECONDS);
 * CellStop.clear();                   // before the next cell runs
 * }</pre>
 */
public final class CellStop {

    /** JShell compiles every snippet into a class of this package. */
    public static final String SNIPPET_PACKAGE = "REPL";

    private static volatile boolean requested;

    private CellStop() {}

    /** Called by woven snippet code: throws {@link CellInterruptedError} while a stop is requested. */
    public static void check() {
        if (requested) {
            throw new CellInterruptedError();
        }
    }

    /** Asks every running snippet to stop at its next check. */
    public static void request() {
        requested = true;
    }

    /** Lets snippets run again (the next cell starts). */
    public static void clear() {
        requested = false;
    }

    public static boolean isRequested() {
        return requested;
    }

    /**
     * Makes threads that end with {@link CellInterruptedError} end silently: without this, every background
     * thread of an interrupted cell would print its stack trace, into the output of whatever cell runs next.
     * Other uncaught exceptions are reported as before.
     */
    public static void installQuietUncaughtHandler() {
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> {
            if (error instanceof CellInterruptedError) {
                return;
            }
            if (previous != null) {
                previous.uncaughtException(thread, error);
            } else {
                System.err.print("Exception in thread \"" + thread.getName() + "\" ");
                error.printStackTrace(System.err);
            }
        });
    }

    /** True if {@code className} (binary name, dots) is a JShell snippet class or one nested in it. */
    public static boolean isSnippetClass(String className) {
        return className != null && className.startsWith(SNIPPET_PACKAGE + ".");
    }

    /** True if {@code stack} has a frame of snippet code. */
    public static boolean runsSnippetCode(StackTraceElement[] stack) {
        for (StackTraceElement e : stack) {
            if (isSnippetClass(e.getClassName())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Interrupts every live platform thread, other than the caller, that is running snippet code. Virtual threads
     * are not listed by {@link Thread#getAllStackTraces()}: they stop at their next woven check instead.
     *
     * @return how many threads were interrupted
     */
    public static int interruptSnippetThreads() {
        int n = 0;
        Thread self = Thread.currentThread();
        for (Map.Entry<Thread, StackTraceElement[]> e :
                Thread.getAllStackTraces().entrySet()) {
            Thread t = e.getKey();
            if (t != self && t.isAlive() && runsSnippetCode(e.getValue())) {
                t.interrupt();
                n++;
            }
        }
        return n;
    }

    /** The number of live platform threads, other than the caller, that are running snippet code now. */
    public static int snippetThreadCount() {
        int n = 0;
        Thread self = Thread.currentThread();
        for (Map.Entry<Thread, StackTraceElement[]> e :
                Thread.getAllStackTraces().entrySet()) {
            if (e.getKey() != self && e.getKey().isAlive() && runsSnippetCode(e.getValue())) {
                n++;
            }
        }
        return n;
    }

    /**
     * Waits until no platform thread runs snippet code, or the timeout passes, interrupting them again every
     * 100 ms (a thread may have caught the first interrupt).
     *
     * @return the number of snippet threads still running at the end (0 when all ended)
     */
    public static int awaitNoSnippetThreads(long timeout, TimeUnit unit) {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        long nextInterrupt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        while (true) {
            int left = snippetThreadCount();
            if (left == 0 || System.nanoTime() - deadline >= 0) {
                return left;
            }
            if (System.nanoTime() - nextInterrupt >= 0) {
                interruptSnippetThreads();
                nextInterrupt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return snippetThreadCount();
            }
        }
    }
}
