package course.kit.models;

import course.kit.Band;
import course.kit.Calibration;
import course.kit.Format;
import java.time.Duration;
import java.util.Objects;

/**
 * The arithmetic of a fixed pool, and the allowances behind every band of the course that counts waves and threads
 * (the lessons' CPU-bound and ratio bands add their own terms, derived where they are used).
 *
 * <p><b>Waves.</b> N equal tasks of length t on a fixed pool of P threads run in ⌈N/P⌉ waves, so the batch
 * takes ⌈N/P⌉·t. A measurement can never be shorter: some thread runs ⌈N/P⌉ tasks one after another, and a
 * sleep never ends early.
 *
 * <p><b>Slack.</b> It can only be longer, by the overheads that ⌈N/P⌉·t leaves out. {@link #slack} bounds
 * them from above with four {@link Allowances}:
 * <ul>
 *   <li>{@code fixed}: creating, submitting to and closing the executor, first-use class loading, one young GC
 *       pause (submitting 10,000 tasks to a queue alone costs 10–30 ms): 50 ms;</li>
 *   <li>{@code perWave}: a sleep overshoots (Linux's timer slack is 50 µs), and the wave's threads must wake,
 *       take their next task and sleep again: 4 ms;</li>
 *   <li>{@code perPlatformThread}: {@value #PLATFORM_FACTOR} × this machine's {@link Calibration} of one platform
 *       thread (created and retired with hundreds alive). A pool of thousands pays more per thread than the
 *       calibration's batch of 500: 1–3.5× on the 2-core machines the course was tried on;</li>
 *   <li>{@code perVirtualThread}: {@value #VIRTUAL_FACTOR} × this machine's calibration of one virtual thread, which
 *       is measured warm; the first virtual-thread run of a JVM runs interpreted code, 3–8× slower.</li>
 * </ul>
 * The appendix notebook (90) derives each allowance and shows their spread on a quiet and a busy machine.
 */
public final class PoolModel {
    /** Creating, submitting to and closing the executor, class loading, one young GC pause. */
    public static final Duration SLACK_FIXED = Duration.ofMillis(50);
    /** How late one wave may end: timer slack plus waking the wave's threads on 2 busy cores. */
    public static final Duration SLACK_PER_WAVE = Duration.ofMillis(4);
    /** Creating, starting and retiring one platform thread, with thousands alive at once. */
    public static final Duration SLACK_PER_PLATFORM_THREAD = Duration.ofMillis(1);
    /** Creating, starting, parking, waking and ending one virtual thread, cold code included. */
    public static final Duration SLACK_PER_VIRTUAL_THREAD = Duration.ofNanos(15_000);

    /** The per-platform-thread allowance, in multiples of this machine's calibrated cost. */
    public static final int PLATFORM_FACTOR = 4;
    /** The per-virtual-thread allowance, in multiples of this machine's calibrated (warm) cost. */
    public static final int VIRTUAL_FACTOR = 8;

    private PoolModel() {}

    /**
     * The four allowances behind {@link #slack}.
     *
     * @param fixed             once per run
     * @param perWave           once per wave on the longest chain
     * @param perPlatformThread once per platform thread the run creates
     * @param perVirtualThread  once per virtual thread the run creates
     */
    public record Allowances(Duration fixed, Duration perWave, Duration perPlatformThread, Duration perVirtualThread) {
        /** The constants the course used before it calibrated: a quiet or busy 2-core VM. */
        public static final Allowances TWO_CORE_VM =
                new Allowances(SLACK_FIXED, SLACK_PER_WAVE, SLACK_PER_PLATFORM_THREAD, SLACK_PER_VIRTUAL_THREAD);

        /** Allowances grown from a calibration: the per-thread ones are multiples of its measured costs. */
        public static Allowances from(Calibration c) {
            return new Allowances(
                    SLACK_FIXED,
                    SLACK_PER_WAVE,
                    c.platformThread().multipliedBy(PLATFORM_FACTOR),
                    c.virtualThread().multipliedBy(VIRTUAL_FACTOR));
        }

        /** This machine's allowances ({@link Calibration#here()}). */
        public static Allowances here() {
            return from(Calibration.here());
        }

        /** {@code fixed + waves·perWave + platformThreads·perPlatformThread + virtualThreads·perVirtualThread}. */
        public Duration slack(int waves, int platformThreads, int virtualThreads) {
            if (waves < 0 || platformThreads < 0 || virtualThreads < 0) {
                throw new IllegalArgumentException("waves and thread counts cannot be negative: " + waves + ", "
                        + platformThreads + ", " + virtualThreads);
            }
            return fixed.plus(perWave.multipliedBy(waves))
                    .plus(perPlatformThread.multipliedBy(platformThreads))
                    .plus(perVirtualThread.multipliedBy(virtualThreads));
        }
    }

    /** ⌈tasks / poolSize⌉: how many waves the tasks make on a pool of {@code poolSize} threads; 0 for no tasks. */
    public static int waves(int tasks, int poolSize) {
        if (tasks < 0) throw new IllegalArgumentException("the number of tasks cannot be negative: " + tasks);
        if (poolSize < 1) throw new IllegalArgumentException("a pool needs at least 1 thread, not " + poolSize);
        return (int) ((tasks + (long) poolSize - 1) / poolSize);
    }

    /** ⌈tasks / poolSize⌉ · taskTime: N equal tasks on a fixed pool of P threads. */
    public static Duration batchTime(int tasks, int poolSize, Duration taskTime) {
        Objects.requireNonNull(taskTime, "taskTime");
        if (taskTime.isNegative()) throw new IllegalArgumentException("taskTime cannot be negative: " + taskTime);
        return taskTime.multipliedBy(waves(tasks, poolSize));
    }

    /**
     * How far past its prediction a measurement may land on this machine: {@link Allowances#slack} with
     * {@link Allowances#here()} (the first call calibrates, about a second).
     *
     * @param waves           tasks run one after another on the longest chain
     * @param platformThreads platform threads the run creates
     * @param virtualThreads  virtual threads the run creates
     */
    public static Duration slack(int waves, int platformThreads, int virtualThreads) {
        return Allowances.here().slack(waves, platformThreads, virtualThreads);
    }

    /** {@link #slack} for {@code tasks} equal tasks on a fixed pool of {@code poolSize}, or one virtual thread each when 0. */
    public static Duration slackFor(int tasks, int poolSize) {
        return slackFor(tasks, poolSize, Allowances.here());
    }

    /** {@link #slackFor(int, int)} with the given allowances. */
    public static Duration slackFor(int tasks, int poolSize, Allowances allowances) {
        return poolSize == 0
                ? allowances.slack(0, 0, tasks) // the single wave's wake-ups are in the per-thread allowance
                : allowances.slack(waves(tasks, poolSize), Math.min(poolSize, tasks), 0);
    }

    /**
     * The band a timing check accepts for {@code tasks} equal tasks of {@code taskTime} on a fixed pool of
     * {@code poolSize} threads, or one virtual thread each when {@code poolSize} is 0: from ⌈N/P⌉·t up to that
     * plus {@link #slackFor}, in milliseconds.
     */
    public static Band band(int tasks, int poolSize, Duration taskTime) {
        int waves = poolSize == 0 ? (tasks == 0 ? 0 : 1) : waves(tasks, poolSize);
        double lo = taskTime.multipliedBy(waves).toNanos() / 1e6;
        double slack = slackFor(tasks, poolSize).toNanos() / 1e6;
        String why = String.format(
                java.util.Locale.ROOT,
                "%d wave%s × %s, + up to %,.0f ms for %s",
                waves,
                waves == 1 ? "" : "s",
                Format.duration(taskTime),
                slack,
                poolSize == 0
                        ? String.format(
                                java.util.Locale.ROOT, "starting %,d virtual thread%s", tasks, tasks == 1 ? "" : "s")
                        : String.format(
                                java.util.Locale.ROOT,
                                "%,d platform thread%s and the waves' wake-ups",
                                Math.min(poolSize, tasks),
                                Math.min(poolSize, tasks) == 1 ? "" : "s"));
        return new Band(lo, lo + slack, "ms", why);
    }

    /** Little's law: L tasks in flight, each taking W, complete at λ = L / W tasks per second. */
    public static double littleThroughput(int concurrency, Duration latency) {
        if (concurrency < 0) throw new IllegalArgumentException("concurrency cannot be negative: " + concurrency);
        if (Objects.requireNonNull(latency, "latency").isNegative() || latency.isZero())
            throw new IllegalArgumentException("latency must be positive, not " + latency);
        return concurrency / (latency.toNanos() / 1e9);
    }
}
