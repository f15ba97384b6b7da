package course.kit.experiments;

import course.kit.Band;
import course.kit.Charts;
import course.kit.Check;
import course.kit.Format;
import course.kit.PoolModel;
import course.kit.Recorder;
import course.kit.Reproduction;
import course.kit.RunResult;
import course.kit.Scale;
import course.kit.Tables;
import java.awt.Color;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executors;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.Table;

/**
 * Notebook 03's models and views. The notebook's cells hold the executors and the submit loops; this class
 * holds what cells should not carry: the bands its timing checks use, the charts and tables that draw what the
 * cells measured, and the rows of {@code ./course reproduce}.
 *
 * <ul>
 *   <li><b>Waves</b> ({@link Batch}, {@link #wavesChart}, {@link #wavesTable}): N equal tasks of t on a fixed
 *       pool of P threads take ⌈N/P⌉·t ({@link PoolModel#batchTime}).</li>
 *   <li><b>Little's law</b> ({@link Loop}, {@link #loopBand}, {@link #littleChart}, {@link #littleTable}): L clients
 *       that call, wait W and call again complete λ = L / W calls per second.</li>
 *   <li><b>Uneven tasks</b> ({@link Makespan}, {@link #makespanBand}, {@link #makespanChart}): a list of task
 *       lengths on a FIFO pool, measured against a makespan predicted elsewhere (by hand, or by the learner's
 *       exercise). The kit holds no makespan algorithm: that is exercise 03.</li>
 *   <li><b>Article 002</b> ({@link #ARTICLE_002_CALLS}, {@link #callsTable}, {@link #reproduce}).</li>
 * </ul>
 */
public final class PoolMath {
    /** How often a timing check runs its experiment in all: {@link Check#TIMING_TRIES}. */
    public static final int MAX_TRIES = Check.TIMING_TRIES;

    /** Article 002's three remote calls. */
    public static final List<Duration> ARTICLE_002_CALLS =
            List.of(Duration.ofMillis(300), Duration.ofMillis(400), Duration.ofMillis(500));

    private PoolMath() {}

    // ------------------------------------------------------------------ models

    /** A prediction of a batch's time: N equal tasks of t on P threads ({@code PoolModel::batchTime}, or yours). */
    @FunctionalInterface
    public interface BatchModel {
        /** The predicted time of {@code tasks} tasks of {@code taskTime} on {@code poolSize} threads. */
        Duration time(int tasks, int poolSize, Duration taskTime);
    }

    /** A prediction of throughput from concurrency and latency ({@code PoolMath::littleThroughput}, or yours). */
    @FunctionalInterface
    public interface ThroughputModel {
        /** Tasks per second with {@code concurrency} in flight, each taking {@code latency}. */
        double perSecond(int concurrency, Duration latency);
    }

    /** Little's law: L tasks in flight, each taking W, complete at λ = L / W tasks per second. */
    public static double littleThroughput(int concurrency, Duration latency) {
        if (concurrency < 0) throw new IllegalArgumentException("concurrency cannot be negative: " + concurrency);
        requirePositive("latency", latency);
        return concurrency / (latency.toNanos() / 1e9);
    }

    /** Task lengths as multiples of {@code unit}: {@code units(ofMillis(50), 1, 1, 4)} = [50 ms, 50 ms, 200 ms]. */
    public static List<Duration> units(Duration unit, int... multiples) {
        Objects.requireNonNull(unit, "unit");
        if (unit.isNegative()) throw new IllegalArgumentException("unit cannot be negative: " + unit);
        var out = new ArrayList<Duration>(multiples.length);
        for (int m : multiples) {
            if (m < 0) throw new IllegalArgumentException("a task length cannot be negative: " + m);
            out.add(unit.multipliedBy(m));
        }
        return List.copyOf(out);
    }

    /**
     * The band for a closed loop: {@code clients} callers that each make {@code callsEach} calls of {@code latency}
     * one after another, all clients at once. The calls take {@code callsEach · latency} at least; on top come
     * {@link PoolModel#slack}'s allowances: one wave per call, and per thread either a platform thread per client
     * (a pool of {@code clients}) or, for virtual clients, one virtual-thread allowance per call, since every call
     * parks and wakes its virtual thread again, which is what the calibration of a virtual thread measures.
     */
    public static Band loopBand(int clients, int callsEach, Duration latency, boolean virtual) {
        if (clients < 1 || callsEach < 1) {
            throw new IllegalArgumentException(
                    "a loop needs at least 1 client and 1 call each: " + clients + ", " + callsEach);
        }
        requirePositive("latency", latency);
        if (!virtual) return PoolModel.band(clients * callsEach, clients, latency);
        double lo = latency.multipliedBy(callsEach).toNanos() / 1e6;
        double slack = PoolModel.slack(callsEach, 0, clients * callsEach).toNanos() / 1e6;
        return new Band(
                lo,
                lo + slack,
                "ms",
                String.format(
                        Locale.ROOT,
                        "%d calls × %s one after another, + up to %,.0f ms for %,d virtual threads parking and waking %d times",
                        callsEach,
                        Format.duration(latency),
                        slack,
                        clients,
                        callsEach));
    }

    /**
     * The band for a list of tasks on a FIFO pool of {@code workers}, given a predicted makespan: from the
     * prediction up to the prediction plus {@link PoolModel#slack} with one wave per task (a task that ends late
     * can change which worker takes the next one, so any task may sit on the longest chain) and one platform
     * thread per worker used.
     */
    public static Band makespanBand(Duration predicted, int tasks, int workers) {
        Objects.requireNonNull(predicted, "predicted");
        if (tasks < 0 || workers < 1)
            throw new IllegalArgumentException("tasks >= 0 and workers >= 1: " + tasks + ", " + workers);
        double lo = predicted.toNanos() / 1e6;
        double slack = PoolModel.slack(tasks, Math.min(tasks, workers), 0).toNanos() / 1e6;
        return new Band(
                lo,
                lo + slack,
                "ms",
                String.format(
                        Locale.ROOT,
                        "the predicted makespan, + up to %,.0f ms for %d late task ends and %d platform threads",
                        slack,
                        tasks,
                        Math.min(tasks, workers)));
    }

    // ------------------------------------------------------------------ what the cells measured

    /**
     * One batch of the sweep: {@code tasks} sleeps of {@code taskTime} on a fixed pool of {@code poolSize}.
     *
     * @param run what the cell measured
     */
    public record Batch(int tasks, int poolSize, Duration taskTime, RunResult run) {
        public Batch {
            Objects.requireNonNull(taskTime, "taskTime");
            Objects.requireNonNull(run, "run");
        }

        /** ⌈N/P⌉. */
        public int waves() {
            return PoolModel.waves(tasks, poolSize);
        }

        /** ⌈N/P⌉·t in ms. */
        public double predictedMillis() {
            return PoolModel.batchTime(tasks, poolSize, taskTime).toNanos() / 1e6;
        }
    }

    /**
     * One closed loop: {@code clients} callers on {@code executor} ("fixed pool of 20", "virtual threads"), each
     * making {@code callsEach} calls of {@code latency}.
     *
     * @param run what the cell measured (one record per call)
     */
    public record Loop(String executor, int clients, int callsEach, Duration latency, RunResult run) {
        public Loop {
            Objects.requireNonNull(executor, "executor");
            Objects.requireNonNull(latency, "latency");
            Objects.requireNonNull(run, "run");
        }

        /** Whether the calls ran on virtual threads. */
        public boolean virtual() {
            return run.count() > 0 && run.virtualTasks() == run.count();
        }

        /** L / W, with L = the clients. */
        public double predictedPerSecond() {
            return littleThroughput(clients, latency);
        }

        /** Calls completed per second of elapsed time. */
        public double measuredPerSecond() {
            return run.throughputPerSecond();
        }
    }

    /**
     * A list of tasks run on a fixed pool, with the makespan predicted for it.
     *
     * @param label     what the list is, for example "long task last"
     * @param taskTimes the tasks, in submission order
     * @param workers   the pool size
     * @param predicted the predicted makespan
     * @param run       what the cell measured
     */
    public record Makespan(String label, List<Duration> taskTimes, int workers, Duration predicted, RunResult run) {
        public Makespan {
            Objects.requireNonNull(label, "label");
            taskTimes = List.copyOf(taskTimes);
            Objects.requireNonNull(predicted, "predicted");
            Objects.requireNonNull(run, "run");
        }

        /** {@link #makespanBand} for this list. */
        public Band band() {
            return makespanBand(predicted, taskTimes.size(), workers);
        }

        /** Whether the measured makespan lies in {@link #band()}. */
        public boolean within() {
            return band().contains(run.elapsedMillis());
        }
    }

    // ------------------------------------------------------------------ views

    /** {@link #wavesChart(List, BatchModel, String)} with the course's model, ⌈N/P⌉·t. */
    public static XYChart wavesChart(List<Batch> batches) {
        return wavesChart(batches, PoolModel::batchTime, "predicted");
    }

    /**
     * Elapsed time against N, one colour per pool size: the model's prediction for every N as a dashed staircase,
     * the measurements as points. {@code modelName} labels the prediction ("predicted", "your fixedPoolTime").
     */
    public static XYChart wavesChart(List<Batch> batches, BatchModel model, String modelName) {
        Objects.requireNonNull(model, "model");
        var series = new LinkedHashMap<String, double[][]>();
        var pools = batches.stream().map(Batch::poolSize).distinct().toList();
        int maxN = batches.stream().mapToInt(Batch::tasks).max().orElse(1);
        Duration t = batches.isEmpty() ? Duration.ZERO : batches.getFirst().taskTime();
        for (int p : pools) {
            var xs = new ArrayList<Double>();
            var ys = new ArrayList<Double>();
            for (int n = 1; n <= maxN; n++) {
                double y = model.time(n, p, t).toNanos() / 1e6;
                xs.add(n - 0.5);
                ys.add(y);
                xs.add(n + 0.5);
                ys.add(y);
            }
            series.put(modelName + ", P = " + p, new double[][] {unbox(xs), unbox(ys)});
            var mine = batches.stream().filter(b -> b.poolSize() == p).toList();
            series.put("measured, P = " + p, new double[][] {
                mine.stream().mapToDouble(Batch::tasks).toArray(),
                mine.stream().mapToDouble(b -> b.run().elapsedMillis()).toArray()
            });
        }
        XYChart c = Charts.lines(
                String.format("%s (dashed) and measured (points), tasks of t = %s", modelName, Format.duration(t)),
                "tasks N",
                "elapsed (ms)",
                series);
        int k = 0;
        for (int p : pools) {
            Color col = Charts.colour(k++);
            XYSeries pred = c.getSeries(modelName + ", P = " + p);
            pred.setLineColor(col);
            pred.setLineStyle(dashed());
            pred.setMarker(SeriesMarkers.NONE);
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

    /** The sweep as a table: one row per run, with waves, prediction, measurement and threads used. */
    public static Table wavesTable(List<Batch> batches) {
        var b = Tables.of(
                "⌈N / P⌉ · t, predicted and measured",
                "tasks N",
                "pool P",
                "waves ⌈N/P⌉",
                "predicted (ms)",
                "measured (ms)",
                "over the prediction (ms)",
                "threads used",
                "peak in flight");
        for (var x : batches) {
            b.row(
                    x.tasks(),
                    x.poolSize(),
                    x.waves(),
                    Tables.round(x.predictedMillis(), 1),
                    Tables.round(x.run().elapsedMillis(), 1),
                    Tables.round(x.run().elapsedMillis() - x.predictedMillis(), 1),
                    x.run().threadsUsed(),
                    x.run().peakConcurrency());
        }
        return b.table();
    }

    /** {@link #littleChart(List, ThroughputModel, String)} with Little's law, λ = L / W. */
    public static XYChart littleChart(List<Loop> loops) {
        return littleChart(loops, PoolMath::littleThroughput, "predicted λ = L / W");
    }

    /**
     * Throughput against the number of clients L on log–log axes: the model as a dashed line through every L
     * measured, the measured throughput as points, one colour for pools and one for virtual threads.
     */
    public static XYChart littleChart(List<Loop> loops, ThroughputModel model, String modelName) {
        Objects.requireNonNull(model, "model");
        Duration w = loops.isEmpty() ? Duration.ofSeconds(1) : loops.getFirst().latency();
        var ls = loops.stream().mapToInt(Loop::clients).distinct().sorted().toArray();
        var series = new LinkedHashMap<String, double[][]>();
        series.put(
                modelName.toLowerCase(Locale.ROOT).startsWith("predicted") ? modelName : "predicted by " + modelName,
                new double[][] {
                    java.util.Arrays.stream(ls).asDoubleStream().toArray(),
                    java.util.Arrays.stream(ls)
                            .mapToDouble(l -> model.perSecond(l, w))
                            .toArray()
                });
        for (boolean virtual : new boolean[] {false, true}) {
            var mine = loops.stream().filter(l -> l.virtual() == virtual).toList();
            if (mine.isEmpty()) continue;
            series.put(virtual ? "measured, virtual threads" : "measured, fixed pools", new double[][] {
                mine.stream().mapToDouble(Loop::clients).toArray(),
                mine.stream().mapToDouble(Loop::measuredPerSecond).toArray()
            });
        }
        XYChart c = Charts.lines(
                String.format("Little's law in a closed loop: calls of W = %s", Format.duration(w)),
                "clients L (calls in flight)",
                "throughput λ (calls/s)",
                series);
        for (var s : c.getSeriesCollection()) {
            if (s.getName().startsWith("measured")) s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
        c.getStyler().setXAxisLogarithmic(true);
        c.getStyler().setYAxisLogarithmic(true);
        c.getStyler().setMarkerSize(9);
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        return c;
    }

    /** The closed loops as a table: L, W, predicted and measured throughput, and the peak in flight. */
    public static Table littleTable(List<Loop> loops) {
        var b = Tables.of(
                "Little's law: λ = L / W, predicted and measured",
                "executor",
                "clients L",
                "calls",
                "W (ms)",
                "predicted λ (calls/s)",
                "measured λ (calls/s)",
                "measured ÷ predicted",
                "peak in flight");
        for (var l : loops) {
            b.row(
                    l.executor(),
                    l.clients(),
                    l.run().count(),
                    Tables.round(l.latency().toNanos() / 1e6, 1),
                    Tables.round(l.predictedPerSecond(), 1),
                    Tables.round(l.measuredPerSecond(), 1),
                    Tables.round(l.measuredPerSecond() / l.predictedPerSecond(), 3),
                    l.run().peakConcurrency());
        }
        return b.table();
    }

    /**
     * Predicted against measured makespans, bars per list with the highest figure the band allows;
     * {@code predictedBy} names the prediction ("worked by hand", "your makespan"), {@code xTitle} what the lists'
     * labels are (keep the labels short: they sit under the bars).
     */
    public static CategoryChart makespanChart(String title, String xTitle, List<Makespan> runs, String predictedBy) {
        var labels = runs.stream().map(Makespan::label).toList();
        var series = new LinkedHashMap<String, List<? extends Number>>();
        series.put(
                "predicted (" + predictedBy + ")",
                runs.stream()
                        .map(r -> Tables.round(r.predicted().toNanos() / 1e6, 0))
                        .toList());
        series.put(
                "measured on a fixed pool",
                runs.stream().map(r -> Tables.round(r.run().elapsedMillis(), 0)).toList());
        series.put(
                "highest the band allows",
                runs.stream().map(r -> Tables.round(r.band().hi(), 0)).toList());
        CategoryChart c = Charts.groupedBars(title, "makespan (ms)", labels, series);
        c.setXAxisTitle(xTitle);
        c.getStyler().setSeriesColors(new Color[] {Charts.colour(0), Charts.colour(2), new Color(0xbbbbbb)});
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        c.getStyler().setLabelsVisible(false);
        return c;
    }

    /** Makespans as a table: prediction, measurement, the band and whether the measurement lies in it. */
    public static Table makespanTable(String title, List<Makespan> runs) {
        var b = Tables.of(title, "list", "workers", "predicted (ms)", "measured (ms)", "band (ms)", "in the band");
        for (var r : runs) {
            b.row(
                    r.label(),
                    r.workers(),
                    Tables.round(r.predicted().toNanos() / 1e6, 1),
                    Tables.round(r.run().elapsedMillis(), 1),
                    String.format(
                            Locale.ROOT,
                            "%,.0f … %,.0f",
                            r.band().lo(),
                            r.band().hi()),
                    r.within() ? "yes" : "no");
        }
        return b.table();
    }

    /** Article 002's two runs as a table, with the predictions (sum and longest) and the article's figures. */
    public static Table callsTable(List<Duration> calls, RunResult sequential, RunResult parallel) {
        double sum = calls.stream().mapToLong(Duration::toNanos).sum() / 1e6;
        double max = calls.stream().mapToLong(Duration::toNanos).max().orElse(0) / 1e6;
        return Tables.of(
                        "Article 002: calls of "
                                + calls.stream().map(Format::duration).toList(),
                        "run",
                        "threads used",
                        "predicted (ms)",
                        "measured (ms)",
                        "over the prediction (ms)",
                        "article")
                .row(
                        sequential.name(),
                        sequential.threadsUsed(),
                        sum,
                        Tables.round(sequential.elapsedMillis(), 1),
                        Tables.round(sequential.elapsedMillis() - sum, 1),
                        "~1.2 s")
                .row(
                        parallel.name(),
                        parallel.threadsUsed(),
                        max,
                        Tables.round(parallel.elapsedMillis(), 1),
                        Tables.round(parallel.elapsedMillis() - max, 1),
                        "~0.5 s")
                .table();
    }

    // ------------------------------------------------------------------ reproduction

    /**
     * Article 002's three calls, as notebook 03's cells run them: one after another on the calling thread, then
     * each on its own virtual thread. The latencies are the article's at both scales (the pair takes under 2 s).
     */
    public static List<Reproduction> reproduce(Scale scale) throws InterruptedException {
        Objects.requireNonNull(scale, "scale");
        List<Duration> calls = ARTICLE_002_CALLS;
        double sum = calls.stream().mapToLong(Duration::toNanos).sum() / 1e6;
        double max = calls.stream().mapToLong(Duration::toNanos).max().orElseThrow() / 1e6;
        RunResult seq = oneAfterAnother(calls);
        RunResult par = onVirtualThreads(calls);
        String note =
                "calls of 300, 400 and 500 ms (the article's, at every scale); sequential = sum, parallel = longest";
        return List.of(
                new Reproduction(
                        "3 calls (300/400/500 ms) one after another",
                        "002",
                        "~1.2 s sequential",
                        sum,
                        seq.elapsedMillis(),
                        "ms",
                        note),
                new Reproduction(
                        "3 calls (300/400/500 ms) on virtual threads",
                        "002",
                        "~0.5 s parallel",
                        max,
                        par.elapsedMillis(),
                        "ms",
                        note));
    }

    /** The notebook's sequential cell: each call in turn, on the calling thread. */
    static RunResult oneAfterAnother(List<Duration> calls) {
        var rec = Recorder.start("one after another", calls.size());
        for (Duration d : calls) rec.task(() -> Thread.sleep(d)).run();
        return rec.stop();
    }

    /** The notebook's parallel cell: a virtual thread per call. */
    static RunResult onVirtualThreads(List<Duration> calls) {
        var rec = Recorder.start("a virtual thread per call", calls.size());
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Duration d : calls) executor.submit(rec.task(() -> Thread.sleep(d)));
        }
        return rec.stop();
    }

    // ------------------------------------------------------------------ helpers

    private static java.awt.BasicStroke dashed() {
        return new java.awt.BasicStroke(
                2f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);
    }

    private static double[] unbox(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static void requirePositive(String what, Duration d) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) throw new IllegalArgumentException(what + " must be positive, not " + d);
    }
}
