package course.exercises.threadcost;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A correct startAll of another shape: an executor that starts a new thread from the builder for each task. */
public final class ThreadCost {
    private ThreadCost() {
    }

    public static Duration startAll(Thread.Builder builder, int count, Runnable task) throws InterruptedException {
        if (count < 0) {
            throw new IllegalArgumentException("count < 0: " + count);
        }
        long start = System.nanoTime();
        try (ExecutorService threads = Executors.newThreadPerTaskExecutor(builder.factory())) {
            for (int i = 0; i < count; i++) {
                threads.execute(task);
            }
        } // close() waits until every task has ended
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
