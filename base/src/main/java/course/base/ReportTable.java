package course.base;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A small table of results (the grader's per-test report, the class report): named columns and rows of
 * values, shown as HTML in a notebook (the kit's display provider renders it like the kit's own tables) and
 * written as CSV. On the JDK alone, so that the grader needs no table library.
 *
 * @param name    the title, shown as the table's caption
 * @param columns the column names
 * @param rows    the rows, each with one value per column
 */
public record ReportTable(String name, List<String> columns, List<List<Object>> rows) {
    /** Checks that every row has one value per column; copies the lists (values may be null). */
    public ReportTable {
        Objects.requireNonNull(name, "name");
        columns = List.copyOf(columns);
        List<List<Object>> copy = new ArrayList<>();
        for (List<Object> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException(
                        "a row of " + row.size() + " values for " + columns.size() + " columns: " + row);
            }
            copy.add(java.util.Collections.unmodifiableList(new ArrayList<>(row)));
        }
        rows = List.copyOf(copy);
    }

    /** The number of rows. */
    public int rowCount() {
        return rows.size();
    }

    /** The values of the column named {@code column}, top to bottom. */
    public List<Object> column(String column) {
        int i = columns.indexOf(column);
        if (i < 0) throw new IllegalArgumentException("no column " + column + " in " + columns);
        return rows.stream().map(r -> r.get(i)).toList();
    }

    /** The table as an HTML {@code <table class='course-table'>}, with the name as its caption. */
    public String html() {
        StringBuilder sb = new StringBuilder("<table class='course-table'>")
                .append("<caption style='caption-side:top;text-align:left;font-weight:bold'>")
                .append(escape(name))
                .append("</caption><thead><tr>");
        columns.forEach(c -> sb.append("<th>").append(escape(c)).append("</th>"));
        sb.append("</tr></thead><tbody>");
        for (List<Object> row : rows) {
            sb.append("<tr>");
            for (Object v : row) {
                String text = escape(v == null ? "" : v.toString()).replace("\n", "<br>");
                sb.append(v instanceof Number ? "<td style='text-align:right'>" : "<td>")
                        .append(text)
                        .append("</td>");
            }
            sb.append("</tr>");
        }
        return sb.append("</tbody></table>").toString();
    }

    /** The table as CSV (RFC 4180): a header line, then one line per row; text with a comma, quote or line break is quoted. */
    public String csv() {
        StringBuilder sb = new StringBuilder();
        sb.append(columns.stream().map(ReportTable::csvField).collect(Collectors.joining(",")))
                .append("\r\n");
        for (List<Object> row : rows) {
            sb.append(row.stream()
                            .map(v -> csvField(v == null ? "" : v.toString()))
                            .collect(Collectors.joining(",")))
                    .append("\r\n");
        }
        return sb.toString();
    }

    /** The name, then one line per row. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(name).append('\n').append(String.join(" | ", columns));
        for (List<Object> row : rows) {
            sb.append('\n').append(row.stream().map(String::valueOf).collect(Collectors.joining(" | ")));
        }
        return sb.toString();
    }

    private static String csvField(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
                ? "\"" + s.replace("\"", "\"\"") + "\""
                : s;
    }

    /** {@code s} with HTML's special characters escaped. */
    public static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
