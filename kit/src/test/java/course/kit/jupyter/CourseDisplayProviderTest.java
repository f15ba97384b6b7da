package course.kit.jupyter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Charts;
import course.kit.Pool;
import course.kit.Progress;
import course.kit.Run;
import course.kit.RunResult;
import course.kit.Tables;
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
        assertEquals(4, renderers.size());
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
