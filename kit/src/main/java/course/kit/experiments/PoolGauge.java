package course.kit.experiments;

import com.zaxxer.hikari.HikariPoolMXBean;
import course.kit.RunResult;
import course.kit.charts.Charts;
import java.awt.BasicStroke;
import java.awt.Color;
import java.util.Arrays;
import java.util.Objects;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * An instrument that reads a HikariCP pool's own numbers ({@link HikariPoolMXBean}: active and idle connections,
 * threads waiting for one) every {@link #EVERY_NANOS} on a platform thread of its own, from {@link #start} to
 * {@link #stop}. Start it just before the run it watches, so that its clock and the run's start together.
 *
 * <pre>{@code
 * var gauge = PoolGauge.start(db.mxBean());
 * RunResult run = ...;                      // the experiment
 * PoolGauge.Samples pool = gauge.stop();
 * }</pre>
 */
public final class PoolGauge {
    /** The sampling period: 2 ms. */
    public static final long EVERY_NANOS = 2_000_000;

    private static final int MAX_SAMPLES = 200_000;

    private final HikariPoolMXBean pool;
    private final long t0 = System.nanoTime();
    private final double[] at = new double[MAX_SAMPLES];
    private final int[] active = new int[MAX_SAMPLES], idle = new int[MAX_SAMPLES], waiting = new int[MAX_SAMPLES];
    private volatile boolean running = true;
    private int n;
    private final Thread sampler;

    private PoolGauge(HikariPoolMXBean pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
        sample();
        sampler = Thread.ofPlatform().daemon().name("pool-gauge").start(this::loop);
    }

    /** Starts sampling {@code pool}. */
    public static PoolGauge start(HikariPoolMXBean pool) {
        return new PoolGauge(pool);
    }

    private void loop() {
        long next = t0;
        while (running && n < MAX_SAMPLES) {
            next += EVERY_NANOS;
            long wait = next - System.nanoTime();
            if (wait > 0) java.util.concurrent.locks.LockSupport.parkNanos(wait);
            if (running) sample();
        }
    }

    private void sample() {
        if (n >= MAX_SAMPLES) return;
        at[n] = (System.nanoTime() - t0) / 1e9;
        active[n] = pool.getActiveConnections();
        idle[n] = pool.getIdleConnections();
        waiting[n] = pool.getThreadsAwaitingConnection();
        n++;
    }

    /** Stops sampling and returns the samples (one last sample is taken now). */
    public Samples stop() {
        running = false;
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        double stoppedAt = (System.nanoTime() - t0) / 1e9;
        sample();
        return new Samples(
                Arrays.copyOf(at, n),
                Arrays.copyOf(active, n),
                Arrays.copyOf(idle, n),
                Arrays.copyOf(waiting, n),
                stoppedAt);
    }

    /**
     * What the pool said over time.
     *
     * @param seconds   seconds since {@link #start}
     * @param active    connections lent out
     * @param idle      connections in the pool, free
     * @param waiting   threads inside {@code getConnection()}, waiting for one
     * @param stoppedAt when {@link #stop} was called, in seconds since {@link #start}
     */
    public record Samples(double[] seconds, int[] active, int[] idle, int[] waiting, double stoppedAt) {
        /** How many samples were taken. */
        public int count() {
            return seconds.length;
        }

        /** The most connections lent out at once. */
        public int peakActive() {
            return Arrays.stream(active).max().orElse(0);
        }

        /** The most threads waiting in {@code getConnection()} at once. */
        public int peakWaiting() {
            return Arrays.stream(waiting).max().orElse(0);
        }

        @Override
        public String toString() {
            return String.format(
                    "%,d samples of the pool: peak %d connections active, peak %d threads waiting",
                    count(), peakActive(), peakWaiting());
        }
    }

    /**
     * The course's own counter of {@code run}'s calls in flight, next to what the pool said during it: connections
     * active, and callers in the pool (active + waiting), with the pool's size as a dashed line. The two clocks are
     * lined up on the run's end ({@code stop()} right after the run's own {@code rec.stop()}): the run's recorder
     * starts a little after the gauge.
     */
    public static XYChart chart(String title, RunResult run, Samples pool, int poolSize) {
        double shift = pool.stoppedAt() - run.elapsedSeconds();
        double[] xs = Arrays.stream(pool.seconds()).map(x -> x - shift).toArray();
        XYChart c = Charts.xy(title, "time since start (s)", "calls / connections");
        double[][] counted = run.inFlightOverTime(400);
        XYSeries calls = c.addSeries("calls in flight (the course's counter)", counted[0], counted[1]);
        calls.setMarker(SeriesMarkers.NONE);
        calls.setLineColor(new Color(31, 119, 180));
        calls.setLineWidth(3f);
        line(
                c,
                "pool: active + waiting threads (MXBean)",
                xs,
                add(pool.active(), pool.waiting()),
                new Color(214, 39, 40),
                null);
        line(c, "pool: active connections (MXBean)", xs, toDouble(pool.active()), new Color(44, 160, 44), null);
        double end = Math.max(run.elapsedSeconds(), xs.length == 0 ? 0 : xs[xs.length - 1]);
        line(
                c,
                "pool size: " + poolSize,
                new double[] {0, end},
                new double[] {poolSize, poolSize},
                Color.GRAY,
                new float[] {6f, 4f});
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setXAxisMin(0.0);
        c.getStyler().setXAxisMax(end);
        c.getStyler().setXAxisDecimalPattern("0.0#");
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        c.getStyler().setLegendLayout(org.knowm.xchart.style.Styler.LegendLayout.Vertical);
        return c;
    }

    private static void line(XYChart c, String name, double[] xs, double[] ys, Color color, float[] dash) {
        if (xs.length == 0) return;
        XYSeries s = c.addSeries(name, xs, ys);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(color);
        s.setLineStyle(
                dash == null
                        ? new BasicStroke(1.5f)
                        : new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, dash, 0f));
    }

    private static double[] add(int[] a, int[] b) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) out[i] = a[i] + b[i];
        return out;
    }

    private static double[] toDouble(int[] a) {
        return Arrays.stream(a).asDoubleStream().toArray();
    }
}
