package course.kit.diagnostics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A virtual thread that sleeps a fixed period again and again and records, for each wake-up, how late it
 * came: the time from when the sleep was due to end until the thread ran again. On a scheduler whose carriers
 * are all busy with CPU-bound virtual threads, the probe waits for a carrier: its lateness shows it.
 */
public final class LatenessProbe implements AutoCloseable {
    private final List<Double> lateness = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean stop;

    private LatenessProbe(Duration period, int wakeUps) {
        long nanos = period.toNanos();
        thread = Thread.ofVirtual().name("lateness-probe").start(() -> {
            for (int i = 0; i < wakeUps && !stop; i++) {
                long due = System.nanoTime() + nanos;
                try {
                    Thread.sleep(period);
                } catch (InterruptedException e) {
                    return;
                }
                lateness.add((System.nanoTime() - due) / 1e6);
            }
        });
    }

    /** Starts a probe that wakes {@code wakeUps} times, every {@code period}. */
    public static LatenessProbe start(Duration period, int wakeUps) {
        if (period.isNegative() || period.isZero()) throw new IllegalArgumentException("period must be positive");
        if (wakeUps < 1) throw new IllegalArgumentException("wakeUps must be at least 1");
        return new LatenessProbe(period, wakeUps);
    }

    /** Waits for the probe's last wake-up and returns each wake-up's lateness in ms. */
    public List<Double> await() throws InterruptedException {
        thread.join();
        return new ArrayList<>(lateness);
    }

    /** The lateness recorded so far, in ms. */
    public List<Double> soFar() {
        return new ArrayList<>(lateness);
    }

    /** The largest of {@code lateness}. */
    public static double max(List<Double> lateness) {
        return lateness.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    /** Stops the probe at its next wake-up and waits for it. */
    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.interrupt();
        thread.join();
    }
}
