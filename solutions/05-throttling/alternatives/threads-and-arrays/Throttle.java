package course.exercises.throttling;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;

/**
 * A correct Throttle of another shape: no executor; a virtual thread started per call, outcomes in arrays indexed
 * by the call's position, every thread joined, then the first failure in list order rethrown.
 */
public final class Throttle {
    private Throttle() {
    }

    @SuppressWarnings("unchecked")
    public static <T> List<T> callAll(List<? extends Callable<T>> calls, int maxInFlight)
            throws InterruptedException, ExecutionException {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight < 1");
        }
        int n = calls.size();
        Object[] results = new Object[n];
        Throwable[] failures = new Throwable[n];
        Thread[] threads = new Thread[n];
        Semaphore permits = new Semaphore(maxInFlight);
        for (int i = 0; i < n; i++) {
            int k = i;
            Callable<T> call = calls.get(i);
            threads[i] = Thread.ofVirtual().start(() -> {
                try {
                    permits.acquire();
                } catch (InterruptedException e) {
                    failures[k] = e;
                    return;
                }
                try {
                    results[k] = call.call();
                } catch (Throwable t) {
                    failures[k] = t;
                } finally {
                    permits.release();
                }
            });
        }
        for (Thread t : threads) {
            t.join();
        }
        for (Throwable f : failures) {
            if (f != null) {
                throw new ExecutionException(f);
            }
        }
        return (List<T>) Arrays.asList(results);
    }
}
