package course.exercises.cafe;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/** A correct serve with CompletableFuture.runAsync on the staff and one allOf to wait for every drink. */
public final class Cafe {
    private Cafe() {
    }

    public static CafeReport serve(int customers, Duration brewTime, ExecutorService staff)
            throws InterruptedException {
        Objects.requireNonNull(brewTime, "brewTime");
        Objects.requireNonNull(staff, "staff");
        if (customers < 0 || brewTime.isNegative()) {
            throw new IllegalArgumentException("customers " + customers + ", brewTime " + brewTime);
        }
        AtomicInteger brewing = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicInteger served = new AtomicInteger();
        long start = System.nanoTime();
        CompletableFuture<?>[] drinks = new CompletableFuture<?>[customers];
        for (int i = 0; i < customers; i++) {
            drinks[i] = CompletableFuture.runAsync(() -> {
                peak.accumulateAndGet(brewing.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(brewTime);
                    served.incrementAndGet();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // cut short: not served
                } finally {
                    brewing.decrementAndGet();
                }
            }, staff);
        }
        try {
            CompletableFuture.allOf(drinks).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("a brew failed", e.getCause());
        }
        return new CafeReport(served.get(), Duration.ofNanos(System.nanoTime() - start), peak.get());
    }
}
