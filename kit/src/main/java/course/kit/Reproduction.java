package course.kit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.IntStream;
import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.csv.CsvReadOptions;

/**
 * One row of the reproduction table: an article's experiment, the figure it reported, the course's
 * prediction from first principles, and what this machine measured.
 *
 * @param experiment   what was run, for example "10,000 × sleep 1 s on a fixed pool of 200"
 * @param article      which source article, for example "000, 002"
 * @param reported     the figure the article reported, as it reported it, for example "50,215 ms"
 * @param predicted    the course's prediction, in {@code unit}
 * @param measured     the measurement on this machine, in {@code unit}
 * @param unit         the unit of predicted and measured, for example "ms" or "µs/thread"
 * @param note         the parameters at this scale, or why the article's figure differs
 */
public record Reproduction(
        String experiment,
        String article,
        String reported,
        double predicted,
        double measured,
        String unit,
        String note) {
    /** The course's snapshot of {@code ./course reproduce --scale full}, relative to the course folder. */
    public static final Path SNAPSHOT = Path.of("docs", "reproduction.csv");

    /** measured ÷ predicted (NaN when there is no prediction). */
    public double ratio() {
        return predicted == 0 ? Double.NaN : measured / predicted;
    }

    /** The measured figure with its unit, written as {@code reproduction.md} writes it, for example "6,265 ms". */
    public String measuredText() {
        return format(measured, unit);
    }

    /** The predicted figure with its unit, written as {@code reproduction.md} writes it. */
    public String predictedText() {
        return format(predicted, unit);
    }

    /**
     * A figure as the reproduction table writes it: no decimals from 100 on, with thousands separators;
     * two decimals below 100.
     *
     * @param value the figure
     * @param unit  its unit
     * @return for example "6,265 ms" or "3.79 µs/thread"
     */
    public static String format(double value, String unit) {
        String n = Math.abs(value) >= 100
                ? String.format(Locale.ROOT, "%,.0f", value)
                : String.format(Locale.ROOT, "%.2f", value);
        return n + " " + unit;
    }

    /**
     * Reads a reproduction table written by {@code ./course reproduce}.
     *
     * @param csv the {@code reproduction.csv} to read
     * @return its rows, in order
     */
    public static List<Reproduction> read(Path csv) {
        Table t = Table.read()
                .csv(CsvReadOptions.builder(csv.toFile())
                        .columnTypes(new ColumnType[] {
                            ColumnType.STRING,
                            ColumnType.STRING,
                            ColumnType.STRING,
                            ColumnType.DOUBLE,
                            ColumnType.DOUBLE,
                            ColumnType.STRING,
                            ColumnType.DOUBLE,
                            ColumnType.STRING
                        })
                        .build());
        return IntStream.range(0, t.rowCount())
                .mapToObj(i -> new Reproduction(
                        t.stringColumn("experiment").get(i),
                        t.stringColumn("article").get(i),
                        t.stringColumn("article reported").get(i),
                        t.doubleColumn("predicted").getDouble(i),
                        t.doubleColumn("measured").getDouble(i),
                        t.stringColumn("unit").get(i),
                        t.stringColumn("note").get(i)))
                .toList();
    }

    /**
     * The course's own snapshot, {@code docs/reproduction.csv}, found in the nearest folder at or above the
     * working directory that has it (a notebook's kernel runs in {@code notebooks/}), else in the folder that the
     * environment variable {@code COURSE_HOME} names.
     *
     * @return its rows, or an empty list where no snapshot is found
     */
    public static List<Reproduction> snapshot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(SNAPSHOT))) {
                return read(p.resolve(SNAPSHOT));
            }
        }
        String home = System.getenv("COURSE_HOME");
        if (home != null && !home.isBlank() && Files.isRegularFile(Path.of(home).resolve(SNAPSHOT))) {
            return read(Path.of(home).resolve(SNAPSHOT));
        }
        return List.of();
    }

    /**
     * The first row of {@code rows} whose experiment starts with {@code experiment} and whose article list
     * names {@code article}.
     *
     * @param rows       a reproduction table, for example {@link #snapshot()}
     * @param experiment the start of the experiment's name, for example "10,000 × sleep 50 ms, fixed pool of 100"
     * @param article    an article's number, for example "004"
     * @return the row, or empty if there is none
     */
    public static Optional<Reproduction> find(List<Reproduction> rows, String experiment, String article) {
        return rows.stream()
                .filter(r -> r.experiment().startsWith(experiment)
                        && List.of(r.article().split(",\\s*")).contains(article))
                .findFirst();
    }
}
