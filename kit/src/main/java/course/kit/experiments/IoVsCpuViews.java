package course.kit.experiments;

import course.kit.RunResult;
import course.kit.charts.Charts;
import course.kit.charts.Tables;
import java.awt.Color;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.stream.IntStream;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.Table;

/**
 * Notebook 04's tables and charts, drawn from what its cells measured ({@link IoVsCpu.Measured},
 * {@link RunResult}, {@link Lateness.Result}) and what {@link IoVsCpu} predicts.
 */
public final class IoVsCpuViews {
    private IoVsCpuViews() {}

    /**
     * One row per run: its threads, elapsed against {@code predictedMillis} (one per run, same order), the
     * process's CPU time, the cores it kept busy and the most tasks in flight at once.
     */
    public static Table table(String title, List<IoVsCpu.Measured> runs, double... predictedMillis) {
        Objects.requireNonNull(runs, "runs");
        if (predictedMillis.length != runs.size()) {
            throw new IllegalArgumentException(predictedMillis.length + " predictions for " + runs.size() + " runs");
        }
        var b = Tables.of(
                title,
                "executor",
                "thread kind",
                "threads used",
                "tasks",
                "elapsed (ms)",
                "predicted (ms)",
                "measured ÷ predicted",
                "CPU time (ms)",
                "cores busy",
                "tasks in flight at peak");
        for (int i = 0; i < runs.size(); i++) {
            IoVsCpu.Measured m = runs.get(i);
            RunResult r = m.run();
            b.row(
                    r.name(),
                    kind(r),
                    r.threadsUsed(),
                    r.count(),
                    Tables.round(r.elapsedMillis(), 1),
                    Tables.round(predictedMillis[i], 1),
                    Tables.round(r.elapsedMillis() / predictedMillis[i], 2),
                    Tables.round(m.cpuMillis(), 0),
                    Tables.round(m.coresBusy(), 2),
                    r.peakConcurrency());
        }
        return b.table();
    }

    /** {@link #table(String, List, double...)} for runs measured without CPU time. */
    public static Table runs(String title, List<RunResult> runs, double... predictedMillis) {
        var b = Tables.of(
                title,
                "executor",
                "thread kind",
                "threads used",
                "tasks",
                "elapsed (ms)",
                "predicted (ms)",
                "measured ÷ predicted",
                "tasks in flight at peak");
        if (predictedMillis.length != runs.size()) {
            throw new IllegalArgumentException(predictedMillis.length + " predictions for " + runs.size() + " runs");
        }
        for (int i = 0; i < runs.size(); i++) {
            RunResult r = runs.get(i);
            b.row(
                    r.name(),
                    kind(r),
                    r.threadsUsed(),
                    r.count(),
                    Tables.round(r.elapsedMillis(), 1),
                    Tables.round(predictedMillis[i], 1),
                    Tables.round(r.elapsedMillis() / predictedMillis[i], 2),
                    r.peakConcurrency());
        }
        return b.table();
    }

    private static String kind(RunResult r) {
        return r.virtualTasks() == r.count() ? "virtual" : r.virtualTasks() == 0 ? "platform" : "mixed";
    }

    /**
     * Speed-up over the first run ("one thread") of each list, for CPU-bound and I/O-bound work side by side,
     * with {@code cores} (the CPU-bound limit) as a third bar.
     */
    public static CategoryChart speedUpChart(List<RunResult> cpu, List<RunResult> io, int cores) {
        if (cpu.size() != io.size() || cpu.isEmpty())
            throw new IllegalArgumentException("two comparisons of the same size");
        var names = cpu.stream().map(RunResult::name).toList();
        Map<String, List<? extends Number>> series = new LinkedHashMap<>();
        series.put(
                "CPU-bound",
                cpu.stream()
                        .map(r -> Tables.round(cpu.get(0).elapsedMillis() / r.elapsedMillis(), 2))
                        .toList());
        series.put(
                "I/O-bound",
                io.stream()
                        .map(r -> Tables.round(io.get(0).elapsedMillis() / r.elapsedMillis(), 2))
                        .toList());
        series.put(
                "cores (the CPU-bound limit)",
                names.stream().map(n -> (Number) cores).toList());
        var c = Charts.groupedBars(
                "Speed-up over one thread: the same executors, opposite verdicts",
                "speed-up over one thread (×)",
                names,
                series);
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        return c;
    }

    /**
     * The mixed sweep: elapsed time against the pool size (measured, and the predicted floor), the
     * virtual-thread run as a level line, and a vertical line at {@code markAt} labelled {@code markLabel}
     * (the formula's pool size, or yours).
     *
     * @param pools   pool size → its run
     * @param virtual the run on one virtual thread per task, or null
     */
    public static XYChart mixedChart(
            SortedMap<Integer, IoVsCpu.Measured> pools,
            IoVsCpu.Measured virtual,
            IoVsCpu.Params p,
            int markAt,
            String markLabel) {
        if (pools.isEmpty()) throw new IllegalArgumentException("no pool runs");
        double[] xs = pools.keySet().stream().mapToDouble(Integer::doubleValue).toArray();
        double[] ys = pools.values().stream()
                .mapToDouble(IoVsCpu.Measured::elapsedMillis)
                .toArray();
        int lo = Math.min(pools.firstKey(), markAt), hi = Math.max(pools.lastKey(), markAt);
        double[] fx = IntStream.rangeClosed(lo, hi).asDoubleStream().toArray();
        double[] fy = Arrays.stream(fx)
                .map(x -> IoVsCpu.mixedFloorMillis(p.mixedTasks(), (int) x, p.cores(), p.mixedCompute(), p.mixedWait()))
                .toArray();
        double top = Math.max(Arrays.stream(ys).max().orElse(1), fy[0]) * 1.05;
        Map<String, double[][]> series = new LinkedHashMap<>();
        series.put("fixed pool (measured)", new double[][] {xs, ys});
        series.put("predicted floor max(⌈N/P⌉·(C+W), N·C/cores + W)", new double[][] {fx, fy});
        if (virtual != null) {
            series.put("virtual thread per task (measured)", new double[][] {
                {lo, hi}, {virtual.elapsedMillis(), virtual.elapsedMillis()}
            });
        }
        series.put(String.format("%s = %d", markLabel, markAt), new double[][] {{markAt, markAt}, {0, top}});
        var c = Charts.lines(
                String.format(
                        "Mixed work: %d tasks × (compute %d ms, then wait %d ms) on %d cores",
                        p.mixedTasks(),
                        p.mixedCompute().toMillis(),
                        p.mixedWait().toMillis(),
                        p.cores()),
                "platform threads in the pool",
                "elapsed (ms)",
                series);
        c.getStyler().setYAxisMin(0.0);
        var drawn = new ArrayList<>(c.getSeriesCollection());
        for (int i = 2; i < drawn.size(); i++) drawn.get(i).setMarker(SeriesMarkers.NONE);
        return c;
    }

    /** Lateness against when each sleep was due, one colour per scenario: starvation shows as tall columns. */
    public static XYChart latenessChart(List<Lateness.Result> scenarios) {
        XYChart c = Charts.xy(
                "How late each sleep of the I/O virtual threads woke (each dot: one sleep)",
                "when the sleep was due (ms since the scenario started)",
                "woke late by (ms)");
        Color[] colours = {
            new Color(0x2ca02c),
            new Color(0xd62728),
            new Color(0xff7f0e),
            new Color(0x9467bd),
            new Color(0x1f77b4),
            new Color(0x8c564b)
        };
        int k = 0;
        for (Lateness.Result r : scenarios) {
            double[] xs = r.sleeps() == 0 ? new double[] {0} : r.dueMillis();
            double[] ys = r.sleeps() == 0 ? new double[] {0} : r.lateMillis();
            XYSeries s = c.addSeries(r.name(), xs, ys);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setMarkerColor(colours[k++ % colours.length]);
        }
        c.getStyler().setMarkerSize(5);
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        c.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        return c;
    }

    /** Per scenario: sleeps, CPU tasks and their thread kind, how long all ran at once, the lateness then and overall. */
    public static Table latenessTable(String title, List<Lateness.Result> scenarios) {
        var b = Tables.of(
                title,
                "scenario",
                "sleeps",
                "CPU tasks (on virtual threads)",
                "all CPU tasks running (ms)",
                "sleeps waiting then",
                "woken while all CPU ran",
                "median lateness then (ms)",
                "p99 lateness (ms)",
                "max lateness (ms)");
        for (Lateness.Result r : scenarios) {
            b.row(
                    r.name(),
                    r.sleeps(),
                    r.cpuTasks() + " (" + r.cpuOnVirtual() + ")",
                    Tables.round(r.allCpuRunningMillis(), 0),
                    r.lateWhileCpuRan().length,
                    r.wokeWhileCpuRan(),
                    rounded(r.medianLateWhileCpuRan()),
                    rounded(r.lateQuantile(0.99)),
                    rounded(r.maxLate()));
        }
        return b.table();
    }

    /** Two decimals, or a missing value (an empty cell, not 0) when there is nothing to summarise. */
    private static Double rounded(double v) {
        return Double.isNaN(v) ? null : Tables.round(v, 2);
    }
}
