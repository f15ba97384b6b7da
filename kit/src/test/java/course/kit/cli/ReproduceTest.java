package course.kit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Reproduction;
import course.kit.Scale;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.csv.CsvWriteOptions;

class ReproduceTest {
    private static final List<Reproduction> ROWS = List.of(
            new Reproduction(
                    "10,000 × sleep 1 s, fixed pool of 200",
                    "000, 002",
                    "50,215 ms; 50.18 s",
                    50_000,
                    50_041,
                    "ms",
                    "⌈10,000/200⌉ = 50 waves"),
            new Reproduction("a | pipe", "001", "16.2×", 0, 3, "×", "no prediction"));

    @Test
    void theTableHasOneRowPerExperimentAndTheRatio() {
        Table t = Reproduce.table(ROWS);
        assertEquals(2, t.rowCount());
        assertEquals(
                List.of("experiment", "article", "article reported", "predicted", "measured", "unit", "ratio", "note"),
                t.columnNames());
        assertEquals(50_041 / 50_000.0, t.doubleColumn("ratio").get(0), 1e-12);
        assertTrue(t.doubleColumn("ratio").isMissing(1), "no prediction, no ratio");
    }

    @Test
    void theMarkdownStatesScaleAndHowToRegenerateAndEscapesPipes() throws Exception {
        String md = Reproduce.markdown(ROWS, Scale.FULL, 123);
        assertTrue(md.contains("Scale **full**"), md);
        assertTrue(md.contains("`./course reproduce --scale full`"), md);
        assertTrue(
                md.contains("| experiment | article | article reported | predicted | measured | ratio | note |"), md);
        assertTrue(
                md.contains(
                        "| 10,000 × sleep 1 s, fixed pool of 200 | 000, 002 | 50,215 ms; 50.18 s | 50,000 ms | 50,041 ms | 1.001 |"),
                md);
        assertTrue(md.contains("a \\| pipe"), "a pipe inside a cell is escaped: " + md);
        assertEquals(2 + 2, md.lines().filter(l -> l.startsWith("|")).count(), "header, rule and one line per row");
    }

    @Test
    void theCsvReadsBackAsTheSameRowsAndFindsARowByExperimentAndArticle(@TempDir Path dir) {
        Path csv = dir.resolve("reproduction.csv");
        Reproduce.table(ROWS).write().csv(CsvWriteOptions.builder(csv.toFile()).build());
        List<Reproduction> back = Reproduction.read(csv);
        assertEquals(ROWS, back, "every field, the article's leading zeros included");
        assertEquals(
                ROWS.get(0),
                Reproduction.find(back, "10,000 × sleep 1 s", "002").orElseThrow());
        assertTrue(Reproduction.find(back, "10,000 × sleep 1 s", "003").isEmpty(), "another article's row");
        assertEquals("50,041 ms", back.get(0).measuredText());
        assertEquals("3.00 ×", back.get(1).measuredText());
    }

    @Test
    void anUnknownScaleIsRefused() {
        var cli = new picocli.CommandLine(new Reproduce());
        var err = new java.io.StringWriter();
        cli.setErr(new java.io.PrintWriter(err));
        int rc = cli.execute("--scale", "huge", "--out", System.getProperty("java.io.tmpdir"));
        assertTrue(rc != 0, "exit code for a bad scale");
        assertTrue(err.toString().contains("COURSE_SCALE must be 'full' or 'quick'"), err.toString());
    }
}
