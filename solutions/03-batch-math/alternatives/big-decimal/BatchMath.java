package course.exercises.batchmath;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A correct BatchMath of another shape: Durations throughout (a list of free-at times, the smallest replaced
 * each time), a remainder for the partial batch, and Little's law in exact decimals.
 */
public final class BatchMath {
    private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);

    private BatchMath() {
    }

    public static Duration fixedPoolTime(int tasks, int workers, Duration taskTime) {
        if (tasks < 0) {
            throw new IllegalArgumentException("tasks < 0");
        }
        if (workers < 1) {
            throw new IllegalArgumentException("workers < 1");
        }
        if (taskTime.compareTo(Duration.ZERO) < 0) {
            throw new IllegalArgumentException("taskTime < 0");
        }
        int batches = tasks / workers + (tasks % workers == 0 ? 0 : 1);
        return taskTime.multipliedBy(batches);
    }

    public static Duration makespan(List<Duration> taskTimes, int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers < 1");
        }
        // no more workers than tasks are ever busy, and workers may be Integer.MAX_VALUE
        int busy = Math.max(1, Math.min(workers, taskTimes.size()));
        List<Duration> freeAt = new ArrayList<>(Collections.nCopies(busy, Duration.ZERO));
        Duration last = Duration.ZERO;
        for (Duration time : taskTimes) {
            if (time.isNegative()) {
                throw new IllegalArgumentException("negative task time");
            }
            Duration free = Collections.min(freeAt);
            Duration end = free.plus(time);
            freeAt.set(freeAt.indexOf(free), end);
            if (end.compareTo(last) > 0) {
                last = end;
            }
        }
        return last;
    }

    private static BigDecimal seconds(Duration latency) {
        if (latency.isNegative() || latency.isZero()) {
            throw new IllegalArgumentException("latency must be positive");
        }
        return new BigDecimal(latency.toNanos()).divide(NANOS_PER_SECOND);
    }

    public static double throughputPerSecond(int concurrency, Duration latency) {
        if (concurrency < 0) {
            throw new IllegalArgumentException("concurrency < 0");
        }
        return BigDecimal.valueOf(concurrency).divide(seconds(latency), MathContext.DECIMAL64).doubleValue();
    }

    public static int concurrencyFor(double arrivalsPerSecond, Duration latency) {
        if (Double.isNaN(arrivalsPerSecond) || Double.isInfinite(arrivalsPerSecond) || arrivalsPerSecond < 0) {
            throw new IllegalArgumentException("arrivals must be finite and >= 0");
        }
        return BigDecimal.valueOf(arrivalsPerSecond)
                .multiply(seconds(latency))
                .setScale(0, RoundingMode.CEILING)
                .intValueExact();
    }
}
