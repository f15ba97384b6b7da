package course.exercises.batchmath;

import java.time.Duration;
import java.util.List;

/**
 * The arithmetic behind fixed thread pools and Little's law: how long a batch takes on a pool of a given
 * size, and how much concurrency a given throughput needs.
 *
 * <p>Exercise 03 of the course: implement the four methods. The notebook
 * {@code notebooks/03-fixed-pool-batch-math.ipynb} loads this class in its "Your turn" section, checks the
 * makespans that {@link #makespan} predicts against runs on a real fixed pool of 3 threads, and draws
 * {@link #fixedPoolTime} and {@link #throughputPerSecond} over the batches and closed loops it measured;
 * {@link #concurrencyFor} is graded by the tests only.
 */
public final class BatchMath {
    private BatchMath() {
    }

    /**
     * Returns how long a fixed pool of {@code workers} threads takes to run {@code tasks} tasks that each
     * take exactly {@code taskTime}: the tasks run in batches of {@code workers}, and a last, partial batch
     * takes a full {@code taskTime}. The result is {@code ceil(tasks / workers) · taskTime}.
     *
     * <pre>{@code
     * BatchMath.fixedPoolTime(10_000, 200, Duration.ofSeconds(1));  // PT50S
     * BatchMath.fixedPoolTime(10, 3, Duration.ofSeconds(1));         // PT4S: batches of 3, 3, 3 and 1
     * }</pre>
     *
     * @param tasks    the number of tasks, {@code >= 0}
     * @param workers  the pool size, {@code >= 1}
     * @param taskTime how long each task takes, not negative
     * @return {@code ceil(tasks / workers) · taskTime}; {@link Duration#ZERO} when {@code tasks == 0}
     * @throws IllegalArgumentException if {@code tasks < 0}, {@code workers < 1} or {@code taskTime} is negative
     * @throws NullPointerException     if {@code taskTime} is {@code null}
     */
    public static Duration fixedPoolTime(int tasks, int workers, Duration taskTime) {
        throw new UnsupportedOperationException("BatchMath.fixedPoolTime is not written yet (see the README)");
    }

    /**
     * Returns the makespan (the time until the last task ends) of running {@code taskTimes} on a fixed pool
     * of {@code workers} threads that takes tasks first-in, first-out.
     *
     * <p>All workers start free at time zero. The tasks are taken in list order; each one goes to the worker
     * that becomes free first (any of them, on a tie) and occupies it for its duration. Tasks are never
     * reordered, for example longest first.
     *
     * <pre>{@code
     * // two workers: A runs 3 s; B runs 1 s, 1 s, 1 s
     * BatchMath.makespan(List.of(ofSeconds(3), ofSeconds(1), ofSeconds(1), ofSeconds(1)), 2);  // PT3S
     * // two workers: A runs 1 s, 1 s; B runs 1 s, 3 s
     * BatchMath.makespan(List.of(ofSeconds(1), ofSeconds(1), ofSeconds(1), ofSeconds(3)), 2);  // PT4S
     * }</pre>
     *
     * @param taskTimes each task's duration, in submission order; none negative
     * @param workers   the pool size, {@code >= 1}
     * @return the time at which the last task ends; {@link Duration#ZERO} for no tasks
     * @throws IllegalArgumentException if {@code workers < 1} or a task time is negative
     * @throws NullPointerException     if {@code taskTimes} or one of its elements is {@code null}
     */
    public static Duration makespan(List<Duration> taskTimes, int workers) {
        throw new UnsupportedOperationException("BatchMath.makespan is not written yet (see the README)");
    }

    /**
     * Returns the throughput, in tasks per second, of a system that keeps {@code concurrency} tasks in
     * flight, each taking {@code latency}: Little's law, {@code λ = L / W}.
     *
     * <pre>{@code
     * BatchMath.throughputPerSecond(200, Duration.ofSeconds(1));    // 200.0
     * BatchMath.throughputPerSecond(10, Duration.ofMillis(500));    // 20.0
     * }</pre>
     *
     * @param concurrency the number of tasks in flight, {@code >= 0}
     * @param latency     how long each task takes, strictly positive
     * @return {@code concurrency / latency-in-seconds}
     * @throws IllegalArgumentException if {@code concurrency < 0} or {@code latency} is zero or negative
     * @throws NullPointerException     if {@code latency} is {@code null}
     */
    public static double throughputPerSecond(int concurrency, Duration latency) {
        throw new UnsupportedOperationException("BatchMath.throughputPerSecond is not written yet (see the README)");
    }

    /**
     * Returns the number of tasks that must be in flight to sustain {@code arrivalsPerSecond} arrivals per
     * second when each takes {@code latency}: Little's law, {@code L = λ · W}, rounded up to a whole task.
     *
     * <pre>{@code
     * BatchMath.concurrencyFor(40, Duration.ofMillis(250));   // 10
     * BatchMath.concurrencyFor(7, Duration.ofMillis(300));    // 3 (2.1 rounded up)
     * }</pre>
     *
     * @param arrivalsPerSecond the arrival rate λ, finite and {@code >= 0}
     * @param latency           how long each task takes, strictly positive
     * @return {@code ceil(λ · W)}, with W in seconds
     * @throws IllegalArgumentException if {@code arrivalsPerSecond} is negative or not finite, or
     *                                  {@code latency} is zero or negative
     * @throws NullPointerException     if {@code latency} is {@code null}
     */
    public static int concurrencyFor(double arrivalsPerSecond, Duration latency) {
        throw new UnsupportedOperationException("BatchMath.concurrencyFor is not written yet (see the README)");
    }
}
