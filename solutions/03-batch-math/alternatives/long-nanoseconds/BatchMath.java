package course.exercises.batchmath;

import java.time.Duration;
import java.util.List;

/**
 * A correct BatchMath of another shape: every Duration read once into long nanoseconds, Math.ceilDiv for the
 * batches, an array of free-at times scanned for the smallest, and Little's law with the latency in seconds first.
 */
public final class BatchMath {
    private BatchMath() {
    }

    public static Duration fixedPoolTime(int tasks, int workers, Duration taskTime) {
        long t = taskTime.toNanos();
        if (tasks < 0 || workers < 1 || t < 0) {
            throw new IllegalArgumentException("tasks " + tasks + ", workers " + workers + ", taskTime " + taskTime);
        }
        return Duration.ofNanos(Math.multiplyExact(Math.ceilDiv(tasks, workers), t));
    }

    public static Duration makespan(List<Duration> taskTimes, int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers < 1: " + workers);
        }
        long[] freeAt = new long[Math.min(workers, Math.max(1, taskTimes.size()))]; // idle workers never matter
        long last = 0;
        for (Duration d : taskTimes) {
            long t = d.toNanos();
            if (t < 0) {
                throw new IllegalArgumentException("negative task time: " + d);
            }
            int first = 0;
            for (int w = 1; w < freeAt.length; w++) {
                if (freeAt[w] < freeAt[first]) {
                    first = w;
                }
            }
            freeAt[first] += t;
            last = Math.max(last, freeAt[first]);
        }
        return Duration.ofNanos(last);
    }

    public static double throughputPerSecond(int concurrency, Duration latency) {
        long w = latency.toNanos();
        if (concurrency < 0 || w <= 0) {
            throw new IllegalArgumentException("concurrency " + concurrency + ", latency " + latency);
        }
        return concurrency / (w / 1e9);
    }

    public static int concurrencyFor(double arrivalsPerSecond, Duration latency) {
        long w = latency.toNanos();
        if (!Double.isFinite(arrivalsPerSecond) || arrivalsPerSecond < 0 || w <= 0) {
            throw new IllegalArgumentException("arrivals " + arrivalsPerSecond + "/s, latency " + latency);
        }
        return (int) Math.ceil(arrivalsPerSecond * (w / 1e9));
    }
}
