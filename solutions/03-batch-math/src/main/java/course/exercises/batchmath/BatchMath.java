package course.exercises.batchmath;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * The arithmetic behind fixed thread pools and Little's law. Reference solution of exercise 03.
 */
public final class BatchMath {
    private static final double NANOS_PER_SECOND = 1_000_000_000.0;

    private BatchMath() {
    }

    /**
     * Returns {@code ceil(tasks / workers) · taskTime}.
     *
     * @param tasks    the number of tasks
     * @param workers  the pool size
     * @param taskTime how long each task takes
     * @return the batch time
     * @throws IllegalArgumentException on bad arguments
     */
    public static Duration fixedPoolTime(int tasks, int workers, Duration taskTime) {
        Objects.requireNonNull(taskTime, "taskTime");
        if (tasks < 0) {
            throw new IllegalArgumentException("tasks must be >= 0, was " + tasks);
        }
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be >= 1, was " + workers);
        }
        if (taskTime.isNegative()) {
            throw new IllegalArgumentException("taskTime must not be negative, was " + taskTime);
        }
        long batches = (tasks + (long) workers - 1) / workers;
        return taskTime.multipliedBy(batches);
    }

    /**
     * Returns the makespan of a FIFO fixed pool: each task, in list order, goes to the worker that becomes
     * free first.
     *
     * @param taskTimes each task's duration, in submission order
     * @param workers   the pool size
     * @return the time at which the last task ends
     * @throws IllegalArgumentException on bad arguments
     */
    public static Duration makespan(List<Duration> taskTimes, int workers) {
        Objects.requireNonNull(taskTimes, "taskTimes");
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be >= 1, was " + workers);
        }
        // Only as many workers as there are tasks can ever be busy: workers may be Integer.MAX_VALUE.
        int busy = Math.min(workers, Math.max(1, taskTimes.size()));
        PriorityQueue<Duration> freeAt = new PriorityQueue<>();
        for (int i = 0; i < busy; i++) {
            freeAt.add(Duration.ZERO);
        }
        Duration end = Duration.ZERO;
        for (Duration time : taskTimes) {
            Objects.requireNonNull(time, "task time");
            if (time.isNegative()) {
                throw new IllegalArgumentException("task times must not be negative, was " + time);
            }
            Duration done = freeAt.poll().plus(time);
            freeAt.add(done);
            if (done.compareTo(end) > 0) {
                end = done;
            }
        }
        return end;
    }

    /**
     * Returns Little's law throughput {@code concurrency / latency}, per second.
     *
     * @param concurrency the number of tasks in flight
     * @param latency     how long each task takes
     * @return tasks per second
     * @throws IllegalArgumentException on bad arguments
     */
    public static double throughputPerSecond(int concurrency, Duration latency) {
        Objects.requireNonNull(latency, "latency");
        if (concurrency < 0) {
            throw new IllegalArgumentException("concurrency must be >= 0, was " + concurrency);
        }
        requirePositive(latency);
        return concurrency * NANOS_PER_SECOND / latency.toNanos();
    }

    /**
     * Returns {@code ceil(arrivalsPerSecond · latency)}, latency in seconds.
     *
     * @param arrivalsPerSecond the arrival rate
     * @param latency           how long each task takes
     * @return the concurrency needed
     * @throws IllegalArgumentException on bad arguments
     */
    public static int concurrencyFor(double arrivalsPerSecond, Duration latency) {
        Objects.requireNonNull(latency, "latency");
        if (!(arrivalsPerSecond >= 0) || Double.isInfinite(arrivalsPerSecond)) {
            throw new IllegalArgumentException("arrivalsPerSecond must be finite and >= 0, was " + arrivalsPerSecond);
        }
        requirePositive(latency);
        return (int) Math.ceil(arrivalsPerSecond * latency.toNanos() / NANOS_PER_SECOND);
    }

    private static void requirePositive(Duration latency) {
        if (latency.isZero() || latency.isNegative()) {
            throw new IllegalArgumentException("latency must be positive, was " + latency);
        }
    }
}
