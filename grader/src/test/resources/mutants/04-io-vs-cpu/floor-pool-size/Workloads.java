package course.exercises.iocpu;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Sizing and choosing executors for CPU-bound and I/O-bound work. Reference solution of exercise 04.
 */
public final class Workloads {
    private Workloads() {
    }

    /**
     * Returns {@code ceil(cores · targetUtilization · (1 + wait / compute))}.
     *
     * @param cores             the number of cores
     * @param targetUtilization the fraction of the cores to keep busy
     * @param wait              the time each task waits
     * @param compute           the time each task computes
     * @return the pool size
     * @throws IllegalArgumentException on bad arguments
     */
    public static int poolSize(int cores, double targetUtilization, Duration wait, Duration compute) {
        Objects.requireNonNull(wait, "wait");
        Objects.requireNonNull(compute, "compute");
        if (cores < 1) {
            throw new IllegalArgumentException("cores must be >= 1, was " + cores);
        }
        if (!(targetUtilization > 0 && targetUtilization <= 1)) {
            throw new IllegalArgumentException("targetUtilization must be in (0, 1], was " + targetUtilization);
        }
        if (wait.isNegative()) {
            throw new IllegalArgumentException("wait must not be negative, was " + wait);
        }
        if (compute.isZero() || compute.isNegative()) {
            throw new IllegalArgumentException("compute must be positive, was " + compute);
        }
        double ratio = (double) wait.toNanos() / compute.toNanos();
        return (int) (cores * targetUtilization * (1 + ratio)); // truncates instead of rounding up
    }

    /**
     * Returns a fixed platform pool of {@code availableProcessors()} threads for CPU-bound work, and a
     * virtual-thread-per-task executor for I/O-bound work.
     *
     * @param kind the kind of work
     * @return a new executor
     */
    public static ExecutorService executorFor(WorkloadKind kind) {
        return switch (Objects.requireNonNull(kind, "kind")) {
            case CPU_BOUND -> Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
            case IO_BOUND -> Executors.newVirtualThreadPerTaskExecutor();
        };
    }
}
