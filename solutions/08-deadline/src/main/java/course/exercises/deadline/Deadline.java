package course.exercises.deadline;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Reference solution of exercise 08: a request-scoped deadline that cancels the downstream call. */
public final class Deadline {
    private Deadline() {
    }

    /** See the exercise's javadoc: the result within {@code budget}, or the call cancelled, ended, and a time-out. */
    public static <T> T call(Callable<T> downstream, Duration budget)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(downstream, "downstream");
        Objects.requireNonNull(budget, "budget");
        var result = new CompletableFuture<T>();
        Thread thread = Thread.ofVirtual().start(() -> {
            try {
                result.complete(downstream.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        try {
            return result.get(Math.max(0, budget.toNanos()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | InterruptedException e) {
            thread.interrupt();           // cancels the call: its blocking wait throws InterruptedException
            joinUninterruptibly(thread);  // and nothing of it outlives the request
            throw e;
        }
    }

    /** Waits for {@code thread} to end, even if interrupted meanwhile; restores the interrupt afterwards. */
    private static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
