package course.kit.experiments;

import course.kit.Band;
import course.kit.RunResult;
import course.kit.charts.Charts;
import course.kit.charts.Tables;
import course.kit.models.PoolModel;
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
 * Notebook 02's tables and charts, drawn from what the notebook's café runs recorded ({@link RunResult}) and
 * what {@link PoolModel} predicts for them. Each returns a Tablesaw table or an XChart chart, which the notebook
 * shows as HTML or as a PNG.
 */
public final class CafeViews {
    private CafeViews() {}

    /**
     * One café run and the executor it ran on, for the tables and the sweep chart.
     *
     * @param poolSize the fixed pool's size; 0 for one virtual thread per task
     * @param task     how long each task slept
     * @param run      what the recorder saw
     */
    public record Row(int poolSize, Duration task, RunResult run) {
        public Row {
            Objects.requireNonNull(task, "task");
            Objects.requireNonNull(run, "run");
            if (poolSize < 0) throw new IllegalArgumentException("a pool size cannot be negative: " + poolSize);
        }

        /** ⌈N/P⌉ for a fixed pool; 1 for virtual threads (0 when there were no tasks). */
        public int waves() {
            return poolSize == 0 ? Math.min(1, run.count()) : PoolModel.waves(run.count(), poolSize);
        }

        /** What the timing check accepts: {@link PoolModel#band} for this run's tasks, pool and task time. */
        public Band band() {
            return PoolModel.band(run.count(), poolSize, task);
        }

        /** "pool 200" or "virtual". */
        String shortName() {
            return poolSize == 0 ? "virtual" : String.format("pool %,d", poolSize);
        }
    }

    /**
     * The runs, one row each: waves, predicted (the band's floor), allowed up to (its ceiling), measured, when
     * the last task started, threads used and the most in flight at once.
     */
    public static Table table(String title, List<Row> rows) {
        Objects.requireNonNull(rows, "rows");
        var b = Tables.of(
                title,
                "executor",
                "waves ⌈N/P⌉",
                "predicted (ms)",
                "allowed up to (ms)",
                "measured (ms)",
                "last task started at (ms)",
                "threads used",
                "most in flight");
        for (var r : rows) {
            Band band = r.band();
            b.row(
                    r.run().name(),
                    r.waves(),
                    Tables.round(band.lo(), 0),
                    Tables.round(band.hi(), 0),
                    Tables.round(r.run().elapsedMillis(), 0),
                    Tables.round(r.run().lastStartNanos() / 1e6, 0),
                    r.run().threadsUsed(),
                    r.run().peakConcurrency());
        }
        return b.table();
    }

    /** Predicted and measured elapsed time per executor, as grouped bars on a logarithmic axis. */
    public static CategoryChart sweepChart(String title, List<Row> rows) {
        Objects.requireNonNull(rows, "rows");
        List<String> labels = new ArrayList<>();
        List<Double> predicted = new ArrayList<>(), measured = new ArrayList<>();
        for (var r : rows) {
            labels.add(r.shortName());
            predicted.add(Math.max(1, Tables.round(r.band().lo(), 0)));
            measured.add(Math.max(1, Tables.round(r.run().elapsedMillis(), 0)));
        }
        Map<String, List<? extends Number>> series = new LinkedHashMap<>();
        series.put("predicted ⌈N/P⌉ · t", predicted);
        series.put("measured", measured);
        CategoryChart c = Charts.groupedBars(title, "elapsed (ms, log scale)", labels, series);
        // Bars start at zero unless told otherwise, and a log axis cannot: start at the power of ten below the data.
        double lowest = java.util.stream.Stream.concat(predicted.stream(), measured.stream())
                .mapToDouble(Double::doubleValue)
                .min()
                .orElse(1);
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
        series.put(String.format("predicted floor: the brew, %,d ms", kernel.brewMs()), new double[][] {
            {1, n}, {kernel.brewMs(), kernel.brewMs()}
        });
        XYChart c = Charts.lines(
                String.format(
                        "The same café (%,d × %,d ms, virtual threads), round by round",
                        kernel.customers(), kernel.brewMs()),
                "round (1 = first in the call; then warm-up, then warm)",
                "elapsed (ms)",
                series);
        c.getStyler().setYAxisMin(kernel.brewMs() * 0.98);
        return c;
    }

    /**
     * The comparison as a table: for each JVM the first round, the warm median and what the JIT and the GC did,
     * then the ratio kernel ÷ child JVM.
     */
    public static Table roundsTable(Cafe.Rounds kernel, Cafe.Rounds child) {
        var b = Tables.of(
                String.format(
                        "Virtual-thread café, %,d × %,d ms: kernel against a plain java process",
                        kernel.customers(), kernel.brewMs()),
                "JVM",
                "first round (ms)",
                "warm rounds (ms)",
                "warm median (ms)",
                "warm start phase, median (ms)",
                "JIT time, first round (ms)",
                "JIT time, warm rounds (ms)",
                "GC time, first round (ms)",
                "GC time, warm rounds (ms)");
        for (var r : List.of(kernel, child)) {
            b.row(
                    r.where(),
                    f0(r.first()),
                    join(r.warm()),
                    f1(r.warmMedian()),
                    f1(r.warmStartMedian()),
                    f0(r.jitMs()[0]),
                    f0(r.warmJitMs()),
                    f0(r.gcMs()[0]),
                    f0(r.warmGcMs()));
        }
        b.row(
                "ratio kernel ÷ child JVM",
                String.format("%.3f", kernel.first() / child.first()),
                "",
                String.format("%.3f", kernel.warmMedian() / child.warmMedian()),
                String.format("%.2f", kernel.warmStartMedian() / child.warmStartMedian()),
                "",
                "",
                "",
                "");
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

    private static String f0(double v) {
        return String.format("%,.0f", v);
    }

    private static String f1(double v) {
        return String.format("%,.1f", v);
    }
}
