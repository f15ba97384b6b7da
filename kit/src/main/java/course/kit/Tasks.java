package course.kit;

import java.time.Duration;
import java.util.Objects;

/** Ready-made task bodies: the articles' sleep, and CPU work that answers interruption. */
public final class Tasks {
    private static volatile long sink;

    private Tasks() {}

    /** A task that sleeps for {@code d}: the articles' stand-in for waiting on I/O. */
    public static Task sleep(Duration d) {
        Objects.requireNonNull(d, "d");
        if (d.isNegative()) throw new IllegalArgumentException("sleep time cannot be negative: " + d);
        return i -> Thread.sleep(d);
    }

    /** A task that does {@code iterations} rounds of arithmetic on the CPU, and stops if interrupted. */
    public static Task cpu(long iterations) {
        if (iterations < 0) throw new IllegalArgumentException("iterations cannot be negative: " + iterations);
        return i -> sink += burn(iterations);
    }

    /**
     * Pure CPU work: {@code iterations} rounds of a xorshift generator. Checks for interruption every 2^20
     * rounds and throws {@link InterruptedException}, so that a stopped cell stops its CPU work too.
     */
    public static long burn(long iterations) throws InterruptedException {
        long x = 88172645463325252L;
        for (long n = 0; n < iterations; n++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            if ((n & 0xFFFFF) == 0 && Thread.currentThread().isInterrupted()) throw new InterruptedException();
        }
        return x;
    }

    /**
     * How many {@link #burn(long)} rounds take about {@code target} of CPU on one core here. CPU-bound
     * experiments use it so that their tasks last the same at any machine speed.
     *
     * <p>It times the calling thread's own CPU clock, not the wall clock: on a busy machine other programs
     * stretch the wall time of a burn, but not the CPU time it needs. It warms {@code burn} up first (about
     * 150 ms of CPU, so the JIT has compiled it), then takes the <em>fastest</em> of seven timed burns: on a
     * virtual machine whose host is busy, time stolen from a running thread is still counted as its CPU time,
     * so a slow burn is the host's doing, and a calibration from it would make later tasks shorter than their
     * target. From the fastest, a task takes at least its target, never less. Two burns of a task's own size (up
     * to 200 ms) come last: a long burn can run faster than the short probes, and the faster rate wins. Where the JVM has no thread CPU
     * clock it falls back to the wall clock.
     */
    public static long calibrate(Duration target) throws InterruptedException {
        Objects.requireNonNull(target, "target");
        if (target.isNegative()) throw new IllegalArgumentException("target cannot be negative: " + target);
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        boolean cpuClock = mx.isCurrentThreadCpuTimeSupported();
        java.util.function.LongSupplier clock = cpuClock ? mx::getCurrentThreadCpuTime : System::nanoTime;
        final long probe = 1_000_000;
        long warmUntil = clock.getAsLong() + 150_000_000L;
        for (int calls = 0; calls < 60 || (clock.getAsLong() < warmUntil && calls < 1_000); calls++) {
            sink += burn(probe);
        }
        long[] rates = new long[7];
        for (int i = 0; i < rates.length; i++) {
            long c0 = clock.getAsLong();
            sink += burn(probe);
            long ns = Math.max(1, clock.getAsLong() - c0);
            rates[i] = probe * 1_000_000_000L / ns; // rounds per second
        }
        java.util.Arrays.sort(rates);
        long rate = rates[rates.length - 1];
        // A task is one long burn, which the JIT may run faster than these short probes (its loop compiled on the
        // stack, then again in full): two burns of a task's size, up to 200 ms, set the rate, the faster of the two.
        long big = Math.max(probe, (long) (rate * Math.min(target.toNanos(), 200_000_000L) / 1e9));
        long fastest = Long.MAX_VALUE;
        for (int i = 0; i < 2; i++) {
            long c0 = clock.getAsLong();
            sink += burn(big);
            fastest = Math.min(fastest, Math.max(1, clock.getAsLong() - c0));
        }
        rate = Math.max(rate, big * 1_000_000_000L / fastest);
        return Math.max(1, (long) (rate * (target.toNanos() / 1e9)));
    }
}
