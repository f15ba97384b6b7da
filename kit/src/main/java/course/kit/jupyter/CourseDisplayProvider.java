package course.kit.jupyter;

import course.base.ReportTable;
import course.kit.Notebook;
import course.kit.Prediction;
import course.kit.Progress;
import course.kit.RunResult;
import course.kit.SelfCheck;
import course.kit.charts.Charts;
import course.kit.charts.Lanes;
import course.kit.charts.Tables;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;
import org.knowm.xchart.internal.chartpart.Chart;
import org.rapaio.jupyter.kernel.display.DisplayData;
import org.rapaio.jupyter.kernel.display.DisplayRenderer;
import org.rapaio.jupyter.kernel.display.DisplayTransformer;
import org.rapaio.jupyter.kernel.display.spi.DisplayProvider;
import tech.tablesaw.api.Table;

/**
 * Teaches the course kernel to show the kit's results: an XChart chart and a {@link Lanes} picture as an
 * inline PNG, a Tablesaw table, a grade report's table and a run's summary as HTML tables, a progress line as an HTML bar, a
 * prediction's outcome and a self-check's result as HTML with a JSON entry ({@link Prediction#MIME},
 * {@link SelfCheck#MIME}) that {@code ./course progress} reads from the saved notebook. rapaio finds this class
 * through {@code META-INF/services}; it renders both {@code display(x)} and a cell's last value. An object that
 * showed itself already ({@link Notebook#showOnce}) renders as an empty text when it is also the cell's value.
 */
public final class CourseDisplayProvider implements DisplayProvider {

    @Override
    public List<DisplayRenderer> getDisplayRenderers() {
        return List.of(
                new Renderer<>(Chart.class, "image/png", c -> png(Charts.png(c), c.getTitle())),
                new Renderer<>(Table.class, "text/html", t -> html(Tables.html(t), t.name())),
                new Renderer<>(ReportTable.class, "text/html", t -> html(t.html(), t.name())),
                new Renderer<>(
                        RunResult.class, "text/html", r -> html(Tables.html(Tables.runs(r.name(), r)), r.toString())),
                new Renderer<>(Progress.View.class, "text/html", v -> html(v.html(), v.toString())),
                new Renderer<>(Lanes.class, "image/png", l -> png(l.png(), l.toString())),
                new Renderer<>(Prediction.class, "text/html", p -> once(p, () -> html(p.html(), p.toString()))),
                new Renderer<>(
                        Prediction.Outcome.class,
                        Prediction.MIME,
                        o -> once(o, () -> json(html(o.html(), o.toString()), Prediction.MIME, o.json()))),
                new Renderer<>(
                        SelfCheck.Result.class,
                        SelfCheck.MIME,
                        r -> json(html(r.html(), r.toString()), SelfCheck.MIME, r.json())));
    }

    @Override
    public List<DisplayTransformer> getDisplayTransformers() {
        return List.of();
    }

    static DisplayData png(byte[] png, String text) {
        DisplayData d = DisplayData.withType("image/png", Base64.getEncoder().encodeToString(png));
        d.putText(text == null ? "chart" : text);
        return d;
    }

    /** {@code d} with a JSON entry: rapaio writes a Map as a JSON object. */
    static DisplayData json(DisplayData d, String mime, java.util.Map<String, Object> value) {
        d.putData(mime, value);
        return d;
    }

    /**
     * An empty text, for an object that showed itself already (the kernel publishes a cell's value whatever it
     * renders as: an empty text is the least it shows, and unlike no data at all every front end can represent
     * it); else what {@code render} gives.
     */
    static DisplayData once(Object o, java.util.function.Supplier<DisplayData> render) {
        return Notebook.shown(o) ? DisplayData.fromText("") : render.get();
    }

    static DisplayData html(String html, String text) {
        DisplayData d = DisplayData.fromHtml(html);
        d.putText(text == null ? "" : text);
        return d;
    }

    /** Renders instances of one class; answers the default (null) MIME request and its own type. */
    record Renderer<T>(Class<T> type, String mime, Function<T, DisplayData> render) implements DisplayRenderer {
        @Override
        public Class<?> rendererClass() {
            return type;
        }

        @Override
        public boolean canRender(String requested) {
            return requested == null
                    || requested.isBlank()
                    || requested.equals(mime)
                    || mime.endsWith("/" + requested)
                    || requested.equals("text/plain");
        }

        @Override
        public DisplayData render(String requested, Object o) {
            return render.apply(type.cast(o));
        }
    }
}
