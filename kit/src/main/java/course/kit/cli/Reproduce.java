package course.kit.cli;

import course.kit.Reproduction;
import course.kit.Scale;
import course.kit.experiments.Cafe;
import course.kit.experiments.Creation;
import course.kit.experiments.HttpService;
import course.kit.experiments.IoVsCpu;
import course.kit.experiments.Pinning;
import course.kit.experiments.PoolMath;
import course.kit.experiments.Throttling;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.csv.CsvWriteOptions;

/**
 * {@code ./course reproduce}: reruns every experiment of the source articles through the same kit code the
 * notebooks use, and writes the reproduction table as Markdown and CSV.
 */
@Command(
        name = "reproduce",
        mixinStandardHelpOptions = true,
        description = "Rerun every article experiment; write reproduction.md and reproduction.csv.")
public final class Reproduce implements Callable<Integer> {
    @Option(
            names = "--scale",
            description = "full (the articles' parameters) or quick (default: COURSE_SCALE, else full)",
            converter = ScaleConverter.class)
    Scale scale;

    /** {@code --scale} through {@link Scale#parse}, the one parser of a scale's name. */
    static final class ScaleConverter implements CommandLine.ITypeConverter<Scale> {
        @Override
        public Scale convert(String value) {
            return Scale.parse(value);
        }
    }

    @Option(names = "--out", description = "folder for reproduction.md and reproduction.csv", defaultValue = "target")
    Path out;

    /** One notebook's experiments. */
    private interface Source {
        List<Reproduction> run(Scale scale) throws Exception;
    }

    @Override
    public Integer call() throws Exception {
        Scale s = scale != null ? scale : Scale.current();
        record Part(String notebook, Source source) {}
        List<Part> parts = List.of(
                new Part("01 thread-creation cost", Creation::reproduce),
                new Part("02 café simulation", Cafe::reproduce),
                new Part("03 fixed-pool batch math", PoolMath::reproduce),
                new Part("04 I/O against CPU", IoVsCpu::reproduce),
                new Part("05 Semaphore throttling", Throttling::reproduce),
                new Part("06 pinning and diagnostics", Pinning::reproduce),
                new Part("08 an HTTP service under load", HttpService::reproduce));
        List<Reproduction> rows = new ArrayList<>();
        long t0 = System.nanoTime();
        for (Part p : parts) {
            System.out.printf("== %s (%s scale)%n", p.notebook(), s);
            long t = System.nanoTime();
            for (Reproduction r : p.source().run(s)) {
                rows.add(r);
                System.out.printf(
                        Locale.ROOT,
                        "   %-60s measured %,12.2f %-10s predicted %,12.2f  ratio %.3f%n",
                        r.experiment(),
                        r.measured(),
                        r.unit(),
                        r.predicted(),
                        r.ratio());
            }
            System.out.printf(Locale.ROOT, "   (%.1f s)%n", (System.nanoTime() - t) / 1e9);
        }
        Files.createDirectories(out);
        Table table = table(rows);
        table.write()
                .csv(CsvWriteOptions.builder(out.resolve("reproduction.csv").toFile())
                        .build());
        Files.writeString(out.resolve("reproduction.md"), markdown(rows, s, (System.nanoTime() - t0) / 1e9));
        System.out.printf(
                Locale.ROOT,
                "%d experiments in %.0f s → %s, %s%n",
                rows.size(),
                (System.nanoTime() - t0) / 1e9,
                out.resolve("reproduction.md"),
                out.resolve("reproduction.csv"));
        return 0;
    }

    static Table table(List<Reproduction> rows) {
        return Table.create(
                "reproduction",
                StringColumn.create(
                        "experiment",
                        rows.stream().map(Reproduction::experiment).toList()),
                StringColumn.create(
                        "article", rows.stream().map(Reproduction::article).toList()),
                StringColumn.create(
                        "article reported",
                        rows.stream().map(Reproduction::reported).toList()),
                DoubleColumn.create(
                        "predicted",
                        rows.stream().mapToDouble(Reproduction::predicted).toArray()),
                DoubleColumn.create(
                        "measured",
                        rows.stream().mapToDouble(Reproduction::measured).toArray()),
                StringColumn.create(
                        "unit", rows.stream().map(Reproduction::unit).toList()),
                DoubleColumn.create(
                        "ratio", rows.stream().mapToDouble(Reproduction::ratio).toArray()),
                StringColumn.create(
                        "note", rows.stream().map(Reproduction::note).toList()));
    }

    static String markdown(List<Reproduction> rows, Scale scale, double seconds) throws IOException {
        var b = new StringBuilder();
        b.append("# Reproduction of the articles' experiments\n\n");
        b.append(String.format(
                Locale.ROOT,
                "Scale **%s**, measured %s on %d cores, Java %s; %.0f s in all. "
                        + "Regenerate with `./course reproduce --scale %s`.%n%n",
                scale,
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")),
                Runtime.getRuntime().availableProcessors(),
                Runtime.version(),
                seconds,
                scale));
        b.append("| experiment | article | article reported | predicted | measured | ratio | note |\n");
        b.append("|---|---|---|---:|---:|---:|---|\n");
        for (Reproduction r : rows) {
            b.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %s | %s | %.3f | %s |%n",
                    cell(r.experiment()),
                    cell(r.article()),
                    cell(r.reported()),
                    r.predictedText(),
                    r.measuredText(),
                    r.ratio(),
                    cell(r.note())));
        }
        return b.toString();
    }

    private static String cell(String s) {
        return s == null ? "" : s.replace("|", "\\|").replace("\n", " ");
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Reproduce()).execute(args));
    }
}
