package course.kit;

import java.time.Duration;
import java.util.Objects;

/**
 * The arithmetic of a fixed pool, and the one tolerance every timing check of the course uses.
 *
 * <p><b>Waves.</b> N equal tasks of length t on a fixed pool of P threads run in ⌈N/P⌉ waves, so the batch
 * takes ⌈N/P⌉·t. A measurement can never be shorter: some thread runs ⌈N/P⌉ tasks one after another, and a
 * sleep never ends early.
 *
 * <p><b>Slack.</b> It can only be longer, by the overheads that ⌈N/P⌉·t leaves out. {@link #slack} bounds
 * them from above with four allowances, each measured on a 2-core machine and then given room for a busy one:
 * <ul>
 *   <li>{@link #SLACK_FIXED}: creating, submitting to and closing the executor, first-use class loading, one
 *       young GC pause (submitting 10,000 tasks to a queue alone costs 10–30 ms);</li>
 *   <li>{@link #SLACK_PER_WAVE}: a sleep overshoots (Linux's timer slack is 50 µs), and the wave's threads must
 *       wake, take their next task and sleep again; well under 1 ms when the machine is quiet;</li>
 *   <li>{@link #SLACK_PER_PLATFORM_THREAD}: clone(), the 1 MB stack reservation, start and exit. One at a time
 *       about 0.1 ms (notebook 01); a pool of 10,000 spent 3.3 s creating and retiring its threads on a quiet
 *       machine and 7.5–8.5 s on a busy one, 0.3–0.8 ms each;</li>
 *   <li>{@link #SLACK_PER_VIRTUAL_THREAD}: create, start, park, unpark and finish; under 5 µs once compiled
 *       (notebook 01), 10–20 µs cold in the kernel.</li>
 * </ul>
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

    private PoolModel() {}

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
     * How far past its prediction a measurement may land: {@code SLACK_FIXED + waves · SLACK_PER_WAVE +
     * platformThreads · SLACK_PER_PLATFORM_THREAD + virtualThreads · SLACK_PER_VIRTUAL_THREAD}.
     *
     * @param waves           tasks run one after another on the longest chain
     * @param platformThreads platform threads the run creates
     * @param virtualThreads  virtual threads the run creates
     */
    public static Duration slack(int waves, int platformThreads, int virtualThreads) {
        if (waves < 0 || platformThreads < 0 || virtualThreads < 0) {
            throw new IllegalArgumentException("waves and thread counts cannot be negative: " + waves + ", "
                    + platformThreads + ", " + virtualThreads);
        }
        return SLACK_FIXED.plus(SLACK_PER_WAVE.multipliedBy(waves))
                .plus(SLACK_PER_PLATFORM_THREAD.multipliedBy(platformThreads))
                .plus(SLACK_PER_VIRTUAL_THREAD.multipliedBy(virtualThreads));
    }

    /** {@link #slack} for {@code tasks} equal tasks on a fixed pool of {@code poolSize}, or one virtual thread each when 0. */
    public static Duration slackFor(int tasks, int poolSize) {
        return poolSize == 0 ? slack(0, 0, tasks) // the single wave's wake-ups are in the per-thread allowance
                : slack(waves(tasks, poolSize), Math.min(poolSize, tasks), 0);
    }
}
