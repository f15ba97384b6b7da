package course.kit.experiments;

import course.kit.Charts;
import course.kit.Limits;
import course.kit.Pool;
import course.kit.PoolModel;
import course.kit.Progress;
import course.kit.Reproduction;
import course.kit.Run;
import course.kit.RunResult;
import course.kit.Scale;
import course.kit.Tables;
import java.awt.BasicStroke;
import java.awt.Color;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.Table;

/**
 * Notebook 03's experiments: the arithmetic of a fixed thread pool, checked against real pools.
 *
 * <ul>
 *   <li>{@link #batchTime}: N equal tasks of length t on a pool of P threads take {@code ceil(N/P)·t}
 *       ({@link #sweep} measures it over pool sizes and task counts).</li>
 *   <li>{@link #littleThroughput}: Little's law, throughput λ = L / W, for a pool (L = P) and for
 *       virtual threads (L = N in flight) ({@link #little} measures it).</li>
 *   <li>{@link #fifoSchedule}: tasks of different lengths on a FIFO pool, each going to the worker that is
 *       free first ({@link #makespan} runs the same list on a real pool).</li>
 *   <li>{@link #threeCalls}: article 002's three calls of 300, 400 and 500 ms, one after another and
 *       in parallel.</li>
 * </ul>
 *
 * <p><b>Tolerances.</b> A measured time can only exceed its prediction (a sleep never ends early, and no
 * worker runs two tasks at once), by at most {@link PoolModel#slack}: a timer slack per wave of tasks, a start cost
 * per thread, and a fixed cost for the executor. Every check in the notebook uses that one bound.
 */
public final class PoolMath {
    /** A measurement may start this much before its prediction: clock granularity, never a shorter sleep. */
    public static final Duration EARLY = Duration.ofMillis(1);
    /**
     * How often a run that lands outside its band is measured in all. A stall caused by another process
     * (a busy CI machine) does not repeat on the next try; a wrong prediction misses on every try.
     */
    public static final int MAX_TRIES = 3;

    /** Article 002's three remote calls. */
    public static final List<Duration> ARTICLE_002_CALLS =
            List.of(Duration.ofMillis(300), Duration.ofMillis(400), Duration.ofMillis(500));

    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
            new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b)};

    private PoolMath() {}

    // ------------------------------------------------------------------ predictions

    /** Little's law: L tasks in flight, each taking W, complete at λ = L / W tasks per second. */
    public static double littleThroughput(int concurrency, Duration latency) {
        if (concurrency < 0) throw new IllegalArgumentException("concurrency cannot be negative: " + concurrency);
        Objects.requireNonNull(latency, "latency");
        if (latency.isNegative() || latency.isZero()) {
            throw new IllegalArgumentException("latency must be positive, not " + latency);
        }
        return concurrency / (latency.toNanos() / 1e9);
    }


    /**
     * One task's place in a predicted FIFO schedule.
     *
     * @param task   the task's index in the list
     * @param worker the worker (0-based) that runs it
     * @param start  when it starts
     * @param end    when it ends
     */
    public record Slot(int task, int worker, Duration start, Duration end) {}

    /**
     * The schedule a fixed pool of {@code workers} threads with a FIFO queue produces: all workers are free
     * at zero; the tasks are taken in list order, each by the worker that becomes free first (the lowest
     * numbered one on a tie), which runs it for its duration. A priority queue of (free-at, worker) gives the
     * first free worker in O(log P) per task.
     */
    public static List<Slot> fifoSchedule(List<Duration> taskTimes, int workers) {
        Objects.requireNonNull(taskTimes, "taskTimes");
        if (workers < 1) throw new IllegalArgumentException("a pool needs at least 1 worker, not " + workers);
        // each entry: {free-at nanos, worker}
        var free = new PriorityQueue<long[]>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        for (int w = 0; w < workers; w++) free.add(new long[] {0, w});
        var out = new ArrayList<Slot>(taskTimes.size());
        for (int i = 0; i < taskTimes.size(); i++) {
            Duration d = taskTimes.get(i);
            requireNonNegative("task " + i + "'s time", d);
            long[] next = free.poll();
            long end = next[0] + d.toNanos();
            out.add(new Slot(i, (int) next[1], Duration.ofNanos(next[0]), Duration.ofNanos(end)));
            free.add(new long[] {end, next[1]});
        }
        return out;
    }

    /** The time the last task ends in {@link #fifoSchedule}; zero for no tasks. */
    public static Duration fifoMakespan(List<Duration> taskTimes, int workers) {
        return fifoSchedule(taskTimes, workers).stream().map(Slot::end).max(Duration::compareTo).orElse(Duration.ZERO);
    }

    /** The most tasks any one worker runs in a schedule: the longest chain of tasks, one after another. */
    public static int longestChain(List<Slot> schedule) {
        var counts = new LinkedHashMap<Integer, Integer>();
        for (Slot s : schedule) counts.merge(s.worker(), 1, Integer::sum);
        return counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    /** Task lengths as multiples of {@code unit}: {@code units(ofMillis(50), 1, 1, 4)} = [50 ms, 50 ms, 200 ms]. */
    public static List<Duration> units(Duration unit, int... multiples) {
        requireNonNegative("unit", unit);
        var out = new ArrayList<Duration>(multiples.length);
        for (int m : multiples) {
            if (m < 0) throw new IllegalArgumentException("a task length cannot be negative: " + m);
            out.add(unit.multipliedBy(m));
        }
        return List.copyOf(out);
    }

    // ------------------------------------------------------------------ experiments

    /**
     * One point of the batch sweep.
     *
     * @param tasks          N
     * @param poolSize       P
     * @param waves          ceil(N / P)
     * @param predictedMillis ceil(N / P) · t
     * @param measuredMillis the run's elapsed time, creating the pool to closing it
     * @param slackMillis    {@link PoolModel#slack} for this run
     * @param tries          how many times it was run: 1, or more when a try landed outside the band
     */
    public record SweepPoint(int tasks, int poolSize, int waves, double predictedMillis, double measuredMillis,
                             double slackMillis, int tries) {
        /** Whether {@code predicted − EARLY ≤ measured ≤ predicted + slack}. */
        public boolean within() {
            return measuredMillis >= predictedMillis - EARLY.toNanos() / 1e6 && measuredMillis <= predictedMillis + slackMillis;
        }

        /** How much the measurement exceeds the prediction, in ms. */
        public double excessMillis() { return measuredMillis - predictedMillis; }
    }

    /**
     * Runs every task count on every pool size: {@code tasks} sleeps of {@code taskTime} on a fresh
     * {@code Executors.newFixedThreadPool(P)}, and compares each elapsed time with {@code ceil(N/P)·t}.
     * Shows one progress line for the whole sweep.
     */
    public static List<SweepPoint> sweep(int[] poolSizes, int[] taskCounts, Duration taskTime) throws InterruptedException {
        Objects.requireNonNull(poolSizes, "poolSizes");
        Objects.requireNonNull(taskCounts, "taskCounts");
        Limits.requireDuration("taskTime", taskTime);
        long totalNanos = 0;
        for (int p : poolSizes) {
            Limits.requirePlatformThreads(p);
            for (int n : taskCounts) totalNanos += PoolModel.batchTime(n, p, taskTime).toNanos();
        }
        if (poolSizes.length > 0 && taskCounts.length > 0) Limits.requireDuration("the sweep", Duration.ofNanos(totalNanos));
        var out = new ArrayList<SweepPoint>();
        var done = new AtomicInteger();
        try (var progress = Progress.start("sweep of " + poolSizes.length * taskCounts.length + " runs", poolSizes.length * taskCounts.length, done::get)) {
            for (int p : poolSizes) {
                for (int n : taskCounts) {
                    int w = PoolModel.waves(n, p);
                    double predicted = PoolModel.batchTime(n, p, taskTime).toNanos() / 1e6;
                    double allowed = PoolModel.slack(w, Math.min(n, p), 0).toNanos() / 1e6;
                    SweepPoint pt = null;
                    for (int tries = 1; tries <= MAX_TRIES && (pt == null || !pt.within()); tries++) {
                        RunResult r = Run.tasks(String.format("N=%d on P=%d", n, p), Pool.fixed(p), n, course.kit.Tasks.sleep(taskTime));
                        pt = new SweepPoint(n, p, w, predicted, r.elapsedMillis(), allowed, tries);
                    }
                    out.add(pt);
                    done.incrementAndGet();
                }
            }
        }
        return List.copyOf(out);
    }

    /**
     * Elapsed time against N, one colour per pool size: the prediction {@code ceil(N/P)·t} as a dashed
     * staircase (the step sits between N = kP and kP + 1), the measurements as points.
     */
    public static XYChart sweepChart(List<SweepPoint> points, Duration taskTime) {
        var series = new LinkedHashMap<String, double[][]>();
        var pools = points.stream().map(SweepPoint::poolSize).distinct().toList();
        int maxN = points.stream().mapToInt(SweepPoint::tasks).max().orElse(1);
        double t = taskTime.toNanos() / 1e6;
        for (int p : pools) {
            var xs = new ArrayList<Double>();
            var ys = new ArrayList<Double>();
            xs.add(0.0); ys.add(0.0);
            for (int k = 1; (k - 1) * p < maxN; k++) {
                double lo = (k - 1) * p + 0.5, hi = Math.min(k * p + 0.5, maxN + 0.5);
                xs.add(lo); ys.add((k - 1) * t);
                xs.add(lo); ys.add(k * t);
                xs.add(hi); ys.add(k * t);
            }
            series.put("predicted, P = " + p, new double[][] {unbox(xs), unbox(ys)});
            var mine = points.stream().filter(s -> s.poolSize() == p).toList();
            series.put("measured, P = " + p, new double[][] {mine.stream().mapToDouble(SweepPoint::tasks).toArray(),
                    mine.stream().mapToDouble(SweepPoint::measuredMillis).toArray()});
        }
        XYChart c = Charts.lines(String.format("ceil(N / P) · t with t = %s: predicted (dashed) and measured (points)",
                pretty(taskTime)), "tasks N", "elapsed (ms)", series);
        int k = 0;
        for (int p : pools) {
            Color col = PALETTE[k++ % PALETTE.length];
            XYSeries pred = c.getSeries("predicted, P = " + p);
            pred.setLineColor(col);
            XYSeries meas = c.getSeries("measured, P = " + p);
            meas.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            meas.setMarkerColor(col);
            meas.setMarker(SeriesMarkers.CIRCLE);
        }
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        c.getStyler().setMarkerSize(8);
        c.getStyler().setXAxisMin(0.0);
        c.getStyler().setYAxisMin(0.0);
        return c;
    }

    /**
     * One Little's-law run.
     *
     * @param executor           "fixed pool" or "virtual threads"
     * @param concurrency        L: the pool size, or the number of virtual threads (all in flight at once)
     * @param tasks              N
     * @param latencyMillis      W: each task's sleep
     * @param predictedPerSecond L / W
     * @param measuredPerSecond  N / elapsed
     * @param lowestPerSecond    N / (predicted elapsed + slack): the slowest throughput the tolerance allows
     * @param tries              how many times it was run: 1, or more when a try landed outside the band
     */
    public record LittlePoint(String executor, int concurrency, int tasks, double latencyMillis,
                              double predictedPerSecond, double measuredPerSecond, double lowestPerSecond, int tries) {
        /** Whether the measurement lies between the lowest allowed throughput and (a hair above) the prediction. */
        public boolean within() {
            double early = tasks / (predictedElapsedSeconds() - EARLY.toNanos() / 1e9);
            return measuredPerSecond >= lowestPerSecond && measuredPerSecond <= early;
        }

        /** The elapsed time the prediction implies: N / λ. */
        public double predictedElapsedSeconds() { return tasks / predictedPerSecond; }

        /** measured ÷ predicted. */
        public double ratio() { return measuredPerSecond / predictedPerSecond; }
    }

    /**
     * Little's law, measured: for each pool size P, {@code wavesPerPool · P} sleeps of {@code latency} on a
     * fixed pool of P (L = P); for each count L, L sleeps on one virtual thread each (all L in flight).
     * Throughput = N / elapsed, against L / W.
     */
    public static List<LittlePoint> little(int[] poolSizes, int wavesPerPool, int[] virtualCounts, Duration latency)
            throws InterruptedException {
        Objects.requireNonNull(poolSizes, "poolSizes");
        Objects.requireNonNull(virtualCounts, "virtualCounts");
        Limits.requireDuration("latency", latency);
        if (wavesPerPool < 1) throw new IllegalArgumentException("wavesPerPool must be at least 1: " + wavesPerPool);
        Limits.requireDuration("the Little's-law runs",
                latency.multipliedBy((long) wavesPerPool * poolSizes.length + virtualCounts.length));
        for (int p : poolSizes) Limits.requirePlatformThreads(p);
        for (int n : virtualCounts) Limits.requireVirtualThreads(n);
        int total = poolSizes.length + virtualCounts.length;
        var done = new AtomicInteger();
        var out = new ArrayList<LittlePoint>();
        double w = latency.toNanos() / 1e6;
        try (var progress = Progress.start("Little's law, " + total + " runs", total, done::get)) {
            for (int p : poolSizes) {
                int n = wavesPerPool * p;
                double predicted = littleThroughput(p, latency);
                double lowest = n / ((PoolModel.batchTime(n, p, latency).plus(PoolModel.slack(wavesPerPool, p, 0))).toNanos() / 1e9);
                LittlePoint pt = null;
                for (int tries = 1; tries <= MAX_TRIES && (pt == null || !pt.within()); tries++) {
                    RunResult r = Run.tasks(Pool.fixed(p), n, course.kit.Tasks.sleep(latency));
                    pt = new LittlePoint("fixed pool", p, n, w, predicted, r.throughputPerSecond(), lowest, tries);
                }
                out.add(pt);
                done.incrementAndGet();
            }
            for (int n : virtualCounts) {
                double predicted = littleThroughput(n, latency);
                double lowest = n / ((latency.plus(PoolModel.slack(1, 0, n))).toNanos() / 1e9);
                LittlePoint pt = null;
                for (int tries = 1; tries <= MAX_TRIES && (pt == null || !pt.within()); tries++) {
                    RunResult r = Run.tasks(Pool.virtual(), n, course.kit.Tasks.sleep(latency));
                    pt = new LittlePoint("virtual threads", n, n, w, predicted, r.throughputPerSecond(), lowest, tries);
                }
                out.add(pt);
                done.incrementAndGet();
            }
        }
        return List.copyOf(out);
    }

    /**
     * Throughput against concurrency on log–log axes: the dashed line λ = L / W, measured points for the
     * pools and for virtual threads, and the lowest throughput the tolerance allows (dotted).
     */
    public static XYChart littleChart(List<LittlePoint> points) {
        double w = points.isEmpty() ? 1 : points.getFirst().latencyMillis();
        double maxL = points.stream().mapToInt(LittlePoint::concurrency).max().orElse(1);
        var series = new LinkedHashMap<String, double[][]>();
        series.put("predicted λ = L / W", new double[][] {{1, maxL}, {1000.0 / w, maxL * 1000.0 / w}});
        for (String kind : List.of("fixed pool", "virtual threads")) {
            var mine = points.stream().filter(p -> p.executor().equals(kind)).toList();
            if (mine.isEmpty()) continue;
            series.put("measured, " + kind, new double[][] {mine.stream().mapToDouble(LittlePoint::concurrency).toArray(),
                    mine.stream().mapToDouble(LittlePoint::measuredPerSecond).toArray()});
        }
        XYChart c = Charts.lines(String.format("Little's law: throughput = L / W, W = %s", pretty(Duration.ofNanos((long) (w * 1e6)))),
                "tasks in flight L (pool size, or virtual threads)", "throughput (tasks/s)", series);
        for (var s : c.getSeriesCollection()) {
            if (s.getName().startsWith("measured")) s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
        c.getStyler().setXAxisLogarithmic(true);
        c.getStyler().setYAxisLogarithmic(true);
        c.getStyler().setMarkerSize(9);
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        return c;
    }

    /**
     * A list of tasks run on a real fixed pool, next to its predicted FIFO schedule.
     *
     * @param label     what the order is, for example "long task last"
     * @param taskTimes the tasks, in submission order
     * @param workers   the pool size
     * @param schedule  the predicted schedule ({@link #fifoSchedule})
     * @param predicted the predicted makespan
     * @param slack     the tolerance: per-wave slack × the longest chain, plus thread starts and fixed costs
     * @param run       the measured run
     * @param tries     how many times it was run: 1, or more when a try landed outside the band
     */
    public record MakespanRun(String label, List<Duration> taskTimes, int workers, List<Slot> schedule,
                              Duration predicted, Duration slack, RunResult run, int tries) {
        /** The measured makespan: the run's elapsed time, creating the pool to closing it. */
        public Duration measured() { return run.elapsed(); }

        /** Whether {@code predicted − EARLY ≤ measured ≤ predicted + slack}. */
        public boolean within() {
            return measured().compareTo(predicted.minus(EARLY)) >= 0 && measured().compareTo(predicted.plus(slack)) <= 0;
        }
    }

    /**
     * Runs {@code taskTimes} (sleeps, in list order) on a fresh fixed pool of {@code workers} and returns it
     * with the predicted FIFO schedule. A real {@code ThreadPoolExecutor} hands each queued task to the
     * first worker that asks for one, which is the worker that became free first: the same rule.
     */
    public static MakespanRun makespan(String label, List<Duration> taskTimes, int workers) throws InterruptedException {
        Objects.requireNonNull(label, "label");
        List<Slot> schedule = fifoSchedule(taskTimes, workers);
        Duration predicted = fifoMakespan(taskTimes, workers);
        if (!taskTimes.isEmpty()) Limits.requireDuration(label, predicted.isZero() ? Duration.ofNanos(1) : predicted);
        List<Duration> times = List.copyOf(taskTimes);
        // Late ends can change which worker takes a task, so allow the slack on every task (a chain of all N).
        Duration slack = PoolModel.slack(times.size(), Math.min(workers, times.size()), 0);
        MakespanRun m = null;
        for (int tries = 1; tries <= MAX_TRIES && (m == null || !m.within()); tries++) {
            RunResult run = Run.tasks(label, Pool.fixed(workers), times.size(), i -> Thread.sleep(times.get(i)));
            m = new MakespanRun(label, times, workers, schedule, predicted, slack, run, tries);
        }
        return m;
    }

    /**
     * The predicted schedule as a chart: one lane per worker, each task a bar from its start to its end,
     * coloured by its length.
     */
    public static XYChart scheduleChart(String title, List<Slot> schedule, double axisSeconds) {
        XYChart c = Charts.xy(title, "time since start (s)", "worker");
        // one colour per task length, and a small gap after each task so that neighbours read apart
        var lengths = schedule.stream().map(s -> s.end().minus(s.start())).distinct().sorted().toList();
        double gap = axisSeconds * 0.004;
        for (Slot s : schedule) {
            double y = s.worker() + 1;
            double a = s.start().toNanos() / 1e9, b = Math.max(a, s.end().toNanos() / 1e9 - gap);
            XYSeries ser = c.addSeries("task " + s.task(), new double[] {a, b}, new double[] {y, y});
            ser.setMarker(SeriesMarkers.NONE);
            ser.setLineColor(PALETTE[lengths.indexOf(s.end().minus(s.start())) % PALETTE.length]);
            ser.setLineStyle(new BasicStroke(14f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER));
        }
        int workers = schedule.stream().mapToInt(Slot::worker).max().orElse(0) + 1;
        c.getStyler().setLegendVisible(false);
        c.getStyler().setYAxisMin(0.3);
        c.getStyler().setYAxisMax(workers + 0.7);
        c.getStyler().setYAxisDecimalPattern("0");
        c.getStyler().setXAxisMin(0.0);
        c.getStyler().setXAxisMax(axisSeconds * 1.02);
        return c;
    }

    /**
     * Article 002's experiment, measured.
     *
     * @param calls               each call's latency
     * @param sequential          the calls one after another on one thread
     * @param parallel            one virtual thread per call
     * @param predictedSequential the sum of the latencies
     * @param predictedParallel   the longest latency
     * @param tries               how many runs of each it took: 1 each, or more when a try landed outside its band
     */
    public record ThreeCalls(List<Duration> calls, RunResult sequential, RunResult parallel,
                             Duration predictedSequential, Duration predictedParallel, int tries) {
        /** The tolerance on the sequential run: one wave per call, one platform thread. */
        public Duration sequentialSlack() { return PoolModel.slack(calls.size(), 1, 0); }

        /** The tolerance on the parallel run: one wave, one virtual thread per call. */
        public Duration parallelSlack() { return PoolModel.slack(1, 0, calls.size()); }

        /** Whether both runs lie in their bands: [prediction − EARLY, prediction + slack]. */
        public boolean within() {
            return inBand(sequential.elapsed(), predictedSequential, sequentialSlack())
                    && inBand(parallel.elapsed(), predictedParallel, parallelSlack());
        }
    }

    /**
     * Runs the calls (sleeps of the given latencies) one after another on a single thread, then each on its
     * own virtual thread. Predicted: the sum, then the maximum.
     */
    public static ThreeCalls threeCalls(List<Duration> calls) throws InterruptedException {
        Objects.requireNonNull(calls, "calls");
        if (calls.isEmpty()) throw new IllegalArgumentException("give at least one call");
        calls.forEach(d -> Limits.requireDuration("a call's latency", d));
        List<Duration> times = List.copyOf(calls);
        Duration sum = times.stream().reduce(Duration.ZERO, Duration::plus);
        Duration max = times.stream().max(Duration::compareTo).orElseThrow();
        Limits.requireDuration("the sequential calls", sum);
        var one = Pool.of("one thread, call after call", false, 1, Executors::newSingleThreadExecutor);
        ThreeCalls r = null;
        for (int tries = 1; tries <= MAX_TRIES && (r == null || !r.within()); tries++) {
            RunResult seq = Run.tasks("sequential", one, times.size(), i -> Thread.sleep(times.get(i)));
            RunResult par = Run.tasks("parallel, a virtual thread per call", Pool.virtual(), times.size(), i -> Thread.sleep(times.get(i)));
            r = new ThreeCalls(times, seq, par, sum, max, tries);
        }
        return r;
    }

    // ------------------------------------------------------------------ tables

    /** The sweep as a table: one row per task count N, predicted and measured milliseconds per pool size. */
    public static Table sweepTable(List<SweepPoint> points) {
        var pools = points.stream().map(SweepPoint::poolSize).distinct().toList();
        var counts = points.stream().map(SweepPoint::tasks).distinct().toList();
        var cols = new ArrayList<String>(List.of("tasks N"));
        for (int p : pools) {
            cols.add("P=" + p + " waves");
            cols.add("P=" + p + " predicted (ms)");
            cols.add("P=" + p + " measured (ms)");
        }
        cols.add("re-runs");
        var b = Tables.of("ceil(N / P) · t, predicted and measured", cols.toArray(String[]::new));
        for (int n : counts) {
            var row = new ArrayList<Object>(List.of(n));
            int reruns = 0;
            for (int p : pools) {
                var pt = points.stream().filter(x -> x.tasks() == n && x.poolSize() == p).findFirst().orElseThrow();
                row.add(pt.waves());
                row.add(Tables.round(pt.predictedMillis(), 1));
                row.add(Tables.round(pt.measuredMillis(), 1));
                reruns += pt.tries() - 1;
            }
            row.add(reruns);
            b.row(row.toArray());
        }
        return b.table();
    }

    /** The Little's-law runs as a table. */
    public static Table littleTable(List<LittlePoint> points) {
        var b = Tables.of("Little's law: λ = L / W, predicted and measured", "executor", "L in flight", "tasks N",
                "W (ms)", "predicted λ (tasks/s)", "measured λ (tasks/s)", "measured ÷ predicted", "lowest allowed (tasks/s)", "tries");
        for (var p : points) {
            b.row(p.executor(), p.concurrency(), p.tasks(), p.latencyMillis(), Tables.round(p.predictedPerSecond(), 1),
                    Tables.round(p.measuredPerSecond(), 1), Tables.round(p.ratio(), 3), Tables.round(p.lowestPerSecond(), 1), p.tries());
        }
        return b.table();
    }

    /** Makespan runs as a table: predicted (FIFO schedule) against measured, with the bound for any order. */
    public static Table makespanTable(MakespanRun... runs) {
        var b = Tables.of("FIFO makespan on a fixed pool, predicted and measured", "order", "workers", "tasks",
                "lower bound, any order (ms)", "predicted FIFO (ms)", "measured (ms)", "excess (ms)", "allowed excess (ms)", "tries");
        for (var r : runs) {
            Duration total = r.taskTimes().stream().reduce(Duration.ZERO, Duration::plus);
            Duration longest = r.taskTimes().stream().max(Duration::compareTo).orElse(Duration.ZERO);
            double bound = Math.max(longest.toNanos(), total.toNanos() / (double) r.workers()) / 1e6;
            b.row(r.label(), r.workers(), r.taskTimes().size(), Tables.round(bound, 1), r.predicted().toNanos() / 1e6,
                    Tables.round(r.run().elapsedMillis(), 1), Tables.round(r.run().elapsedMillis() - r.predicted().toNanos() / 1e6, 1),
                    Tables.round(r.slack().toNanos() / 1e6, 1), r.tries());
        }
        return b.table();
    }

    /** Article 002's runs as a table, with the predictions. */
    public static Table threeCallsTable(ThreeCalls r) {
        return Tables.of("Article 002: three calls of " + r.calls().stream().map(d -> d.toMillis() + "").toList() + " ms",
                        "run", "threads", "predicted (ms)", "measured (ms)", "excess (ms)", "allowed excess (ms)", "tries", "article")
                .row("sequential", r.sequential().threadsUsed(), r.predictedSequential().toNanos() / 1e6,
                        Tables.round(r.sequential().elapsedMillis(), 1),
                        Tables.round(r.sequential().elapsedMillis() - r.predictedSequential().toNanos() / 1e6, 1),
                        r.sequentialSlack().toNanos() / 1e6, r.tries(), "~1.2 s")
                .row("parallel (virtual threads)", r.parallel().threadsUsed(), r.predictedParallel().toNanos() / 1e6,
                        Tables.round(r.parallel().elapsedMillis(), 1),
                        Tables.round(r.parallel().elapsedMillis() - r.predictedParallel().toNanos() / 1e6, 1),
                        r.parallelSlack().toNanos() / 1e6, r.tries(), "~0.5 s")
                .table();
    }

    // ------------------------------------------------------------------ reproduction

    /**
     * Article 002's three calls (300, 400, 500 ms): sequential against parallel on virtual threads. The
     * latencies are the article's at both scales (the run takes under 2 s).
     */
    public static List<Reproduction> reproduce(Scale scale) throws InterruptedException {
        Objects.requireNonNull(scale, "scale");
        ThreeCalls r = threeCalls(ARTICLE_002_CALLS);
        String note = "calls of 300, 400 and 500 ms (the article's, at every scale); sequential = sum, parallel = longest"
                + (r.tries() > 1 ? "; measured on try " + r.tries() + " (an earlier try fell outside the band)" : "");
        return List.of(
                new Reproduction("3 calls (300/400/500 ms) one after another", "002", "~1.2 s sequential",
                        r.predictedSequential().toNanos() / 1e6, r.sequential().elapsedMillis(), "ms", note),
                new Reproduction("3 calls (300/400/500 ms) on virtual threads", "002", "~0.5 s parallel",
                        r.predictedParallel().toNanos() / 1e6, r.parallel().elapsedMillis(), "ms", note));
    }

    // ------------------------------------------------------------------ helpers

    static boolean inBand(Duration measured, Duration predicted, Duration slack) {
        return measured.compareTo(predicted.minus(EARLY)) >= 0 && measured.compareTo(predicted.plus(slack)) <= 0;
    }

    static String pretty(Duration d) {
        long ms = d.toMillis();
        return ms >= 1000 && ms % 100 == 0 ? String.format("%.1f s", ms / 1000.0) : ms + " ms";
    }

    private static double[] unbox(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static void requireNonNegative(String what, Duration d) {
        Objects.requireNonNull(d, what);
        if (d.isNegative()) throw new IllegalArgumentException(what + " cannot be negative: " + d);
    }
}
