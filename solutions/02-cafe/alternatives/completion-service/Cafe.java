package course.exercises.cafe;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/** A correct serve that takes the drinks as they are ready, from an ExecutorCompletionService on the staff. */
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
        CompletionService<Boolean> counter = new ExecutorCompletionService<>(staff);
        AtomicInteger brewing = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        long start = System.nanoTime();
        for (int i = 0; i < customers; i++) {
            counter.submit(() -> {
                peak.accumulateAndGet(brewing.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(brewTime);
                    return true;
                } catch (InterruptedException e) {
                    return false; // cut short: not served
                } finally {
                    brewing.decrementAndGet();
                }
            });
        }
        int served = 0;
        for (int i = 0; i < customers; i++) {
            try {
                if (counter.take().get()) {
                    served++;
                }
            } catch (ExecutionException e) {
                throw new IllegalStateException("a brew failed", e.getCause());
            }
        }
        return new CafeReport(served, Duration.ofNanos(System.nanoTime() - start), peak.get());
    }
}
