package course.exercises.iocpu;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A correct Workloads of another shape: the formula as (W + C) / C on the durations' nanoseconds, the checks in
 * another order, a ThreadPoolExecutor built by hand and a thread-per-task executor from a virtual factory.
 */
public final class Workloads {
    private Workloads() {
    }

    public static int poolSize(int cores, double targetUtilization, Duration wait, Duration compute) {
        if (compute.compareTo(Duration.ZERO) <= 0 || wait.compareTo(Duration.ZERO) < 0) {
            throw new IllegalArgumentException("compute must be positive and wait not negative");
        }
        if (cores <= 0 || !(targetUtilization > 0.0 && targetUtilization <= 1.0)) { // NaN is not in (0, 1]
            throw new IllegalArgumentException("cores >= 1 and 0 < targetUtilization <= 1");
        }
        double busy = cores * targetUtilization;
        double threads = busy * wait.plus(compute).toNanos() / compute.toNanos();
        return (int) Math.ceil(threads);
    }

    public static ExecutorService executorFor(WorkloadKind kind) {
        if (kind == WorkloadKind.CPU_BOUND) {
            int n = Runtime.getRuntime().availableProcessors();
            return new ThreadPoolExecutor(n, n, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
        }
        if (kind == WorkloadKind.IO_BOUND) {
            return Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("io-", 0).factory());
        }
        throw new NullPointerException("kind");
    }
}
