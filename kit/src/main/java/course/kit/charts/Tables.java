package course.kit.charts;

import course.kit.RunResult;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;
import tech.tablesaw.io.Destination;
import tech.tablesaw.io.html.HtmlWriteOptions;
import tech.tablesaw.io.html.HtmlWriter;

/**
 * Tablesaw tables for the course's results. In the notebook a {@link Table} shows as a real HTML table.
 *
 * <pre>{@code
 * Table t = Tables.of("Café", "executor", "tasks", "elapsed (ms)")
 *         .row("fixed pool of 200", 10_000, 50_041.0)
 *         .row("virtual", 10_000, 1_102.0)
 *         .table();
 * }</pre>
 */
public final class Tables {
    private Tables() {}

    /** Starts a table with these column names; each column's type is taken from its values (see {@link Builder#table()}). */
    public static Builder of(String title, String... columns) {
        return new Builder(title, columns);
    }

    /** One row per run: executor, tasks, elapsed, peak concurrency, threads, throughput, failures. */
    public static Table runs(String title, RunResult... runs) {
        Builder b = of(
                title,
                "run",
                "executor",
                "tasks",
                "elapsed (ms)",
                "peak in flight",
                "threads used",
                "thread kind",
                "tasks/s",
                "failed");
        for (RunResult r : runs) {
            b.row(
                    r.name(),
                    r.pool(),
                    r.count(),
                    round(r.elapsedMillis(), 1),
                    r.peakConcurrency(),
                    r.threadsUsed(),
                    r.virtualTasks() == r.count() ? "virtual" : r.virtualTasks() == 0 ? "platform" : "mixed",
                    round(r.throughputPerSecond(), 0),
                    r.failed());
        }
        return b.table();
    }

    /** Rounds {@code v} to {@code decimals} places, for display. */
    public static double round(double v, int decimals) {
        double f = Math.pow(10, decimals);
        return Math.round(v * f) / f;
    }

    /** The table as an HTML {@code <table>}, with the title as its caption. */
    public static String html(Table t) {
        var w = new StringWriter();
        new HtmlWriter().write(t, HtmlWriteOptions.builder(new Destination(w)).build());
        String html = w.toString();
        String caption = "<caption style='caption-side:top;text-align:left;font-weight:bold'>"
                + org.jsoup.nodes.Entities.escape(t.name() == null ? "" : t.name()) + "</caption>";
        return html.replaceFirst("<table>", "<table class='course-table'>" + caption);
    }

    /** Builds a table row by row. */
    public static final class Builder {
        private final String title;
        private final String[] names;
        private final List<Object[]> rows = new ArrayList<>();

        Builder(String title, String[] names) {
            if (names.length == 0) throw new IllegalArgumentException("a table needs at least one column");
            this.title = title;
            this.names = names.clone();
        }

        /** Adds a row: one value per column (numbers, strings or anything with a toString). */
        public Builder row(Object... values) {
            if (values.length != names.length) {
                throw new IllegalArgumentException("row has " + values.length + " values for " + names.length
                        + " columns " + Arrays.toString(names));
            }
            rows.add(values.clone());
            return this;
        }

        /**
         * The Tablesaw table. A column holds ints if every value is an int, longs if every value is a whole
         * number, doubles if every value is a number (so a later 12.5 is never cut to 12), and text otherwise;
         * a null in a number column is a missing value.
         */
        public Table table() {
            Table t = Table.create(title);
            for (int c = 0; c < names.length; c++) {
                final int col = c;
                List<Object> values = rows.stream().map(r -> r[col]).toList();
                List<Object> present = values.stream().filter(v -> v != null).toList();
                Column<?> column;
                if (!present.isEmpty() && present.stream().allMatch(Builder::isInt)) {
                    IntColumn ic = IntColumn.create(names[c]);
                    values.forEach(v -> {
                        if (v == null) ic.appendMissing();
                        else ic.append(((Number) v).intValue());
                    });
                    column = ic;
                } else if (!present.isEmpty() && present.stream().allMatch(v -> isInt(v) || v instanceof Long)) {
                    LongColumn lc = LongColumn.create(names[c]);
                    values.forEach(v -> {
                        if (v == null) lc.appendMissing();
                        else lc.append(((Number) v).longValue());
                    });
                    column = lc;
                } else if (!present.isEmpty() && present.stream().allMatch(v -> v instanceof Number)) {
                    DoubleColumn dc = DoubleColumn.create(names[c]);
                    values.forEach(v -> {
                        if (v == null) dc.appendMissing();
                        else dc.append(((Number) v).doubleValue());
                    });
                    column = dc;
                } else {
                    column = StringColumn.create(
                            names[c], values.stream().map(String::valueOf).toList());
                }
                t.addColumns(column);
            }
            return t;
        }

        private static boolean isInt(Object v) {
            return v instanceof Integer || v instanceof Short || v instanceof Byte;
        }
    }
}
