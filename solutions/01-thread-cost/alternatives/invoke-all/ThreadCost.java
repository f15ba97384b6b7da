package course.exercises.threadcost;

import java.time.Duration;
import java.util.Collections;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;

/**
 * A correct startAll of another shape: invokeAll on an executor that starts a new thread from the builder for each
 * task. invokeAll returns once every task has ended; what a task threw stays in its Future, never read.
 */
public final class ThreadCost {
    private ThreadCost() {
    }

    public static Duration startAll(Thread.Builder builder, int count, Runnable task) throws InterruptedException {
        if (count < 0) {
            throw new IllegalArgumentException("count < 0: " + count);
        }
        long start = System.nanoTime();
        try (var threads = Executors.newThreadPerTaskExecutor(builder.factory())) {
            threads.invokeAll(Collections.nCopies(count, Executors.callable(task)));
        } // close() waits until every thread has terminated
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
