package course.exercises.threadcost;

import java.time.Duration;
import java.util.Objects;

/**
 * Measures what it costs to start and finish many threads of one kind.
 *
 * <p>Reference solution of exercise 01.
 */
public final class ThreadCost {
    private ThreadCost() {
    }

    /**
     * Starts {@code count} threads from {@code builder}, each running {@code task}, and waits until all of
     * them have terminated. Every thread is started before any is joined.
     *
     * @param builder the builder that creates each thread
     * @param count   how many threads to start
     * @param task    the task every thread runs
     * @return the wall time elapsed from before the first start until after the last thread terminated
     * @throws IllegalArgumentException if {@code count < 0}
     * @throws InterruptedException     if the calling thread is interrupted while waiting
     */
    public static Duration startAll(Thread.Builder builder, int count, Runnable task) throws InterruptedException {
        Objects.requireNonNull(builder, "builder");
        Objects.requireNonNull(task, "task");
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, was " + count);
        }
        long start = System.nanoTime();
        Thread[] threads = new Thread[count];
        for (int i = 0; i < count; i++) {
            threads[i] = builder.start(task);
        }
        // forgets to wait for the threads
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
