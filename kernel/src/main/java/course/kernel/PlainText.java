package course.kernel;

import java.awt.image.RenderedImage;
import java.util.List;
import org.rapaio.jupyter.kernel.display.DisplayData;
import org.rapaio.jupyter.kernel.display.DisplayRenderer;
import org.rapaio.jupyter.kernel.display.DisplaySystem;
import org.rapaio.jupyter.kernel.display.DisplayTransformer;
import org.rapaio.jupyter.kernel.display.spi.DisplayProvider;

/**
 * Puts {@code text/plain} beside the richer types of every value rapaio renders: a cell's last value
 * ({@code execute_result}) and {@code display(x)} / {@code updateDisplay(id, x)} ({@code display_data}). rapaio
 * 3.0.1 renders values as {@code text/html} only, so a frontend that shows text ({@code jupyter console},
 * nbconvert to Markdown or a script, a text-only view) showed nothing; Jupyter's kernels always include
 * {@code text/plain}.
 *
 * <p>It plugs into rapaio's own extension point, the {@link DisplayProvider} service ({@code META-INF/services} of
 * this jar): its one renderer takes every object, lets rapaio's {@link DisplaySystem} render it as before (the
 * renderer stands aside while it does, so the kit's and rapaio's renderers run unchanged) and adds the plain text
 * when the result has none: the value's {@code toString()} (at most {@link #MAX_CHARS} characters), or for an
 * image its class and size. A renderer that already gives {@code text/plain} (the kit's charts and tables) is left
 * alone.
 */
public final class PlainText implements DisplayProvider {

    /** The longest plain text of a value; a longer {@code toString()} is cut, and says so. */
    static final int MAX_CHARS = 10_000;

    static final String TEXT = "text/plain";

    private static final ThreadLocal<Boolean> RENDERING = ThreadLocal.withInitial(() -> Boolean.FALSE);
    private static final ThreadLocal<String[]> CAPTURE = new ThreadLocal<>();

    /** Public, with no arguments: {@link java.util.ServiceLoader} makes it. */
    public PlainText() {}

    @Override
    public List<DisplayRenderer> getDisplayRenderers() {
        return List.of(new Renderer());
    }

    @Override
    public List<DisplayTransformer> getDisplayTransformers() {
        return List.of();
    }

    /** Renders through rapaio's display system, then adds the plain text if it is missing. */
    static final class Renderer implements DisplayRenderer {
        @Override
        public Class<?> rendererClass() {
            return Object.class;
        }

        @Override
        public boolean canRender(String mime) {
            return !RENDERING.get(); // stands aside while rapaio renders the same object
        }

        @Override
        public DisplayData render(String mime, Object o) {
            DisplayData dd;
            RENDERING.set(Boolean.TRUE);
            try {
                dd = DisplaySystem.inst().render(mime, o);
            } finally {
                RENDERING.set(Boolean.FALSE);
            }
            addText(dd, o);
            return dd;
        }
    }

    /** Adds {@code text/plain} describing {@code o} to {@code dd} unless it has one; notes it for {@link #capture}. */
    static void addText(DisplayData dd, Object o) {
        if (!dd.data().containsKey(TEXT)) {
            dd.putText(describe(o));
        }
        String[] sink = CAPTURE.get();
        if (sink != null && dd.data().get(TEXT) instanceof String s) {
            sink[0] = s;
        }
    }

    /** The plain text of a value: its {@code toString()}, cut at {@link #MAX_CHARS}; an image's class and size. */
    static String describe(Object o) {
        if (o instanceof RenderedImage image) {
            return o.getClass().getSimpleName() + " " + image.getWidth() + "×" + image.getHeight();
        }
        String s;
        try {
            s = String.valueOf(o);
        } catch (RuntimeException e) { // a learner's toString() that throws: rapaio's own renderer failed already
            s = o.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(o));
        }
        if (s.length() > MAX_CHARS) {
            return s.substring(0, MAX_CHARS) + "… (" + String.format("%,d", s.length() - MAX_CHARS)
                    + " more characters)";
        }
        return s;
    }

    /**
     * From now on, the plain text of every value rendered on this thread is kept in the returned holder's first
     * slot (the shell thread renders a cell's last value: that is the cell's output in its history). Ends with
     * {@link #endCapture}.
     */
    static String[] capture() {
        String[] sink = new String[1];
        CAPTURE.set(sink);
        return sink;
    }

    static void endCapture() {
        CAPTURE.remove();
    }
}
