package course.kit.experiments;

import course.kit.Band;
import course.kit.Check;
import course.kit.Format;
import course.kit.ForwardingExecutor;
import course.kit.Recorder;
import course.kit.Reproduction;
import course.kit.RunResult;
import course.kit.Scale;
import course.kit.charts.Charts;
import course.kit.charts.Tables;
import course.kit.models.PoolModel;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.PrintStream;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * What notebook 05's cells should not carry: the predictions (time-outs of an unthrottled burst, calls a
 * deadline accepts, the time bands), a deadlock guard for the cell whose {@code finally} the learner deletes,
 * the in-flight chart with its limit, and the {@code ./course reproduce} rows for article 002.
 *
 * <p>The experiments themselves (a burst of virtual threads, a {@link Semaphore}, {@code acquire},
 * {@code try}/{@code finally}, {@code release}, {@code tryAcquire}) are written in the notebook's cells;
 * {@link #unthrottled} and {@link #throttled} mirror two of them for {@link #reproduce}.
 */
public final class Throttling {
    /** Article 002's database pool. */
    public static final int ARTICLE_002_POOL = 50;
    /** How long {@link #deadlockGuard} lets a run go without a call ending before it calls it stuck. */
    public static final Duration STALL = Duration.ofSeconds(2);

    private Throttling() {}

    // ------------------------------------------------------------------ predictions

    /**
     * Pool time-outs predicted for an unthrottled burst of {@code calls}: the first {@code connections} callers
     * get connections, and each connection comes back no earlier than {@code hold}, {@code 2·hold}, … . A caller
     * still waiting when one comes back takes it; the others give up. So when no caller was still waiting at
     * {@code hold} (the last waited until {@code lastWaitNanos}, see {@link #lastWaitNanos}), exactly
     * {@code calls − connections} time out; otherwise at most {@code ⌊lastWait / hold⌋} waves of
     * {@code connections} came back in time. A caller gives up {@code timeout} after it arrived, later when its
     * thread is woken late on a busy machine.
     *
     * @return {lowest, highest} number of time-outs
     */
    public static int[] predictedTimeouts(int calls, int connections, Duration hold, long lastWaitNanos) {
        requireCounts(calls, connections);
        int all = Math.max(0, calls - connections);
        long extraWaves = Math.max(0, lastWaitNanos) / positive(hold);
        return new int[] {(int) Math.max(0, calls - connections * (1 + extraWaves)), all};
    }

    /**
     * Calls accepted from a burst whose callers wait at most {@code maxWait} for one of {@code permits} permits,
     * each call holding its permit for {@code hold}. Permits come free in waves no earlier than hold, 2·hold, …,
     * so a caller of the burst can still take the waves freed by {@code maxWait}: at least
     * {@code permits · (1 + ⌊maxWait / hold⌋)}. Callers that arrived late, or were woken late, wait longer: if
     * the last waited until {@code lastWaitNanos}, at most {@code permits · (1 + ⌊lastWait / hold⌋)}.
     *
     * @return {lowest, highest} number of accepted calls
     */
    public static int[] predictedAccepted(int calls, int permits, Duration maxWait, Duration hold, long lastWaitNanos) {
        requireCounts(calls, permits);
        long h = positive(hold);
        long waves = 1 + maxWait.toNanos() / h;
        long most = 1 + Math.max(maxWait.toNanos(), lastWaitNanos) / h;
        return new int[] {(int) Math.min(calls, permits * waves), (int) Math.min(calls, permits * most)};
    }

    /**
     * The last moment a caller of {@code run} was still waiting, in nanos from the run's start: the later of the
     * last give-up (the end of a call that threw {@code gaveUp}) and the last grant (a call that returned got its
     * connection or permit at least {@code hold} before its end). Every grant happened by then.
     */
    public static long lastWaitNanos(RunResult run, Class<? extends Throwable> gaveUp, Duration hold) {
        long h = positive(hold), last = 0;
        for (var r : run.records()) {
            if (threw(r.failure(), gaveUp)) last = Math.max(last, r.endNanos());
            else if (r.ok()) last = Math.max(last, r.endNanos() - h);
        }
        return last;
    }

    /** Little's law for a semaphore: {@code permits} calls in flight, each holding its permit {@code hold}: calls per second. */
    public static double throughput(int permits, Duration hold) {
        return permits / (positive(hold) / 1e9);
    }

    /**
     * The time band of {@code calls} calls, one virtual thread each, behind {@code permits} permits held
     * {@code hold} each: the permits serve ⌈N/P⌉ waves one after another, so from ⌈N/P⌉·hold up to that plus
     * {@link PoolModel#slack} for the waves and the virtual threads, plus {@code perWave} for each wave's trip to the
     * database (a measured {@link PostgresPool#waveOverhead}), in milliseconds.
     */
    public static Band drain(int calls, int permits, Duration hold, Duration perWave) {
        requireCounts(calls, permits);
        return band(PoolModel.waves(calls, permits), calls, hold, perWave, "⌈N/P⌉ = ");
    }

    /**
     * The time band of a burst whose callers wait at most {@code maxWait} for a permit: the last accepted wave
     * starts by {@code maxWait} and ends {@code hold} later, the rejected callers leave at {@code maxWait}: from
     * (1 + ⌊maxWait/hold⌋)·hold up to that plus {@link PoolModel#slack} and {@code perWave} per wave, in milliseconds.
     */
    public static Band deadline(int calls, int permits, Duration maxWait, Duration hold, Duration perWave) {
        requireCounts(calls, permits);
        int waves = (int) Math.min(1 + maxWait.toNanos() / positive(hold), PoolModel.waves(calls, permits));
        return band(waves, calls, hold, perWave, "1 + ⌊T/t⌋ = ");
    }

    private static Band band(int waves, int threads, Duration hold, Duration perWave, String wavesAre) {
        double lo = hold.multipliedBy(waves).toNanos() / 1e6;
        double slack = PoolModel.slack(waves, 0, threads).toNanos() / 1e6;
        double trips =
                Objects.requireNonNull(perWave, "perWave").multipliedBy(waves).toNanos() / 1e6;
        return new Band(
                lo,
                lo + slack + trips,
                "ms",
                String.format(
                        Locale.ROOT,
                        "%s%d waves × %s, + up to %,.0f ms for "
                                + "the waves' wake-ups and %,d virtual threads, + %d × %.1f ms measured per wave of queries",
                        wavesAre,
                        waves,
                        Format.duration(hold),
                        slack,
                        threads,
                        waves,
                        perWave.toNanos() / 1e6));
    }

    // ------------------------------------------------------------------ reading a run

    /** Calls of {@code run} that the pool turned away: they threw {@link SQLTransientConnectionException}. */
    public static int timeouts(RunResult run) {
        return failedWith(run, SQLTransientConnectionException.class);
    }

    /** Calls of {@code run} that threw an exception of exactly this class (by its simple name, as recorded). */
    public static int failedWith(RunResult run, Class<? extends Throwable> type) {
        return (int)
                run.records().stream().filter(r -> threw(r.failure(), type)).count();
    }

    private static boolean threw(String failure, Class<? extends Throwable> type) {
        String name = type.getSimpleName();
        return failure != null && (failure.equals(name) || failure.startsWith(name + ":"));
    }

    // ------------------------------------------------------------------ the deadlock guard

    /**
     * Wraps {@code threads} for a cell that may lose permits: its {@code close()} waits for every task, as
     * {@code ExecutorService.close()} does, but if no task ends for {@link #STALL} while no permit of
     * {@code permits} is free and callers wait for one, it says so, interrupts the tasks (a waiting
     * {@code acquire()} throws {@link InterruptedException}) and returns, so the cell ends instead of hanging.
     */
    public static ExecutorService deadlockGuard(Semaphore permits, ExecutorService threads) {
        return new Guard(permits, threads, STALL, System.out);
    }

    /** {@link #deadlockGuard(Semaphore, ExecutorService)} with another stall and output, for tests. */
    static ExecutorService deadlockGuard(Semaphore permits, ExecutorService threads, Duration stall, PrintStream out) {
        return new Guard(permits, threads, stall, out);
    }

    /** Whether {@code threads}, a {@link #deadlockGuard}, found the run stuck and stopped it. */
    public static boolean stopped(ExecutorService threads) {
        return threads instanceof Guard g && g.stopped;
    }

    private static final class Guard extends ForwardingExecutor {
        private static final long POLL_MILLIS = 50;
        private final Semaphore permits;
        private final long stallNanos;
        private final PrintStream out;
        private final AtomicInteger started = new AtomicInteger(), ended = new AtomicInteger();
        private volatile boolean stopped;

        Guard(Semaphore permits, ExecutorService delegate, Duration stall, PrintStream out) {
            super(Objects.requireNonNull(delegate, "threads"));
            this.permits = Objects.requireNonNull(permits, "permits");
            this.stallNanos = stall.toNanos();
            this.out = out;
        }

        @Override
        protected Runnable wrap(Runnable command) {
            return () -> {
                started.incrementAndGet();
                try {
                    command.run();
                } finally {
                    ended.incrementAndGet();
                }
            };
        }

        @Override
        public void close() {
            delegate.shutdown();
            boolean interrupted = false;
            int lastEnded = ended.get();
            long quietSince = System.nanoTime();
            while (true) {
                try {
                    if (delegate.awaitTermination(POLL_MILLIS, TimeUnit.MILLISECONDS)) break;
                } catch (InterruptedException e) {
                    interrupted = true; // as ExecutorService.close(): stop the tasks, keep waiting for them
                    delegate.shutdownNow();
                    continue;
                }
                int now = ended.get();
                if (now != lastEnded) {
                    lastEnded = now;
                    quietSince = System.nanoTime();
                } else if (!stopped
                        && System.nanoTime() - quietSince >= stallNanos
                        && permits.availablePermits() <= 0
                        && permits.hasQueuedThreads()) {
                    stop();
                }
            }
            if (interrupted) Thread.currentThread().interrupt();
        }

        private void stop() {
            stopped = true;
            int waiting = permits.getQueueLength(), alive = started.get() - ended.get();
            String why = alive <= waiting
                    ? "No caller holds a permit, so the permits leaked: a call that threw never reached release()."
                    : String.format(Locale.ROOT, "%,d callers hold permits and have not finished.", alive - waiting);
            out.println(String.format(
                    Locale.ROOT,
                    "%s deadlock: no call ended for %.1f s; no permit is free and %,d "
                            + "callers wait in acquire(). %s The guard interrupts the waiting callers so that the cell can end.",
                    Check.FAIL,
                    stallNanos / 1e9,
                    waiting,
                    why));
            delegate.shutdownNow();
        }

        @Override
        public String toString() {
            return "deadlock-guarded " + delegate;
        }
    }

    // ------------------------------------------------------------------ the chart

    /** {@link Charts#inFlight}, with the limit drawn as a dashed line. */
    public static XYChart inFlight(String title, int limit, RunResult... runs) {
        XYChart c = Charts.inFlight(title, runs);
        c.setYAxisTitle("calls in flight");
        double end =
                Arrays.stream(runs).mapToDouble(RunResult::elapsedSeconds).max().orElse(1);
        XYSeries s = c.addSeries("limit: " + limit, new double[] {0, end}, new double[] {limit, limit});
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(Color.GRAY);
        s.setLineStyle(
                new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setXAxisMin(0.0);
        c.getStyler().setXAxisDecimalPattern("0.0#");
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        c.getStyler().setLegendLayout(org.knowm.xchart.style.Styler.LegendLayout.Horizontal);
        return c;
    }

    /** One row per run: calls, rows returned, pool time-outs, other failures, peak in flight, elapsed, rows per second. */
    public static tech.tablesaw.api.Table table(String title, RunResult... runs) {
        var b = Tables.of(
                title,
                "run",
                "calls",
                "rows returned",
                "pool time-outs",
                "other failures",
                "peak in flight",
                "elapsed (ms)",
                "rows/s");
        for (RunResult r : runs) {
            int rows = r.count() - r.failed(), timeouts = timeouts(r);
            b.row(
                    r.name(),
                    r.count(),
                    rows,
                    timeouts,
                    r.failed() - timeouts,
                    r.peakConcurrency(),
                    Tables.round(r.elapsedMillis(), 1),
                    Tables.round(rows / r.elapsedSeconds(), 0));
        }
        return b.table();
    }

    // ------------------------------------------------------------------ the notebook's two bursts, for reproduce

    /** Notebook 05's first experiment: {@code calls} calls straight at {@code db}, one virtual thread each. */
    public static RunResult unthrottled(String name, Database db, int calls) throws InterruptedException {
        var rec = Recorder.start(name, calls);
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < calls; i++) {
                int id = i;
                threads.submit(rec.call(() -> db.query(id)));
            }
        }
        return rec.stop();
    }

    /** Notebook 05's second: the same calls, each thread taking one of {@code permits} first, releasing it in finally. */
    public static RunResult throttled(String name, Database db, Semaphore permits, int calls)
            throws InterruptedException {
        var rec = Recorder.start(name, calls);
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < calls; i++) {
                int id = i;
                Callable<String> call = rec.call(() -> db.query(id));
                threads.submit(() -> {
                    permits.acquire();
                    try {
                        return call.call();
                    } finally {
                        permits.release();
                    }
                });
            }
        }
        return rec.stop();
    }

    /**
     * Article 002: "a DB pool of 50 connections still caps concurrency". A burst of calls on virtual threads
     * against a real PostgreSQL behind a HikariCP pool of 50 ({@link Postgres#server()}): the pool lends at most 50
     * connections at once (the rest time out), and behind a {@code Semaphore(50)} every call completes at
     * 50 / hold calls per second. The same parameters as notebook 05.
     */
    public static List<Reproduction> reproduce(Scale scale) throws InterruptedException {
        Objects.requireNonNull(scale, "scale");
        int calls = scale.pick(1_000, 500);
        Duration hold = scale.pick(Duration.ofSeconds(1), Duration.ofMillis(400));
        Duration patience = PostgresPool.MIN_CONNECTION_TIMEOUT;
        int cap = ARTICLE_002_POOL;
        try (var db = Postgres.server().pool(cap, patience, hold)) {
            var gauge = PoolGauge.start(db.mxBean());
            RunResult raw = unthrottled("unthrottled", db, calls);
            int peak = gauge.stop().peakActive(); // the pool's own count
            Band band = drain(calls, cap, hold, db.waveOverhead());
            RunResult thr = null;
            int tries = 0;
            while (tries < Check.TIMING_TRIES && (thr == null || !band.contains(thr.elapsedMillis()))) {
                thr = throttled("Semaphore(50)", db, new Semaphore(cap), calls);
                tries++;
            }
            String note = String.format(
                    "%,d calls at once, each SELECT pg_sleep(%s) on %s; HikariCP pool of %d, "
                            + "connectionTimeout %d ms",
                    calls, Format.duration(hold), db.server().shortVersion(), cap, patience.toMillis());
            return List.of(
                    new Reproduction(
                            "connections at once, " + String.format("%,d", calls) + " virtual threads vs a pool of 50",
                            "002",
                            "50 connections cap concurrency",
                            cap,
                            peak,
                            "connections",
                            note + String.format("; unthrottled: %,d of %,d timed out", timeouts(raw), calls)),
                    new Reproduction(
                            "throughput behind Semaphore(50) = 50 / hold",
                            "002",
                            "50 connections cap concurrency",
                            throughput(cap, hold),
                            thr.throughputPerSecond(),
                            "calls/s",
                            note
                                    + String.format(
                                            "; throttled: %,d ok, %,d failed%s",
                                            thr.count() - thr.failed(),
                                            thr.failed(),
                                            tries > 1 ? ", measured on try " + tries : "")));
        }
    }

    private static void requireCounts(int calls, int permits) {
        if (calls < 0) throw new IllegalArgumentException("calls cannot be negative: " + calls);
        if (permits < 1) throw new IllegalArgumentException("at least 1 permit or connection, not " + permits);
    }

    private static long positive(Duration hold) {
        Objects.requireNonNull(hold, "hold");
        if (hold.isNegative() || hold.isZero())
            throw new IllegalArgumentException("hold must be positive, not " + hold);
        return hold.toNanos();
    }
}
