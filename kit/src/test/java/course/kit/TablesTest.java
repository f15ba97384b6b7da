package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.charts.Tables;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

class TablesTest {

    static Table cafe() {
        return Tables.of("Café", "executor", "tasks", "elapsed (ms)", "bytes")
                .row("fixed pool of 200", 10_000, 50_041.5, 7L)
                .row("virtual", 10_000, 1_102.25, 9L)
                .table();
    }

    @Test
    void builderTypesEachColumnByItsValues() {
        Table t = cafe();
        assertEquals("Café", t.name());
        assertEquals(2, t.rowCount());
        assertEquals(List.of("executor", "tasks", "elapsed (ms)", "bytes"), t.columnNames());
        assertInstanceOf(StringColumn.class, t.column(0));
        assertInstanceOf(IntColumn.class, t.column(1));
        assertInstanceOf(DoubleColumn.class, t.column(2));
        assertInstanceOf(LongColumn.class, t.column(3));
        assertEquals("virtual", t.stringColumn(0).get(1));
        assertEquals(10_000, t.intColumn(1).get(0));
        assertEquals(1_102.25, t.doubleColumn(2).get(1));
        assertEquals(9L, t.longColumn(3).get(1));
    }

    @Test
    void otherValuesBecomeTheirText() {
        Table t = Tables.of("t", "kind").row(Scale.QUICK).row(true).table();
        assertEquals(List.of("quick", "true"), t.stringColumn("kind").asList());
    }

    @Test
    void aNumberColumnKeepsEveryValueWhateverItsFirstRowHolds() {
        // an int first and a fraction later must not truncate the fraction
        Table t = Tables.of("t", "ms").row(10).row(12.5).table();
        assertEquals(12.5, ((Number) t.column("ms").get(1)).doubleValue());
        Table big = Tables.of("t", "n").row(1).row(10_000_000_000L).table();
        assertEquals(10_000_000_000L, ((Number) big.column("n").get(1)).longValue());
    }

    @Test
    void aNullNumberIsMissingAndMixedValuesAreText() {
        Table t = Tables.of("t", "ms", "what").row(1.5, 1).row(null, "n/a").table();
        assertInstanceOf(DoubleColumn.class, t.column("ms"));
        assertTrue(t.doubleColumn("ms").isMissing(1));
        assertEquals(1.5, t.doubleColumn("ms").get(0));
        assertEquals(List.of("1", "n/a"), t.stringColumn("what").asList());
    }

    @Test
    void aTableWithNoRowsHasItsColumns() {
        Table t = Tables.of("empty", "a", "b").table();
        assertEquals(0, t.rowCount());
        assertEquals(List.of("a", "b"), t.columnNames());
    }

    @Test
    void rowsMustMatchTheColumns() {
        var b = Tables.of("t", "a", "b");
        var e = assertThrows(IllegalArgumentException.class, () -> b.row(1));
        assertTrue(e.getMessage().contains("1 values for 2 columns [a, b]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.row(1, 2, 3));
    }

    @Test
    void aTableNeedsAColumn() {
        assertThrows(IllegalArgumentException.class, () -> Tables.of("t"));
    }

    @Test
    void htmlIsARealTableWithTheTitleAsCaption() {
        String html = Tables.html(cafe());
        assertTrue(html.contains("<table class='course-table'><caption"), html);
        assertTrue(html.contains(">Café</caption>"), html);
        assertTrue(html.contains("</table>"), html);
        for (String cell :
                List.of("executor", "elapsed (ms)", "fixed pool of 200", "virtual", "<td>10000</td>", "50041.5")) {
            assertTrue(html.contains(cell), cell + " in " + html);
        }
        assertEquals(3, html.split("<tr", -1).length - 1, "a header row and two rows");
    }

    @Test
    void htmlEscapesTheCaption() {
        String html = Tables.html(Tables.of("<b>x & y</b>", "a").row(1).table());
        assertTrue(html.contains("&lt;b&gt;x &amp; y&lt;/b&gt;</caption>"), html);
    }

    @Test
    void runsTableHasOneRowPerRun() {
        RunResult platform = RunResultTest.sample();
        RunResult virtual = new RunResult(
                "v",
                "virtual thread per task",
                1_000_000_000L,
                new long[] {0, 0},
                new long[] {10, 10},
                new long[] {1, 2},
                new boolean[] {true, true},
                null,
                Map.of());
        RunResult mixed = new RunResult(
                "m",
                "p",
                10,
                new long[] {0, 0},
                new long[] {5, 5},
                new long[] {1, 2},
                new boolean[] {true, false},
                null,
                Map.of());
        Table t = Tables.runs("runs", platform, virtual, mixed);
        assertEquals("runs", t.name());
        assertEquals(
                List.of(
                        "run",
                        "executor",
                        "tasks",
                        "elapsed (ms)",
                        "peak in flight",
                        "threads used",
                        "thread kind",
                        "tasks/s",
                        "failed"),
                t.columnNames());
        assertEquals(3, t.rowCount());
        assertEquals(List.of("sample", "v", "m"), t.stringColumn("run").asList());
        assertEquals(
                List.of("platform", "virtual", "mixed"),
                t.stringColumn("thread kind").asList());
        assertEquals(4, t.intColumn("tasks").get(0));
        assertEquals(2, t.intColumn("peak in flight").get(0));
        assertEquals(2, t.intColumn("threads used").get(1));
        assertEquals(1, t.intColumn("failed").get(0));
        assertEquals(0, t.intColumn("failed").get(1));
        assertEquals(2.0, t.doubleColumn("tasks/s").get(1));
        assertEquals(1000.0, t.doubleColumn("elapsed (ms)").get(1));
    }

    @Test
    void roundRoundsHalfUpToTheGivenPlaces() {
        assertEquals(1.23, Tables.round(1.2345, 2));
        assertEquals(1.24, Tables.round(1.235001, 2));
        assertEquals(50_042.0, Tables.round(50_041.5, 0));
        assertEquals(-2.5, Tables.round(-2.54, 1));
    }
}
