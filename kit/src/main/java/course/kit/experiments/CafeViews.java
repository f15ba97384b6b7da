package course.kit.experiments;

import course.kit.Charts;
import course.kit.RunResult;
import course.kit.Tables;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.Table;

/**
 * Notebook 02's tables and charts, built from what {@link Cafe}'s experiments return. Each returns a Tablesaw
 * table or an XChart chart, which the notebook shows as HTML or as a PNG.
 */
public final class CafeViews {
    private CafeViews() {}

    /**
     * The café's two runs next to the articles' figures and the prediction.
     *
     * @param setup the café's parameters at this scale
     * @param pool  the fixed pool's run
     * @param virt  the virtual-thread run
     */
    public static Table cafeTable(Cafe.Setup setup, RunResult pool, RunResult virt) {
        Objects.requireNonNull(setup, "setup");
        double t = setup.brew().toNanos() / 1e6;
        double poolPredicted = setup.predictedPool().toNanos() / 1e6;
        return Tables.of(String.format("The café: %s", setup),
                        "executor", "articles 000 / 002 (10,000 × 1 s)", "predicted (ms)", "allowed up to (ms)",
                        "measured (ms)", "last customer started at (ms)", "threads used", "most brewing at once")
                .row(pool.name(), "50,215 ms / 50.18 s", Tables.round(poolPredicted, 0),
                        Tables.round(poolPredicted + ms(Cafe.slackFor(setup.customers(), setup.workers())), 0),
                        Tables.round(pool.elapsedMillis(), 0), Tables.round(pool.lastStartNanos() / 1e6, 0),
                        pool.threadsUsed(), pool.peakConcurrency())
                .row(virt.name(), "1,188 ms / 1.12 s", Tables.round(t, 0),
                        Tables.round(t + ms(Cafe.slackFor(setup.customers(), 0)), 0),
                        Tables.round(virt.elapsedMillis(), 0), Tables.round(virt.lastStartNanos() / 1e6, 0),
                        virt.threadsUsed(), virt.peakConcurrency())
                .table();
    }

    /** The sweep, one row per executor: waves, predicted, measured, the difference and where it went. */
    public static Table sweepTable(List<Cafe.SweepRow> rows, Duration task) {
        Objects.requireNonNull(rows, "rows");
        var b = Tables.of(String.format("%,d tasks × sleep %s: predicted ⌈N/P⌉ · t against measured",
                        rows.isEmpty() ? 0 : customers(rows.get(0)), Cafe.pretty(task)),
                "executor", "waves ⌈N/P⌉", "predicted (ms)", "measured (ms)", "measured − predicted (ms)",
                "allowed slack (ms)", "last task started at (ms)", "threads used", "most in flight");
        for (var r : rows) {
            b.row(r.executor(), r.waves(), Tables.round(r.predictedMs(), 0), Tables.round(r.measuredMs(), 0),
                    Tables.round(r.overheadMs(), 0), Tables.round(r.slackMs(), 0), Tables.round(r.lastStartMs(), 0),
                    r.threads(), r.peak());
        }
        return b.table();
    }

    /** Predicted and measured elapsed time per executor, as grouped bars on a logarithmic axis. */
    public static CategoryChart sweepChart(List<Cafe.SweepRow> rows, Duration task) {
        Objects.requireNonNull(rows, "rows");
        List<String> labels = new ArrayList<>();
        List<Double> predicted = new ArrayList<>(), measured = new ArrayList<>();
        for (var r : rows) {
            labels.add(r.workers() == 0 ? "virtual" : String.format("pool %,d", r.workers()));
            predicted.add(Tables.round(r.predictedMs(), 0));
            measured.add(Tables.round(r.measuredMs(), 0));
        }
        Map<String, List<? extends Number>> series = new LinkedHashMap<>();
        series.put("predicted ⌈N/P⌉ · t", predicted);
        series.put("measured", measured);
        CategoryChart c = Charts.groupedBars(String.format("%,d tasks × sleep %s on each executor",
                rows.isEmpty() ? 0 : customers(rows.get(0)), Cafe.pretty(task)), "elapsed (ms, log scale)", labels, series);
        // Bars start at zero unless told otherwise, and a log axis cannot: start at the power of ten below the data.
        double lowest = Math.max(1, java.util.stream.Stream.concat(predicted.stream(), measured.stream())
                .mapToDouble(Double::doubleValue).min().orElse(1));
        c.getStyler().setYAxisLogarithmic(true);
        c.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(lowest / 2))));
        c.getStyler().setYAxisDecimalPattern("#,###");
        return c;
    }

    /**
     * Kernel against child JVM, round by round: each round's elapsed time, with the brew time as the dashed
     * line that no round can go below.
     */
    public static XYChart roundsChart(Cafe.Rounds kernel, Cafe.Rounds child) {
        Map<String, double[][]> series = new LinkedHashMap<>();
        for (var r : List.of(kernel, child)) series.put(r.where(), new double[][] {roundNumbers(r), r.millis()});
        int n = Math.max(kernel.millis().length, child.millis().length);
        series.put(String.format("predicted floor: the brew, %,d ms", kernel.brewMs()),
                new double[][] {{1, n}, {kernel.brewMs(), kernel.brewMs()}});
        XYChart c = Charts.lines(String.format("The same café (%,d × %,d ms, virtual threads), round by round",
                kernel.customers(), kernel.brewMs()), "round (1 = first in the call; then warm-up, then warm)",
                "elapsed (ms)", series);
        c.getStyler().setYAxisMin(kernel.brewMs() * 0.98);
        return c;
    }

    /**
     * The comparison as a table: for each JVM the first round, the warm median and what the JIT and the GC did,
     * then the ratio kernel ÷ child JVM.
     *
     * @param firstInKernel the kernel's very first virtual-thread café (section 1), or null if it does not compare
     */
    public static Table roundsTable(Cafe.Rounds kernel, Cafe.Rounds child, RunResult firstInKernel) {
        var b = Tables.of(String.format("Virtual-thread café, %,d × %,d ms: kernel against a plain java process",
                        kernel.customers(), kernel.brewMs()),
                "JVM", "first round (ms)", "warm rounds (ms)", "warm median (ms)", "warm start phase, median (ms)",
                "JIT time, first round (ms)", "JIT time, warm rounds (ms)", "GC time, first round (ms)",
                "GC time, warm rounds (ms)");
        for (var r : List.of(kernel, child)) {
            b.row(r.where(), f0(r.first()), join(r.warm()), f1(r.warmMedian()), f1(r.warmStartMedian()),
                    f0(r.jitMs()[0]), f0(r.warmJitMs()), f0(r.gcMs()[0]), f0(r.warmGcMs()));
        }
        b.row("ratio kernel ÷ child JVM", String.format("%.3f", kernel.first() / child.first()), "",
                String.format("%.3f", kernel.warmMedian() / child.warmMedian()),
                String.format("%.2f", kernel.warmStartMedian() / child.warmStartMedian()), "", "", "", "");
        if (firstInKernel != null) {
            b.row("kernel: its first virtual café (§1)", f0(firstInKernel.elapsedMillis()), "", "",
                    f1(firstInKernel.lastStartNanos() / 1e6) + " (its start phase)", "", "", "", "");
        }
        return b.table();
    }

    private static double[] roundNumbers(Cafe.Rounds r) {
        double[] x = new double[r.millis().length];
        for (int i = 0; i < x.length; i++) x[i] = i + 1;
        return x;
    }

    private static String join(double[] v) {
        var sb = new StringBuilder();
        for (double d : v) sb.append(sb.isEmpty() ? "" : ", ").append(String.format("%,.0f", d));
        return sb.toString();
    }

    private static int customers(Cafe.SweepRow r) { return r.tasks(); }

    private static String f0(double v) { return String.format("%,.0f", v); }

    private static String f1(double v) { return String.format("%,.1f", v); }

    private static double ms(Duration d) { return d.toNanos() / 1e6; }
}
