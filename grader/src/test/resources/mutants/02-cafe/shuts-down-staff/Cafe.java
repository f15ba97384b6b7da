package course.exercises.cafe;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A cafe where every customer's drink is brewed by the staff. Reference solution of exercise 02.
 */
public final class Cafe {
    private Cafe() {
    }

    /**
     * Serves {@code customers} customers with {@code staff}, one task per customer, each brewing for
     * {@code brewTime}, and reports the number served, the elapsed time and the peak number brewing at once.
     * Does not shut down {@code staff}.
     *
     * @param customers how many customers to serve
     * @param brewTime  how long each drink brews
     * @param staff     the executor that runs one task per customer
     * @return what happened
     * @throws IllegalArgumentException if {@code customers < 0} or {@code brewTime} is negative
     * @throws InterruptedException     if the calling thread is interrupted while waiting
     */
    public static CafeReport serve(int customers, Duration brewTime, ExecutorService staff)
            throws InterruptedException {
        Objects.requireNonNull(brewTime, "brewTime");
        Objects.requireNonNull(staff, "staff");
        if (customers < 0) {
            throw new IllegalArgumentException("customers must be >= 0, was " + customers);
        }
        if (brewTime.isNegative()) {
            throw new IllegalArgumentException("brewTime must not be negative, was " + brewTime);
        }
        AtomicInteger brewing = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicInteger served = new AtomicInteger();
        long start = System.nanoTime();
        List<Future<?>> orders = new ArrayList<>(customers);
        for (int i = 0; i < customers; i++) {
            orders.add(staff.submit(() -> {
                peak.accumulateAndGet(brewing.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(brewTime);
                } finally {
                    brewing.decrementAndGet();
                }
                served.incrementAndGet();
                return null;
            }));
        }
        staff.close(); // waits for the orders, but also shuts the staff down
        for (Future<?> order : orders) {
            try {
                order.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("a brew failed", e.getCause());
            }
        }
        return new CafeReport(served.get(), Duration.ofNanos(System.nanoTime() - start), peak.get());
    }
}
