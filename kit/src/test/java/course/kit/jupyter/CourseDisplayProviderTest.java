package course.kit.jupyter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Pool;
import course.kit.Prediction;
import course.kit.Progress;
import course.kit.Run;
import course.kit.RunResult;
import course.kit.SelfCheck;
import course.kit.charts.Charts;
import course.kit.charts.Tables;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.rapaio.jupyter.kernel.display.DisplayData;
import org.rapaio.jupyter.kernel.display.DisplayRenderer;
import org.rapaio.jupyter.kernel.display.DisplaySystem;
import org.rapaio.jupyter.kernel.display.spi.DisplayProvider;
import tech.tablesaw.api.Table;

class CourseDisplayProviderTest {
    private final List<DisplayRenderer> renderers = new CourseDisplayProvider().getDisplayRenderers();

    private DisplayRenderer rendererFor(Object o) {
        return renderers.stream()
                .filter(r -> r.rendererClass().isInstance(o))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no renderer for " + o.getClass()));
    }

    private static void assertPngData(DisplayData d) {
        Object b64 = d.data().get("image/png");
        assertNotNull(b64, d.data().keySet().toString());
        byte[] png = Base64.getDecoder().decode((String) b64);
        assertTrue(png.length > 8 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G');
    }

    private static Table table() {
        return Tables.of("Café", "executor", "tasks").row("virtual", 10_000).table();
    }

    @Test
    void rendersEveryKindTheKitShows() {
        assertEquals(9, renderers.size());
        assertTrue(new CourseDisplayProvider().getDisplayTransformers().isEmpty());
    }

    @Test
    void aChartBecomesAnInlinePng() {
        XYChart chart = Charts.xy("my chart", "x", "y");
        chart.addSeries("s", new double[] {1, 2}, new double[] {3, 4});
        DisplayRenderer r = rendererFor(chart);
        assertTrue(r.canRender(null), "null is the default MIME request");
        assertTrue(r.canRender(""));
        assertTrue(r.canRender("image/png"));
        assertTrue(r.canRender("png"));
        assertFalse(r.canRender("text/html"));
        DisplayData d = r.render(null, chart);
        assertPngData(d);
        assertEquals("my chart", d.data().get("text/plain"));
        CategoryChart bars = Charts.bars("bars", "ms", Map.of("a", 1));
        assertPngData(rendererFor(bars).render("image/png", bars));
    }

    @Test
    void aGradeReportsTableBecomesHtml() {
        var t = new course.base.ReportTable(
                "Total: 3/5 points", List.of("Test", "Points"), List.of(List.of("s1 <one>", 3), List.of("s2", 0)));
        DisplayData d = rendererFor(t).render(null, t);
        String html = (String) d.data().get("text/html");
        assertTrue(html.contains("<caption") && html.contains("Total: 3/5 points"), html);
        assertTrue(html.contains("<td>s1 &lt;one&gt;</td>"), html);
        assertEquals("Total: 3/5 points", d.data().get("text/plain"));
    }

    @Test
    void aTableBecomesHtml() {
        Table t = table();
        DisplayRenderer r = rendererFor(t);
        assertTrue(r.canRender(null));
        assertTrue(r.canRender("text/html"));
        assertTrue(r.canRender("html"));
        assertFalse(r.canRender("image/png"));
        DisplayData d = r.render(null, t);
        String html = (String) d.data().get("text/html");
        assertTrue(html.contains("<table") && html.contains("Café") && html.contains("10000"), html);
        assertEquals("Café", d.data().get("text/plain"));
    }

    @Test
    void aRunBecomesItsSummaryTable() throws Exception {
        RunResult run = Run.tasks(Pool.fixed(2), 3, i -> {});
        DisplayData d = rendererFor(run).render(null, run);
        String html = (String) d.data().get("text/html");
        assertTrue(html.contains("<table") && html.contains("peak in flight") && html.contains(run.name()), html);
        assertEquals(run.toString(), d.data().get("text/plain"));
    }

    @Test
    void aProgressViewBecomesABar() {
        var v = new Progress.View("café", 1, 4, 0.1, false);
        DisplayData d = rendererFor(v).render("text/html", v);
        assertTrue(((String) d.data().get("text/html")).contains("<progress value='1' max='4'"));
        assertEquals(v.toString(), d.data().get("text/plain"));
    }

    @Test
    void aLanesPictureBecomesAPngWithItsLegendAsText() throws Exception {
        var lanes = Charts.lanes(Run.tasks(Pool.fixed(2), 4, i -> {}));
        DisplayData d = rendererFor(lanes).render(null, lanes);
        assertPngData(d);
        assertEquals(lanes.toString(), d.data().get("text/plain"));
    }

    private static <T> T quietly(java.util.function.Supplier<T> f) {
        var original = System.out;
        System.setOut(new java.io.PrintStream(new java.io.ByteArrayOutputStream()));
        try {
            return f.get();
        } finally {
            System.setOut(original);
        }
    }

    @Test
    void aPredictionsOutcomeBecomesHtmlTextAndItsJsonOnce() {
        var guess = quietly(() -> Prediction.of("café", java.time.Duration.ofSeconds(5)));
        // of() showed it already (as HTML and text): a declaration's value is not shown, an expression's would be
        assertEquals(
                Map.of("text/plain", ""), rendererFor(guess).render(null, guess).data());
        var outcome = quietly(() -> guess.against(Prediction.Model.of("⌈N/P⌉ · t", 50_000, "ms"), 50_100.0));
        // against() showed it already: as the cell's value it renders as nothing
        assertEquals(
                Map.of("text/plain", ""),
                rendererFor(outcome).render(null, outcome).data());
        var fresh = new Prediction.Outcome(
                "café",
                true,
                5_000,
                50_000,
                "⌈N/P⌉ · t",
                50_100,
                "ms",
                true,
                Prediction.Verdict.OFF,
                null,
                "10× too low");
        DisplayData d = rendererFor(fresh).render(null, fresh);
        assertTrue(((String) d.data().get("text/html")).contains("your prediction"));
        assertEquals(fresh.toString(), d.data().get("text/plain"));
        @SuppressWarnings("unchecked")
        var json = (Map<String, Object>) d.data().get(Prediction.MIME);
        assertEquals("off", json.get("verdict"));
        assertEquals(5_000.0, json.get("guess"));
        assertTrue(rendererFor(fresh).canRender(Prediction.MIME));
    }

    @Test
    void aSelfChecksResultBecomesHtmlTextAndItsJson() {
        var r = new SelfCheck.Result("02.1", true, false, "not yet: reread § 1");
        DisplayData d = rendererFor(r).render(null, r);
        assertEquals("02.1 · not yet: reread § 1", d.data().get("text/plain"));
        assertEquals(
                Map.of("id", "02.1", "answered", true, "correct", false),
                d.data().get(SelfCheck.MIME));
        assertTrue(((String) d.data().get("text/html")).contains("not yet"));
    }

    @Test
    void theProviderIsRegisteredThroughItsServiceFile() {
        assertTrue(ServiceLoader.load(DisplayProvider.class).stream()
                .anyMatch(p -> p.type() == CourseDisplayProvider.class));
    }

    @Test
    void rapaiosDisplaySystemUsesIt() {
        DisplaySystem ds = DisplaySystem.inst();
        ds.refreshSpiDisplayHandlers();
        XYChart chart = Charts.xy("via rapaio", "x", "y");
        assertPngData(ds.render(chart));
        assertTrue(((String) ds.render(table()).data().get("text/html")).contains("<table"));
    }
}
