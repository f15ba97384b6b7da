package course.kit;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Objects;

/**
 * Repeats an action to measure it honestly: warm-up runs first (so the JIT has compiled the code), then
 * timed repetitions, reported as the median, on wall time and on the process's CPU time.
 *
 * <pre>{@code
 * Measurement m = Measure.repeat("virtual start+join", 2, 5, 10_000, () -> startAndJoin(10_000));
 * System.out.println(m.perOpMicros() + " µs per thread — " + m.method());
 * }</pre>
 */
public final class Measure {
    private Measure() {}

    /** The action to measure. */
    @FunctionalInterface
    public interface Action {
        /** Runs once. @throws Exception whatever the action throws */
        void run() throws Exception;
    }

    /**
     * Runs {@code action} {@code warmups} times untimed, then {@code reps} times timed.
     *
     * @param opsPerRun how many operations one run performs (for per-operation figures); at least 1
     */
    public static Measurement repeat(String name, int warmups, int reps, long opsPerRun, Action action)
            throws Exception {
        Objects.requireNonNull(action, "action");
        if (warmups < 0) throw new IllegalArgumentException("warmups cannot be negative: " + warmups);
        if (reps < 1) throw new IllegalArgumentException("reps must be at least 1: " + reps);
        if (opsPerRun < 1) throw new IllegalArgumentException("opsPerRun must be at least 1: " + opsPerRun);
        for (int i = 0; i < warmups; i++) {
            action.run();
            if (Thread.interrupted()) throw new InterruptedException(name + " interrupted during warm-up");
        }
        long[] wall = new long[reps], cpu = new long[reps];
        for (int i = 0; i < reps; i++) {
            long c0 = processCpuNanos(), t0 = System.nanoTime();
            action.run();
            wall[i] = System.nanoTime() - t0;
            cpu[i] = processCpuNanos() - c0;
            if (Thread.interrupted()) throw new InterruptedException(name + " interrupted");
        }
        return new Measurement(name, warmups, opsPerRun, wall, cpu);
    }

    /** CPU time of the whole process so far (every thread), in nanoseconds; -1 if the JVM cannot tell. */
    public static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** The median of {@code values} (the mean of the middle two for an even count). */
    public static double median(double[] values) {
        if (values.length == 0) throw new IllegalArgumentException("no values");
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    }

    /** Time every garbage collector of this JVM has spent collecting so far, in milliseconds. */
    public static long gcMillis() {
        long sum = 0;
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) sum += Math.max(0, gc.getCollectionTime());
        return sum;
    }

    /** The median of {@code values} (the mean of the middle two for an even count). */
    public static double median(long[] values) {
        if (values.length == 0) throw new IllegalArgumentException("no values");
        long[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    }

    /**
     * What {@link #repeat} measured.
     *
     * @param name      what was measured
     * @param warmups   untimed runs before the timed ones
     * @param opsPerRun operations per run
     * @param wallNanos wall time of each timed run
     * @param cpuNanos  process CPU time of each timed run
     */
    public record Measurement(String name, int warmups, long opsPerRun, long[] wallNanos, long[] cpuNanos) {
        /** Median wall time of one run, in nanoseconds. */
        public double medianWallNanos() {
            return median(wallNanos);
        }

        /** Median process CPU time of one run, in nanoseconds. */
        public double medianCpuNanos() {
            return median(cpuNanos);
        }

        /** Median wall time per operation, in microseconds. */
        public double perOpMicros() {
            return medianWallNanos() / opsPerRun / 1_000.0;
        }

        /** Median CPU time per operation, in microseconds. */
        public double cpuPerOpMicros() {
            return medianCpuNanos() / opsPerRun / 1_000.0;
        }

        /** Fastest and slowest run's wall time per operation, in microseconds. */
        public double[] rangePerOpMicros() {
            return new double[] {
                Arrays.stream(wallNanos).min().orElse(0) / (double) opsPerRun / 1_000.0,
                Arrays.stream(wallNanos).max().orElse(0) / (double) opsPerRun / 1_000.0
            };
        }

        /** How the figure was obtained, in one sentence. */
        public String method() {
            return String.format(
                    "median of %d timed runs after %d warm-up runs, %,d operations per run; "
                            + "wall time by System.nanoTime, CPU time of the whole process",
                    wallNanos.length, warmups, opsPerRun);
        }

        @Override
        public String toString() {
            double[] r = rangePerOpMicros();
            return String.format(
                    "%s: %.2f µs per operation wall (range %.2f–%.2f), %.2f µs CPU — %s",
                    name, perOpMicros(), r[0], r[1], cpuPerOpMicros(), method());
        }
    }
}
