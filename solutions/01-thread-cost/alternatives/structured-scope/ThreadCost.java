package course.exercises.threadcost;

import java.time.Duration;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;

/**
 * A correct startAll of another shape (JDK 25 preview API): a structured task scope whose threads come from the
 * builder; awaitAll() waits for every subtask whatever it throws, and close() waits for every thread to end.
 */
public final class ThreadCost {
    private ThreadCost() {
    }

    public static Duration startAll(Thread.Builder builder, int count, Runnable task) throws InterruptedException {
        if (count < 0) {
            throw new IllegalArgumentException("count < 0: " + count);
        }
        long start = System.nanoTime();
        try (var scope = StructuredTaskScope.open(Joiner.<Object>awaitAll(),
                cf -> cf.withThreadFactory(builder.factory()))) {
            for (int i = 0; i < count; i++) {
                scope.fork(task);
            }
            scope.join();
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
