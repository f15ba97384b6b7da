package course.kit.experiments;

import course.kit.Reproduction;
import course.kit.RunResult;
import course.kit.charts.Charts;
import course.kit.charts.Tables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.Table;

/**
 * Notebook 01's charts and tables, drawn from figures its cells measured. Each returns an XChart chart or a
 * Tablesaw table, which the notebook shows as a PNG or as HTML.
 */
public final class CreationViews {
    private CreationViews() {}

    /**
     * One way of running threads, and what it measured per thread.
     *
     * @param method         how the threads were run, as the chart and table label it
     * @param platformMicros µs per platform thread (NaN when not measured)
     * @param virtualMicros  µs per virtual thread (NaN when not measured)
     */
    public record PerThread(String method, double platformMicros, double virtualMicros) {
        /** platform ÷ virtual. */
        public double ratio() {
            return platformMicros / virtualMicros;
        }
    }

    /**
     * Grouped bars, µs per thread for each method and kind, on a logarithmic axis (the figures span three
     * orders of magnitude). A method with a missing figure draws no bar for it.
     */
    public static CategoryChart perThread(String title, List<PerThread> methods) {
        Objects.requireNonNull(methods, "methods");
        var series = new LinkedHashMap<String, List<? extends Number>>();
        double smallest = Double.POSITIVE_INFINITY;
        for (PerThread m : methods) {
            // XChart skips a null value: the bar is left out rather than drawn at the axis' floor
            List<Double> values = new ArrayList<>();
            for (double v : new double[] {m.platformMicros(), m.virtualMicros()}) {
                values.add(Double.isFinite(v) && v > 0 ? v : null);
                if (Double.isFinite(v) && v > 0) smallest = Math.min(smallest, v);
            }
            series.put(m.method(), values);
        }
        CategoryChart c =
                Charts.groupedBars(title, "µs per thread (log scale)", List.of("platform", "virtual"), series);
        c.getStyler().setYAxisLogarithmic(true);
        // a bar's base is 0, which a log axis cannot show: start at the power of ten below the smallest bar
        c.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(Double.isFinite(smallest) ? smallest : 1))));
        c.getStyler().setYAxisDecimalPattern("#,##0.##");
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
        return c;
    }

    /** One bar per method: platform ÷ virtual, next to the article's 16.2×. */
    public static CategoryChart ratios(String title, List<PerThread> methods) {
        var bars = new LinkedHashMap<String, Double>();
        bars.put("article 001 as reported", 16.2);
        for (PerThread m : methods) {
            if (Double.isFinite(m.ratio())) bars.put(m.method(), Tables.round(m.ratio(), 1));
        }
        return Charts.bars(title, "platform ÷ virtual (times faster)", bars);
    }

    /** The methods side by side: µs per platform thread, per virtual thread, and their ratio. */
    public static Table perThreadTable(String title, List<PerThread> methods) {
        var t = Tables.of(title, "method", "platform (µs per thread)", "virtual (µs per thread)", "platform ÷ virtual");
        t.row("article 001 as reported (1,000,000 threads)", 252.14, 15.53, 16.2);
        for (PerThread m : methods) {
            t.row(m.method(), present(m.platformMicros(), 2), present(m.virtualMicros(), 2), present(m.ratio(), 1));
        }
        return t.table();
    }

    /** Bytes per waiting thread on a logarithmic axis: a platform thread's stack reservation against a parked virtual thread's heap. */
    public static CategoryChart memory(Creation.ParkedHeap parked) {
        var bars = new LinkedHashMap<String, Double>();
        bars.put("platform: stack reserved", parked.stackKb() * 1024.0);
        bars.put("virtual: heap while parked", Tables.round(parked.bytesPerThread(), 0));
        CategoryChart c = Charts.bars("Memory per waiting thread (bytes, log scale)", "bytes per thread", bars);
        c.getStyler().setYAxisLogarithmic(true);
        c.getStyler().setYAxisMin(100.0);
        c.getStyler().setYAxisDecimalPattern("#,##0");
        return c;
    }

    /** The same two figures as a table, with what a million threads would take. */
    public static Table memoryTable(Creation.ParkedHeap parked) {
        double stack = parked.stackKb() * 1024.0;
        return Tables.of(
                        "Memory per waiting thread",
                        "thread",
                        "bytes per thread",
                        "what it is",
                        "for 1,000,000 threads (GB)")
                .row(
                        "platform",
                        stack,
                        "stack address space reserved at start (ThreadStackSize)",
                        Tables.round(stack * 1e6 / 1e9, 1))
                .row(
                        "virtual, parked",
                        Tables.round(parked.bytesPerThread(), 0),
                        "heap: Thread, continuation, stack chunk, latch node",
                        Tables.round(parked.bytesPerThread() * 1e6 / 1e9, 2))
                .table();
    }

    /** How many of a run's sleeping tasks were in flight at each moment, with plain axis numbers. */
    public static XYChart asleep(RunResult run) {
        XYChart c = Charts.inFlight(String.format("%s: how many were asleep at each moment", run.name()), run);
        c.getStyler().setYAxisDecimalPattern("#,##0");
        c.getStyler().setXAxisDecimalPattern("0.0");
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setLegendVisible(false);
        return c;
    }

    /** The rows {@code ./course reproduce} writes for an article, as a table. */
    public static Table reproduction(String title, List<Reproduction> rows) {
        var t = Tables.of(
                title,
                "experiment",
                "article reported",
                "predicted",
                "measured",
                "unit",
                "measured ÷ predicted",
                "note");
        for (Reproduction r : rows) {
            t.row(
                    r.experiment(),
                    r.reported(),
                    Tables.round(r.predicted(), 2),
                    Tables.round(r.measured(), 2),
                    r.unit(),
                    Tables.round(r.ratio(), 2),
                    r.note());
        }
        return t.table();
    }

    /** Article 001's loop, predicted (CPU per thread + one hand-off) against measured, per kind. */
    public static Table serialModel(
            Creation.SerialModel model,
            double platformCpuMicros,
            double virtualCpuMicros,
            double platformMeasured,
            double virtualMeasured) {
        return Tables.of(
                        "Article 001's loop: predicted c + h against measured",
                        "kind",
                        "c: CPU per thread (µs)",
                        "h: hand-off (µs)",
                        "predicted c + h (µs)",
                        "measured (µs)",
                        "measured ÷ predicted")
                .row(
                        "platform",
                        Tables.round(platformCpuMicros, 2),
                        Tables.round(model.handOffMicros(), 2),
                        Tables.round(model.platformMicros(), 2),
                        Tables.round(platformMeasured, 2),
                        Tables.round(platformMeasured / model.platformMicros(), 2))
                .row(
                        "virtual",
                        Tables.round(virtualCpuMicros, 2),
                        Tables.round(model.handOffMicros(), 2),
                        Tables.round(model.virtualMicros(), 2),
                        Tables.round(virtualMeasured, 2),
                        Tables.round(virtualMeasured / model.virtualMicros(), 2))
                .table();
    }

    private static Double present(double v, int decimals) {
        return Double.isFinite(v) ? Tables.round(v, decimals) : null;
    }
}
