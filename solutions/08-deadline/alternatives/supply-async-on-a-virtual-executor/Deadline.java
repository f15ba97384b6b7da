package course.exercises.deadline;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Exercise 08, another shape: {@link CompletableFuture#supplyAsync} on a virtual-thread-per-task executor of its
 * own (not the common pool). {@code cancel(true)} would not interrupt a {@code CompletableFuture}'s task, so a
 * time-out shuts the executor down now, which does, and closing the executor waits for the call to end.
 */
public final class Deadline {
    private Deadline() {
    }

    public static <T> T call(Callable<T> downstream, Duration budget)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(downstream, "downstream");
        Objects.requireNonNull(budget, "budget");
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            CompletableFuture<T> result = CompletableFuture.supplyAsync(() -> {
                try {
                    return downstream.call();
                } catch (Exception e) {
                    throw new CompletionException(e); // get() unwraps it: the cause is the call's own exception
                }
            }, executor);
            try {
                return result.get(budget.toNanos(), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | InterruptedException e) {
                executor.shutdownNow();
                throw e;
            }
        }
    }
}
