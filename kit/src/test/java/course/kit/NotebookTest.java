package course.kit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NotebookTest {

    @Test
    void aPlainJvmIsNotTheKernel() {
        assertNull(System.getProperty("course.kernel"), "the test JVM is started without -Dcourse.kernel");
        assertFalse(Notebook.inKernel());
    }

    @Test
    void theKernelIsTheJvmWithTheCoursePropertyAndRapaio() {
        // rapaio is on the test classpath (provided scope), so the property alone decides here
        System.setProperty("course.kernel", "vthreads-java");
        try {
            assertTrue(Notebook.inKernel());
        } finally {
            System.clearProperty("course.kernel");
        }
        assertFalse(Notebook.inKernel());
    }

    @Test
    void outsideTheKernelDisplayPrintsTheValueAndUpdateDoesNothing() {
        PrintStream original = System.out;
        var out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertNull(Notebook.display(new Progress.View("café", 1, 2, 0.5, false)));
            assertNull(Notebook.display(42));
            assertDoesNotThrow(() -> Notebook.update("some-id", "ignored"));
            assertDoesNotThrow(() -> Notebook.update(null, "ignored"));
        } finally {
            System.setOut(original);
        }
        var lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("▶ café: 1 / 2 done"), lines.get(0));
        assertEquals("42", lines.get(1));
    }

    @Test
    void showOnceShowsAndRemembersThatVeryObject() {
        PrintStream original = System.out;
        var out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        var shown = new StringBuilder("result");
        try {
            Notebook.showOnce(shown);
        } finally {
            System.setOut(original);
        }
        assertEquals("result\n", out.toString(StandardCharsets.UTF_8));
        assertTrue(Notebook.shown(shown));
        assertFalse(Notebook.shown(new StringBuilder("result")), "by identity, not by value");
        assertFalse(Notebook.shown(null));
    }
}
