package course.exercises.cafe;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A correct serve of another shape: plain Runnables handed to execute(), a latch counted down by each brew
 * whatever happens, and an interrupted brew that restores its flag and goes unserved (serve returns, one short).
 */
public final class Cafe {
    private Cafe() {
    }

    public static CafeReport serve(int customers, Duration brewTime, ExecutorService staff)
            throws InterruptedException {
        if (customers < 0 || brewTime.isNegative()) { // brewTime.isNegative() throws the NullPointerException
            throw new IllegalArgumentException("customers " + customers + ", brewTime " + brewTime);
        }
        Objects.requireNonNull(staff, "staff");
        CountDownLatch done = new CountDownLatch(customers);
        AtomicInteger brewing = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicInteger served = new AtomicInteger();
        long start = System.nanoTime();
        for (int i = 0; i < customers; i++) {
            staff.execute(() -> {
                try {
                    peak.accumulateAndGet(brewing.incrementAndGet(), Math::max);
                    try {
                        Thread.sleep(brewTime);
                        served.incrementAndGet();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt(); // not brewed, so not served
                    } finally {
                        brewing.decrementAndGet();
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        done.await();
        long elapsed = System.nanoTime() - start;
        return new CafeReport(served.get(), Duration.ofNanos(elapsed), peak.get());
    }
}
