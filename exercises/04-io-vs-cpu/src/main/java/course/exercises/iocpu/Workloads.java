package course.exercises.iocpu;

import java.time.Duration;
import java.util.concurrent.ExecutorService;

/**
 * Sizing and choosing executors for CPU-bound and I/O-bound work.
 *
 * <p>Exercise 04 of the course: implement both methods. The notebook {@code notebooks/04-io-vs-cpu.ipynb}
 * loads this class ({@code %exercise 04-io-vs-cpu}), runs its CPU-bound and I/O-bound tasks on the executors
 * that {@link #executorFor} returns, recorded and drawn next to the lesson's runs, and runs its mixed tasks on a
 * fixed pool of {@link #poolSize} threads.
 */
public final class Workloads {
    private Workloads() {
    }

    /**
     * Returns the classic pool size for tasks that wait {@code wait} and compute {@code compute} each time:
     * {@code ceil(cores · targetUtilization · (1 + wait / compute))}.
     *
     * <pre>{@code
     * Workloads.poolSize(8, 1.0, Duration.ofMillis(90), Duration.ofMillis(10));  // 80
     * Workloads.poolSize(4, 1.0, Duration.ZERO, Duration.ofMillis(10));          // 4: pure CPU work
     * }</pre>
     *
     * @param cores             the number of cores, {@code >= 1}
     * @param targetUtilization the fraction of the cores to keep busy: {@code 0 < U <= 1}
     * @param wait              the time each task waits, not negative
     * @param compute           the time each task computes, strictly positive
     * @return the pool size, rounded up to a whole thread
     * @throws IllegalArgumentException if {@code cores < 1}, {@code targetUtilization} is not in
     *                                  {@code (0, 1]}, {@code wait} is negative or {@code compute} is not positive
     * @throws NullPointerException     if {@code wait} or {@code compute} is {@code null}
     */
    public static int poolSize(int cores, double targetUtilization, Duration wait, Duration compute) {
        throw new UnsupportedOperationException("Workloads.poolSize is not written yet (see the README)");
    }

    /**
     * Returns a new executor suited to {@code kind}; the caller owns it and must close it.
     * <ul>
     *   <li>{@link WorkloadKind#CPU_BOUND}: a fixed pool of exactly
     *       {@code Runtime.getRuntime().availableProcessors()} platform threads; further tasks wait in its
     *       queue.</li>
     *   <li>{@link WorkloadKind#IO_BOUND}: an executor that starts one new virtual thread for each task,
     *       with no limit on how many run at once.</li>
     * </ul>
     *
     * <pre>{@code
     * try (ExecutorService io = Workloads.executorFor(WorkloadKind.IO_BOUND)) {
     *     for (int i = 0; i < 10_000; i++) io.submit(() -> Thread.sleep(1_000));
     * }   // about one second
     * }</pre>
     *
     * @param kind the kind of work
     * @return a new, running executor
     * @throws NullPointerException if {@code kind} is {@code null}
     */
    public static ExecutorService executorFor(WorkloadKind kind) {
        throw new UnsupportedOperationException("Workloads.executorFor is not written yet (see the README)");
    }
}
