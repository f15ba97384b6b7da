package course.exercises.cafe;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/** A correct serve of another shape: the same Callable for every customer, handed to staff.invokeAll. */
public final class Cafe {
    private Cafe() {
    }

    public static CafeReport serve(int customers, Duration brewTime, ExecutorService staff)
            throws InterruptedException {
        if (brewTime == null || staff == null) {
            throw new NullPointerException("brewTime and staff must not be null");
        }
        if (customers < 0) {
            throw new IllegalArgumentException("customers < 0: " + customers);
        }
        if (brewTime.compareTo(Duration.ZERO) < 0) {
            throw new IllegalArgumentException("brewTime < 0: " + brewTime);
        }
        AtomicInteger brewing = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        Callable<Boolean> brew = () -> {
            int now = brewing.incrementAndGet();
            peak.updateAndGet(p -> Math.max(p, now));
            try {
                Thread.sleep(brewTime);
                return true;
            } finally {
                brewing.decrementAndGet();
            }
        };
        long start = System.nanoTime();
        List<Future<Boolean>> orders = staff.invokeAll(Collections.nCopies(customers, brew));
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        int served = 0;
        for (Future<Boolean> order : orders) {
            try {
                served += order.get() ? 1 : 0;
            } catch (ExecutionException e) {
                throw new RuntimeException("a brew failed", e.getCause());
            }
        }
        return new CafeReport(served, elapsed, peak.get());
    }
}
