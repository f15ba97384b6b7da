package course.kit;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An instrument: it records what your tasks did — when each started and ended, on which thread, platform or
 * virtual, and whether it threw — while your own code creates the executor or the threads and runs them.
 * The clock starts at {@link #start} and stops at {@link #stop}, which returns the {@link RunResult} that the
 * charts, tables and checks read.
 *
 * <pre>{@code
 * var rec = Recorder.start("fixed pool of 200", 10_000);
 * try (var staff = Executors.newFixedThreadPool(200)) {
 *     for (int i = 0; i < 10_000; i++) {
 *         staff.submit(rec.task(() -> Thread.sleep(brew)));   // your task body, recorded
 *     }
 * }                                                          // close() waits for every task
 * RunResult pool = rec.stop();
 * }</pre>
 *
 * <p>Three ways in, for three kinds of code: {@link #task} and {@link #call} wrap one task each (numbered in
 * the order you wrap them, which is the order you submit them); {@link #each} wraps one body that many threads
 * run (numbered as they start); {@link #executor} wraps an executor, so that every task anybody submits to it —
 * your exercise's code, say — is recorded.
 *
 * <p>A task wrapped by {@link #task}, {@link #each} or {@link #executor} that throws has its exception recorded
 * (the result counts it as failed) rather than printed by the thread; a {@link #call} rethrows it too, so
 * that its {@code Future} fails as it would unwrapped.
 *
 * <p>While it runs in a notebook, a progress line appears after {@link Progress#SHOW_AFTER}.
 * A recorder holds at most {@code capacity} tasks; one more throws {@link IllegalStateException}.
 * Records written by a task <i>happen-before</i> {@link #stop()} returns, provided the tasks have ended
 * (an executor's {@code close()} or a thread's {@code join()} before {@code stop()} ensures it).
 */
public final class Recorder {
    /** A task body that may throw, like {@code () -> Thread.sleep(brew)}. */
    @FunctionalInterface
    public interface Body {
        /** Runs the task. @throws Exception whatever the task throws; it is recorded as the task's failure */
        void run() throws Exception;
    }

    private final String name;
    private final String pool;
    private final long[] starts, ends, threads;
    private final boolean[] virtual;
    private volatile String[] failures;
    private final Map<Long, String> names = new ConcurrentHashMap<>();
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private final long t0;
    private final Progress progress;
    private volatile RunResult result;

    private Recorder(String name, String pool, int capacity, boolean showProgress) {
        if (capacity < 0) throw new IllegalArgumentException("capacity cannot be negative: " + capacity);
        this.name = Objects.requireNonNull(name, "name");
        this.pool = pool == null ? name : pool;
        starts = new long[capacity];
        ends = new long[capacity];
        threads = new long[capacity];
        virtual = new boolean[capacity];
        Arrays.fill(starts, -1);
        Arrays.fill(ends, -1);
        progress = showProgress ? Progress.start(name, capacity, done::get) : null;
        t0 = System.nanoTime();
    }

    /** Starts the clock for a run of up to {@code capacity} tasks, labelled {@code name} in charts and tables. */
    public static Recorder start(String name, int capacity) {
        return new Recorder(name, name, capacity, true);
    }

    /** Like {@link #start(String, int)}, with a separate description of the executor (tables show both). */
    public static Recorder start(String name, String executor, int capacity) {
        return new Recorder(name, executor, capacity, true);
    }

    /** A recorder with no progress line, for the kit's own runs and for tests. */
    static Recorder quiet(String name, String executor, int capacity) {
        return new Recorder(name, executor, capacity, false);
    }

    /** Wraps one task: the next number in submission order. */
    public Runnable task(Body body) {
        Objects.requireNonNull(body, "body");
        int index = claim();
        return () -> record(index, body);
    }

    /** Wraps one task that returns a value: the next number in submission order. */
    public <T> Callable<T> call(Callable<T> body) {
        Objects.requireNonNull(body, "body");
        int index = claim();
        return () -> {
            @SuppressWarnings("unchecked")
            T[] out = (T[]) new Object[1];
            Exception thrown = recordAndRethrow(index, () -> out[0] = body.call());
            if (thrown != null) throw thrown;
            return out[0];
        };
    }

    /** Wraps one body that many threads run (for example {@code Thread.Builder.start}): numbered as each run starts. */
    public Runnable each(Body body) {
        Objects.requireNonNull(body, "body");
        return () -> record(claim(), body);
    }

    /** Wraps {@code executor}: every task submitted to the returned executor is recorded; closing it closes {@code executor}. */
    public ExecutorService executor(ExecutorService executor) {
        return new Recording(Objects.requireNonNull(executor, "executor"));
    }

    /** How many tasks have ended so far. */
    public int done() {
        return done.get();
    }

    /** Wraps a task body for the kit's own runs, with the index chosen by the caller. */
    void run(int index, Task task) {
        next.accumulateAndGet(index + 1, Math::max);
        record(index, () -> task.run(index));
    }

    /**
     * Stops the clock and returns what was recorded. Call it after your tasks have ended (after the executor's
     * {@code close()} or every thread's {@code join()}); calling it again returns the same result.
     */
    public RunResult stop() {
        if (result == null) {
            long elapsed = System.nanoTime() - t0;
            if (progress != null) progress.close();
            int n = Math.min(next.get(), starts.length);
            String[] f = failures == null ? null : Arrays.copyOf(failures, n);
            result = new RunResult(
                    name,
                    pool,
                    elapsed,
                    Arrays.copyOf(starts, n),
                    Arrays.copyOf(ends, n),
                    Arrays.copyOf(threads, n),
                    Arrays.copyOf(virtual, n),
                    f,
                    Map.copyOf(names));
        }
        return result;
    }

    private int claim() {
        int i = next.getAndIncrement();
        if (i >= starts.length) {
            throw new IllegalStateException(String.format(
                    "%s: recorder sized for %,d tasks, and task %,d came; " + "start it with a larger capacity",
                    name, starts.length, i + 1));
        }
        return i;
    }

    /** Runs a Runnable-style task: an exception it throws is recorded as its failure, not rethrown. */
    private void record(int index, Body body) {
        Exception e = recordAndRethrow(index, body);
        if (e instanceof InterruptedException) Thread.currentThread().interrupt();
    }

    /** Runs {@code body} as task {@code index}; returns what it threw (recorded), or null. Errors propagate. */
    private Exception recordAndRethrow(int index, Body body) {
        Thread me = Thread.currentThread();
        starts[index] = System.nanoTime() - t0;
        threads[index] = me.threadId();
        virtual[index] = me.isVirtual();
        if (!me.isVirtual()) names.putIfAbsent(me.threadId(), me.getName());
        try {
            body.run();
            return null;
        } catch (Exception ex) {
            fail(index, ex);
            return ex;
        } catch (Error err) {
            fail(index, err);
            throw err;
        } finally {
            ends[index] = System.nanoTime() - t0;
            done.incrementAndGet();
        }
    }

    private void fail(int index, Throwable t) {
        synchronized (this) {
            if (failures == null) failures = new String[starts.length];
            failures[index] = t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
        }
    }

    /** An executor that records every task submitted to it, then hands it to the wrapped one. */
    private final class Recording extends ForwardingExecutor {
        Recording(ExecutorService delegate) {
            super(delegate);
        }

        @Override
        protected Runnable wrap(Runnable command) {
            return task(command::run);
        }

        @Override
        public String toString() {
            return "recorded " + delegate;
        }
    }
}
