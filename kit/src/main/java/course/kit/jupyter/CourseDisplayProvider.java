package course.kit.jupyter;

import course.kit.Charts;
import course.kit.Progress;
import course.kit.RunResult;
import course.kit.Tables;
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
 * Teaches the course kernel to show the kit's results: an XChart chart as an inline PNG, a Tablesaw table
 * and a run's summary as HTML tables, a progress line as an HTML bar. rapaio finds this class through
 * {@code META-INF/services}; it renders both {@code display(x)} and a cell's last value.
 */
public final class CourseDisplayProvider implements DisplayProvider {

    @Override
    public List<DisplayRenderer> getDisplayRenderers() {
        return List.of(
                new Renderer<>(Chart.class, "image/png", c -> png(Charts.png(c), c.getTitle())),
                new Renderer<>(Table.class, "text/html", t -> html(Tables.html(t), t.name())),
                new Renderer<>(
                        RunResult.class, "text/html", r -> html(Tables.html(Tables.runs(r.name(), r)), r.toString())),
                new Renderer<>(Progress.View.class, "text/html", v -> html(v.html(), v.toString())));
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
