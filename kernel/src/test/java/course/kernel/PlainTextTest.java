package course.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.rapaio.jupyter.kernel.display.DisplayData;
import org.rapaio.jupyter.kernel.display.DisplaySystem;

class PlainTextTest {

    @Test
    @DisplayName("rapaio's display system finds the renderer: every value gets text/plain beside its HTML")
    void everyValueGetsPlainText() {
        DisplayData number = DisplaySystem.inst().render(42);
        assertEquals("42", number.data().get("text/html"));
        assertEquals("42", number.data().get(PlainText.TEXT));

        DisplayData list = DisplaySystem.inst().render(List.of(1, 2, 3));
        assertEquals("[1, 2, 3]", list.data().get(PlainText.TEXT));
        assertTrue(list.data().containsKey("text/html"), list.data().toString());

        DisplayData map = DisplaySystem.inst().render(Map.of("a", 1));
        assertEquals("{a=1}", map.data().get(PlainText.TEXT));

        DisplayData image = DisplaySystem.inst().render(new BufferedImage(64, 32, BufferedImage.TYPE_INT_RGB));
        assertTrue(image.data().containsKey("image/png"), image.data().keySet().toString());
        assertEquals("BufferedImage 64×32", image.data().get(PlainText.TEXT));
    }

    @Test
    @DisplayName("a renderer's own text/plain is kept")
    void ownTextKept() {
        DisplayData text = DisplaySystem.inst().render("text/plain", "hello");
        assertEquals("hello", text.data().get(PlainText.TEXT));
    }

    @Test
    @DisplayName("a long toString() is cut; a toString() that throws gives the class and identity")
    void describe() {
        String longText = PlainText.describe("x".repeat(PlainText.MAX_CHARS + 5));
        assertTrue(longText.endsWith("… (5 more characters)"), longText.substring(PlainText.MAX_CHARS));
        Object broken = new Object() {
            @Override
            public String toString() {
                throw new IllegalStateException("no");
            }
        };
        assertTrue(PlainText.describe(broken).startsWith(broken.getClass().getName() + "@"));
    }

    @Test
    @DisplayName("capture() keeps the plain text of what this thread renders, for the cell's history")
    void capture() {
        String[] sink = PlainText.capture();
        try {
            DisplaySystem.inst().render(6 * 7);
            assertEquals("42", sink[0]);
        } finally {
            PlainText.endCapture();
        }
    }
}
