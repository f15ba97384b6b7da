package course.exercises.threadcost;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;

/**
 * A correct startAll of another shape: CompletableFuture.runAsync on an executor that starts each task on a new
 * thread from the builder and keeps it, then waits for every future and joins every thread. A task's failure
 * completes its future exceptionally, and is dropped.
 */
public final class ThreadCost {
    private ThreadCost() {
    }

    public static Duration startAll(Thread.Builder builder, int count, Runnable task) throws InterruptedException {
        if (count < 0) {
            throw new IllegalArgumentException("count < 0: " + count);
        }
        Set<Thread> started = ConcurrentHashMap.newKeySet();
        long start = System.nanoTime();
        CompletableFuture<?>[] runs = new CompletableFuture<?>[count];
        for (int i = 0; i < count; i++) {
            runs[i] = CompletableFuture.runAsync(task, command -> started.add(builder.start(command)));
        }
        CompletableFuture.allOf(runs).handle((ok, failed) -> null).join();
        for (Thread t : started) {
            t.join(); // the future completes just before its thread ends
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
