package course.kit.diagnostics;

import course.base.diagnostics.Carriers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import jdk.management.VirtualThreadSchedulerMXBean;

/**
 * Samples the virtual-thread scheduler ({@link Carriers#scheduler()}) on a platform thread of its own,
 * so that it keeps sampling when every carrier is busy.
 *
 * <pre>{@code
 * try (var sampler = SchedulerSampler.every(Duration.ofMillis(10))) {
 *     ... // your virtual threads
 *     samples = sampler.stop();
 * }
 * }</pre>
 */
public final class SchedulerSampler implements AutoCloseable {
    /**
     * One reading.
     *
     * @param millis      when, since the sampler started
     * @param parallelism the carriers the scheduler aims for
     * @param poolSize    the carriers that exist (more than the parallelism when it compensates for blocking)
     * @param mounted     virtual threads running on a carrier
     * @param queued      virtual threads waiting for a carrier
     */
    public record Sample(double millis, int parallelism, int poolSize, int mounted, long queued) {}

    private final VirtualThreadSchedulerMXBean scheduler = Carriers.scheduler();
    private final List<Sample> samples = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private final long t0 = System.nanoTime();

    private SchedulerSampler(Duration every) {
        long nanos = every.toNanos();
        if (nanos <= 0) throw new IllegalArgumentException("the period must be positive: " + every);
        sample();
        thread = Thread.ofPlatform().daemon().name("scheduler-sampler").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    TimeUnit.NANOSECONDS.sleep(nanos);
                } catch (InterruptedException e) {
                    return;
                }
                sample();
            }
        });
    }

    /** Starts sampling every {@code period}. */
    public static SchedulerSampler every(Duration period) {
        return new SchedulerSampler(period);
    }

    /** Takes one sample now (also done at the start and at {@link #stop()}). */
    public void sample() {
        samples.add(new Sample(
                (System.nanoTime() - t0) / 1e6,
                scheduler.getParallelism(),
                scheduler.getPoolSize(),
                scheduler.getMountedVirtualThreadCount(),
                scheduler.getQueuedVirtualThreadCount()));
    }

    /** Stops the sampling thread (waits for it) and returns the samples, oldest first. */
    public List<Sample> stop() {
        close();
        sample();
        return new ArrayList<>(samples);
    }

    /** The highest pool size in {@code samples}. */
    public static int peakPoolSize(List<Sample> samples) {
        return samples.stream().mapToInt(Sample::poolSize).max().orElse(0);
    }

    /** The highest mounted count in {@code samples}. */
    public static int peakMounted(List<Sample> samples) {
        return samples.stream().mapToInt(Sample::mounted).max().orElse(0);
    }

    /** The highest queued count in {@code samples}. */
    public static long peakQueued(List<Sample> samples) {
        return samples.stream().mapToLong(Sample::queued).max().orElse(0);
    }

    /** Ends the sampling thread; idempotent. */
    @Override
    public void close() {
        thread.interrupt();
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
