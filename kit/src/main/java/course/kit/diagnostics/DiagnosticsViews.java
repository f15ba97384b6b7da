package course.kit.diagnostics;

import course.base.diagnostics.PinnedEvents;
import course.kit.charts.Charts;
import course.kit.charts.Tables;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.Table;

/** Tables and charts of what the diagnostics instruments recorded. */
public final class DiagnosticsViews {
    private DiagnosticsViews() {}

    /** One row per pinned park: thread, duration, why, what blocked, the top {@code frames} frames. */
    public static Table pins(String title, List<PinnedEvents.Pin> pins, int frames) {
        var b = Tables.of(title, "thread", "pinned (ms)", "why it could not unmount", "blocked in", "top frames");
        for (var p : pins) {
            b.row(
                    p.thread(),
                    Tables.round(p.duration().toNanos() / 1e6, 1),
                    p.reason(),
                    p.operation(),
                    p.top(frames).replace("\n", " ← "));
        }
        return b.table();
    }

    /** One row per thread container: its name, parent, threads and virtual threads. */
    public static Table containers(String title, List<ThreadDumps.Container> containers) {
        var b = Tables.of(title, "container", "parent", "threads", "virtual threads");
        for (var c : containers) b.row(c.name(), c.parent(), c.threads(), c.virtual());
        return b.table();
    }

    /**
     * The scheduler's pool size over time, one line per run, with the parallelism drawn dashed
     * ("predicted" style) from the first run's samples.
     */
    public static XYChart poolSize(String title, Map<String, List<SchedulerSampler.Sample>> runs) {
        XYChart c = Charts.xy(title, "time (ms)", "carrier threads");
        java.awt.Color[] colours = {
            new java.awt.Color(0x1f77b4),
            new java.awt.Color(0xd62728),
            new java.awt.Color(0x2ca02c),
            new java.awt.Color(0xff7f0e)
        };
        int k = 0;
        for (var e : runs.entrySet()) {
            double[][] xy = xy(e.getValue(), SchedulerSampler.Sample::poolSize);
            var s = c.addSeries(e.getKey(), xy[0], xy[1]);
            s.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
            s.setLineColor(colours[k++ % colours.length]);
            s.setLineWidth(2f);
        }
        runs.values().stream().findFirst().ifPresent(first -> {
            double[][] xy = xy(first, SchedulerSampler.Sample::parallelism);
            var s = c.addSeries("parallelism", xy[0], xy[1]);
            s.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
            s.setLineColor(java.awt.Color.DARK_GRAY);
            s.setLineStyle(new java.awt.BasicStroke(
                    2f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        });
        c.getStyler().setYAxisMin(0.0);
        return c;
    }

    private static double[][] xy(
            List<SchedulerSampler.Sample> samples, java.util.function.ToDoubleFunction<SchedulerSampler.Sample> y) {
        return new double[][] {
            samples.stream().mapToDouble(SchedulerSampler.Sample::millis).toArray(),
            samples.stream().mapToDouble(y).toArray()
        };
    }
}
