package course.exercises.throttling;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * A correct Throttle of another shape (notebook 05, section 3): the submitting loop takes the permit before it
 * starts a call's thread, and the thread gives it back when its call ends. At most maxInFlight threads are alive.
 */
public final class Throttle {
    private Throttle() {
    }

    public static <T> List<T> callAll(List<? extends Callable<T>> calls, int maxInFlight)
            throws InterruptedException, ExecutionException {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be >= 1, was " + maxInFlight);
        }
        Semaphore permits = new Semaphore(maxInFlight);
        List<Future<T>> futures = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Callable<T> call : calls) {
                permits.acquire(); // the loop waits here while maxInFlight calls run
                futures.add(threads.submit(() -> {
                    try {
                        return call.call();
                    } finally {
                        permits.release();
                    }
                }));
            }
        }
        List<T> results = new ArrayList<>();
        for (Future<T> f : futures) {
            results.add(f.get());
        }
        return results;
    }
}
