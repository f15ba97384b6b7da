package course.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class JavadocTest {

    /** The shape of a JDK comment as JShell gives it: one space at the start of every line. */
    private static final String COMMENT = String.join(
            "\n",
            " A counting semaphore.  Each {@link #acquire} blocks if necessary; the {@code Semaphore}",
            " keeps a count (see {@linkplain java.util.concurrent.locks.Lock locks}).",
            "",
            " <p>For example:",
            " <pre> {@code",
            " class Pool {",
            "   Object get() { return items.get(0); }",
            " }}</pre>",
            "",
            " @param permits the initial number of permits, {@code < 0} allowed",
            " @param <T> the type",
            " @return the newly created {@link Thread#ofVirtual() builder}",
            " @throws IllegalArgumentException if {@code permits <= 0}",
            " @since 1.5",
            " @author Doug Lea");

    @Test
    @DisplayName(
            "plain text: inline tags become their text, paragraphs and <pre> blocks are kept, tags become sections")
    void text() {
        String text = Javadoc.text(Javadoc.parse(COMMENT));
        assertEquals(
                String.join(
                        "\n",
                        "A counting semaphore. Each acquire blocks if necessary; the Semaphore keeps a count (see locks).",
                        "",
                        "For example:",
                        "",
                        "    class Pool {",
                        "      Object get() { return items.get(0); }",
                        "    }",
                        "",
                        "Parameters:",
                        "  permits – the initial number of permits, < 0 allowed",
                        "  <T> – the type",
                        "",
                        "Returns: the newly created builder",
                        "",
                        "Throws:",
                        "  IllegalArgumentException – if permits <= 0",
                        "",
                        "Since: 1.5"),
                text);
    }

    @Test
    @DisplayName("HTML: code is escaped inside <code>, the sections are a definition list, @author is left out")
    void html() {
        String html = Javadoc.html(Javadoc.parse(COMMENT));
        assertTrue(html.contains("<code>Semaphore</code>"), html);
        assertTrue(html.contains("<code>acquire</code>"), html);
        assertTrue(html.contains("<code>&lt; 0</code>"), html);
        assertTrue(html.contains("<dt><b>Parameters:</b></dt><dd><code>permits</code> – the initial"), html);
        assertTrue(html.contains("<dd><code>&lt;T&gt;</code> – the type</dd>"), html);
        assertTrue(html.contains("<pre> <code>class Pool {"), html);
        assertFalse(html.contains("Doug Lea"), html);
        assertFalse(html.contains("{@"), html);
    }

    @Test
    @DisplayName("snippets, @apiNote, entities and long lines")
    void snippetsAndWrapping() {
        String comment = " Returns a builder &amp; more.\n\n @apiNote Examples:\n {@snippet lang=java :\n"
                + "     Thread t = Thread.ofVirtual().start(r);\n }\n @since 21";
        String text = Javadoc.text(Javadoc.parse(comment));
        assertEquals(
                "Returns a builder & more.\n\nAPI Note:\n  Examples:\n  \n      Thread t = Thread.ofVirtual().start(r);"
                        + "\n\nSince: 21",
                text);
        String words = "word ".repeat(60).strip();
        for (String line : Javadoc.text(Javadoc.parse(words)).split("\n")) {
            assertTrue(line.length() <= Javadoc.WIDTH, line);
        }
        assertEquals(List.of(), Javadoc.parse("").sections().keySet().stream().toList());
    }

    @Test
    void references() {
        assertEquals("acquire", Javadoc.prettyReference("#acquire"));
        assertEquals("Thread.ofVirtual()", Javadoc.prettyReference("Thread#ofVirtual()"));
    }
}
