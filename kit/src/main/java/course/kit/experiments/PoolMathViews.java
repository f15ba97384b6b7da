package course.kit.experiments;

import course.kit.Format;
import course.kit.RunResult;
import course.kit.charts.Charts;
import course.kit.charts.Tables;
import course.kit.experiments.PoolMath.Batch;
import course.kit.experiments.PoolMath.BatchModel;
import course.kit.experiments.PoolMath.Loop;
import course.kit.experiments.PoolMath.Makespan;
import course.kit.experiments.PoolMath.ThroughputModel;
import course.kit.models.PoolModel;
import java.awt.Color;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.Table;

/**
 * Notebook 03's charts and tables, drawn from what its cells measured ({@link PoolMath.Batch}, {@link PoolMath.Loop},
 * {@link PoolMath.Makespan}): the waves of a fixed pool, Little's law in a closed loop, and the makespan of uneven
 * tasks, each against its prediction.
 */
public final class PoolMathViews {
    private PoolMathViews() {}

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
        return littleChart(loops, PoolModel::littleThroughput, "predicted λ = L / W");
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

    private static java.awt.BasicStroke dashed() {
        return new java.awt.BasicStroke(
                2f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);
    }

    private static double[] unbox(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
