package course.kit.experiments;

import course.kit.charts.Charts;
import course.kit.charts.Tables;
import course.kit.models.HttpModel;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.Table;

/**
 * Notebook 08's charts and table, drawn from its runs ({@link LoadResult}, one list per server, in the order of
 * the concurrency levels) and from what {@link HttpService} predicts.
 */
public final class HttpServiceViews {
    private HttpServiceViews() {}

    /**
     * Throughput (2xx answers per second) against C, one line per server, and a dashed line per prediction
     * ({@code predicted} maps a name to the slots of {@code min(C, slots) / t}). C on a logarithmic axis.
     */
    public static XYChart throughput(
            String title, Map<String, List<LoadResult>> runs, Map<String, Integer> predicted, Duration t) {
        return chart(
                title,
                "requests/s",
                runs,
                LoadResult::throughput,
                predicted,
                (c, slots) -> HttpModel.throughput(c, slots, t));
    }

    /** p99 latency (ms) against C, as {@link #throughput}; predictions are {@code max(t, C·t/slots)}. */
    public static XYChart p99(
            String title, Map<String, List<LoadResult>> runs, Map<String, Integer> predicted, Duration t) {
        return chart(
                title,
                "p99 latency (ms)",
                runs,
                LoadResult::p99Millis,
                predicted,
                (c, slots) -> HttpModel.latencyMillis(c, slots, t));
    }

    private interface Model {
        double at(int clients, int slots);
    }

    private static XYChart chart(
            String title,
            String yLabel,
            Map<String, List<LoadResult>> runs,
            ToDoubleFunction<LoadResult> y,
            Map<String, Integer> predicted,
            Model model) {
        Objects.requireNonNull(runs, "runs");
        var series = new LinkedHashMap<String, double[][]>();
        var levels = new TreeSet<Integer>();
        runs.forEach((name, list) -> {
            if (list.isEmpty()) return;
            list.forEach(r -> levels.add(r.clients()));
            series.put(name, new double[][] {
                list.stream().mapToDouble(LoadResult::clients).toArray(),
                list.stream().mapToDouble(y).toArray()
            });
        });
        if (levels.isEmpty()) throw new IllegalArgumentException("no runs to draw");
        // sorted by name so that Map.of's order does not change the colours from one run to the next
        new java.util.TreeMap<>(predicted).forEach((name, slots) -> {
            var xs = new TreeSet<>(levels);
            if (slots > levels.first() && slots < levels.last()) xs.add(slots); // the knee
            series.put(name, new double[][] {
                xs.stream().mapToDouble(Integer::doubleValue).toArray(),
                xs.stream().mapToDouble(c -> model.at(c, slots)).toArray()
            });
        });
        XYChart c = Charts.lines(title, "concurrent clients C (log scale)", yLabel, series);
        c.getStyler().setXAxisLogarithmic(true);
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        c.getStyler().setXAxisDecimalPattern("#,##0");
        return c;
    }

    /**
     * One row per run: server, C, throughput, p50, p99 (as the clients saw it, and inside the handler), the outcomes,
     * and the requests in the handler at once.
     */
    public static Table table(String title, Map<String, List<LoadResult>> runs) {
        var b = Tables.of(
                title,
                "server",
                "clients C",
                "requests/s",
                "p50 (ms)",
                "p99 (ms)",
                "p99 in the handler (ms)",
                "answered",
                "503",
                "errors",
                "time-outs",
                "refused",
                "in the handler at once",
                "thread kind");
        runs.forEach((name, list) -> list.forEach(r -> b.row(
                name,
                r.clients(),
                Tables.round(r.throughput(), 0),
                Tables.round(r.p50Millis(), 1),
                Tables.round(r.p99Millis(), 1),
                Tables.round(r.handlerP99Millis(), 1),
                r.answers().answered(),
                r.answers().shed(),
                r.answers().errors(),
                r.answers().timeouts(),
                r.answers().refused(),
                r.peakInHandler(),
                r.threadKind())));
        return b.table();
    }
}
