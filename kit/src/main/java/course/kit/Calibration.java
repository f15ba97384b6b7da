package course.kit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * What threads cost on <em>this</em> machine, measured once per JVM (a notebook kernel measures it the first
 * time a timing band needs it): the allowances of {@link PoolModel} grow from these figures, not from
 * constants tuned on another machine.
 *
 * <p>Both are CPU time of this JVM, which other programs cannot stretch (see {@link #measure}).
 * <ul>
 *   <li><b>Platform thread:</b> create, start and retire one OS thread while {@value #PLATFORM_BATCH} of them are
 *       alive at once (they wait on a latch, as a pool's idle workers wait for tasks), median of
 *       {@value #REPS} batches.</li>
 *   <li><b>Virtual thread:</b> create, start, park, wake and end one virtual thread, {@value #VIRTUAL_BATCH} at once,
 *       over {@value #VIRTUAL_REPS} warm batches.</li>
 * </ul>
 *
 * @param platformThread the measured cost of one platform thread, created and retired with many alive
 * @param virtualThread  the measured cost of one virtual thread
 * @param tookMillis     how long the calibration took
 */
public record Calibration(Duration platformThread, Duration virtualThread, double tookMillis) {
    static final int PLATFORM_BATCH = 500;
    static final int VIRTUAL_BATCH = 10_000;
    static final int REPS = 3;
    static final int VIRTUAL_REPS = 5;

    private static volatile Calibration here;

    /** This machine's figures, measured on the first call and kept for the life of the JVM. */
    public static Calibration here() {
        Calibration c = here;
        if (c == null) {
            synchronized (Calibration.class) {
                c = here;
                if (c == null) here = c = measure();
            }
        }
        return c;
    }

    /** Measures now (about 0.2–1 s on a quiet machine), without keeping the figures. */
    public static Calibration measure() {
        long t0 = System.nanoTime();
        try {
            batch(true, PLATFORM_BATCH / 5); // class loading and first-use costs stay out of the figures
            batch(false, VIRTUAL_BATCH);
            var platform = new ArrayList<Long>();
            long virtualTotal = 0;
            for (int i = 0; i < REPS; i++) {
                platform.add(batch(true, PLATFORM_BATCH) / PLATFORM_BATCH);
            }
            // a batch of virtual threads costs a few tens of milliseconds, near the process clock's tick on some
            // systems (10 ms): their sum over several batches is the steadier figure
            for (int i = 0; i < VIRTUAL_REPS; i++) virtualTotal += batch(false, VIRTUAL_BATCH);
            return new Calibration(
                    Duration.ofNanos(median(platform)),
                    Duration.ofNanos(virtualTotal / ((long) VIRTUAL_REPS * VIRTUAL_BATCH)),
                    (System.nanoTime() - t0) / 1e6);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("calibration interrupted", e);
        }
    }

    /**
     * CPU nanoseconds this JVM spends to start {@code n} threads that each wait for a latch, release them, and join
     * them all. CPU time, not wall time: other programs on the same cores stretch the wall clock, not the work a
     * thread costs, so a calibration on a busy machine gives the same allowances as on a quiet one, and the timing
     * checks see the busy machine for what it is.
     */
    private static long batch(boolean platform, int n) throws InterruptedException {
        var go = new CountDownLatch(1);
        Thread.Builder builder = platform ? Thread.ofPlatform() : Thread.ofVirtual();
        Runnable body = () -> {
            try {
                go.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        var threads = new Thread[n];
        long t0 = Measure.processCpuNanos();
        try {
            for (int i = 0; i < n; i++) threads[i] = builder.start(body);
            go.countDown();
            for (Thread t : threads) t.join();
        } finally {
            go.countDown();
        }
        return Measure.processCpuNanos() - t0;
    }

    private static long median(ArrayList<Long> xs) {
        xs.sort(null);
        return xs.get(xs.size() / 2);
    }

    /** One line for the learner, for example "a platform thread 92 µs …, a virtual thread 0.9 µs …". */
    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "this machine, measured now: a platform thread costs %.0f µs of CPU to create, "
                        + "start and retire (%d alive at once), a virtual thread %.2f µs (%,d at once); calibration took %.0f ms",
                platformThread.toNanos() / 1e3,
                PLATFORM_BATCH,
                virtualThread.toNanos() / 1e3,
                VIRTUAL_BATCH,
                tookMillis);
    }
}
