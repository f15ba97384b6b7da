package course.exercises.deadline;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Exercise 08, another shape: a virtual-thread-per-task executor for each call. {@code shutdownNow} interrupts
 * the call's thread (a task already handed its thread still runs, so the call always starts), and
 * {@code close} waits until it has ended, keeping an interrupt that arrives meanwhile.
 */
public final class Deadline {
    private Deadline() {
    }

    public static <T> T call(Callable<T> downstream, Duration budget)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(downstream, "downstream");
        Objects.requireNonNull(budget, "budget");
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<T> future = executor.submit(downstream);
            try {
                return future.get(budget.toNanos(), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | InterruptedException e) {
                executor.shutdownNow(); // interrupts the call; close() below waits for it to end
                throw e;
            }
        }
    }
}
