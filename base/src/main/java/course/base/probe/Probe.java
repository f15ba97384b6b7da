package course.base.probe;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts what happens inside tasks, so that a test or a notebook can prove how work was scheduled without
 * measuring any time.
 *
 * <p>A task calls {@link #enter()} when it starts its work and {@link #exit()} when it ends (or is wrapped
 * with {@link #wrap(Runnable)}, {@link #wrap(Callable)} or {@link #wrapChecked(ThrowingRunnable)}, which do
 * both, exit in a {@code finally}). The
 * probe keeps the number of tasks in flight, the highest number ever in flight at once ({@link #peak()}),
 * how many tasks entered, on which kind of thread they ran, and on how many distinct threads.
 *
 * <p>Memory consistency: all counters are atomic; a value read after {@code ExecutorService.close()} (or
 * any other happens-before edge with the tasks' ends) reflects every task.
 *
 * <pre>{@code
 * var probe = new Probe();
 * try (var pool = Executors.newFixedThreadPool(4)) {
 *     for (int i = 0; i < 100; i++) pool.submit(probe.wrapChecked(() -> Thread.sleep(10)));
 * }
 * assert probe.peak() == 4 && probe.platformCount() == 100;
 * }</pre>
 */
public final class Probe {
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final AtomicInteger entered = new AtomicInteger();
    private final AtomicInteger exited = new AtomicInteger();
    private final AtomicInteger virtual = new AtomicInteger();
    private final AtomicInteger platform = new AtomicInteger();
    private final Set<Long> threads = ConcurrentHashMap.newKeySet();

    /** A task that throws checked exceptions, for {@link #wrapChecked(ThrowingRunnable)}. */
    @FunctionalInterface
    public interface ThrowingRunnable {
        /** Runs the task. @throws Exception whatever the task throws */
        void run() throws Exception;
    }

    /** Records that the calling thread started a task: counts it, its thread kind, and updates the peak. */
    public void enter() {
        entered.incrementAndGet();
        if (Thread.currentThread().isVirtual()) virtual.incrementAndGet();
        else platform.incrementAndGet();
        threads.add(Thread.currentThread().threadId());
        int now = inFlight.incrementAndGet();
        peak.accumulateAndGet(now, Math::max);
    }

    /** Records that the calling thread finished a task it {@link #enter() entered}. */
    public void exit() {
        inFlight.decrementAndGet();
        exited.incrementAndGet();
    }

    /** Returns a runnable that runs {@code task} between {@link #enter()} and {@link #exit()}. */
    public Runnable wrap(Runnable task) {
        Objects.requireNonNull(task, "task");
        return () -> {
            enter();
            try {
                task.run();
            } finally {
                exit();
            }
        };
    }

    /** Returns a callable that runs {@code task} between {@link #enter()} and {@link #exit()}. */
    public <T> Callable<T> wrap(Callable<T> task) {
        Objects.requireNonNull(task, "task");
        return () -> {
            enter();
            try {
                return task.call();
            } finally {
                exit();
            }
        };
    }

    /**
     * Returns a callable (value {@code null}) for a task that may throw checked exceptions such as
     * {@link InterruptedException}, recorded like {@link #wrap(Callable)}. (Not an overload of {@code wrap}:
     * a block lambda that returns nothing would fit both it and {@link #wrap(Runnable)}, and javac would
     * refuse the call as ambiguous.)
     */
    public Callable<Void> wrapChecked(ThrowingRunnable task) {
        Objects.requireNonNull(task, "task");
        return wrap((Callable<Void>) () -> {
            task.run();
            return null;
        });
    }

    /** The number of tasks entered and not yet exited. */
    public int inFlight() {
        return inFlight.get();
    }

    /** The highest number of tasks that were in flight at the same moment. */
    public int peak() {
        return peak.get();
    }

    /** How many tasks entered. */
    public int entered() {
        return entered.get();
    }

    /** How many tasks exited. */
    public int exited() {
        return exited.get();
    }

    /** How many tasks entered on a virtual thread. */
    public int virtualCount() {
        return virtual.get();
    }

    /**
     * How many distinct threads entered a task: equal to {@link #entered()} when each task had a thread of its
     * own, fewer when threads were reused (a pool).
     */
    public int threads() {
        return threads.size();
    }

    /** How many tasks entered on a platform thread. */
    public int platformCount() {
        return platform.get();
    }

    @Override
    public String toString() {
        return "Probe[entered=%d, exited=%d, inFlight=%d, peak=%d, virtual=%d, platform=%d, threads=%d]"
                .formatted(entered(), exited(), inFlight(), peak(), virtualCount(), platformCount(), threads());
    }
}
