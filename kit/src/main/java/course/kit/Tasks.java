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
     * How many {@link #burn(long)} rounds take about {@code target} of CPU on one core here (the median
     * of a few tries, after a warm-up). CPU-bound experiments use it so that their tasks last the same at
     * any machine speed.
     */
    public static long calibrate(Duration target) throws InterruptedException {
        long probe = 2_000_000;
        for (int i = 0; i < 3; i++) sink += burn(probe); // warm-up: let the JIT compile burn()
        long[] rates = new long[5];
        for (int i = 0; i < rates.length; i++) {
            long t0 = System.nanoTime();
            sink += burn(probe);
            long ns = Math.max(1, System.nanoTime() - t0);
            rates[i] = probe * 1_000_000_000L / ns; // rounds per second
        }
        java.util.Arrays.sort(rates);
        return Math.max(1, (long) (rates[rates.length / 2] * (target.toNanos() / 1e9)));
    }
}
