package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ProgressTest {

    private static boolean progressThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("course-progress") && t.isAlive());
    }

    @Test
    void outsideTheKernelItStartsNoThreadAndPrintsNothing() {
        var done = new AtomicInteger();
        try (var p = Progress.start("quiet", 10, done::get)) {
            assertFalse(progressThreadAlive());
            done.set(4);
            assertEquals(4, p.view(false).done());
        }
        assertFalse(progressThreadAlive());
    }

    @Test
    void viewReportsProgressAndNeverMoreThanTheTotal() {
        var done = new AtomicInteger(3);
        long before = System.nanoTime();
        try (var p = Progress.start("café", 10, done::get)) {
            Progress.View v = p.view(false);
            double since = (System.nanoTime() - before) / 1e9;
            assertEquals("café", v.label());
            assertEquals(3, v.done());
            assertEquals(10, v.total());
            assertFalse(v.last());
            assertTrue(
                    v.seconds() <= since,
                    "counted from the start: " + v.seconds() + " s, " + since + " s since before it");
            done.set(12);
            assertEquals(10, p.view(true).done());
            assertTrue(p.view(true).last());
        }
    }

    @Test
    void viewTextShowsStateLabelAndCounts() {
        var running = new Progress.View("café", 3, 10, 1.25, false);
        assertTrue(running.toString().startsWith("▶ café: 3 / 10 done · "), running.toString());
        assertTrue(running.toString().endsWith(" s"), running.toString());
        var ended = new Progress.View("café", 10, 10, 2, true);
        assertTrue(ended.toString().startsWith("■ café: 10 / 10 done"), ended.toString());
    }

    @Test
    void viewHtmlIsAProgressBarWithEscapedText() {
        String html = new Progress.View("<b>run</b>", 3, 10, 0.5, false).html();
        assertTrue(html.contains("<progress value='3' max='10'"), html);
        assertTrue(html.contains("30%"), html);
        assertTrue(html.contains("&lt;b&gt;run&lt;/b&gt;"), html);
        assertFalse(html.contains("<b>"), html);
        String empty = new Progress.View("none", 0, 0, 0, true).html();
        assertTrue(empty.contains("max='1'") && empty.contains("100%"), empty);
    }

    @Test
    void inTheKernelCloseStopsItsThreadBeforeReturning() {
        String before = System.getProperty("course.kernel");
        System.setProperty("course.kernel", "test");
        try {
            Progress p = Progress.start("live", 5, () -> 0);
            assertTrue(progressThreadAlive(), "a live progress line has its updater thread");
            p.close();
            assertFalse(progressThreadAlive(), "close() joined the updater");
            p.close(); // a second close is harmless
        } finally {
            if (before == null) System.clearProperty("course.kernel");
            else System.setProperty("course.kernel", before);
        }
    }

    @Test
    void closeKeepsTheCallersInterruptStatus() {
        String before = System.getProperty("course.kernel");
        System.setProperty("course.kernel", "test");
        try {
            Progress p = Progress.start("live", 5, () -> 0);
            Thread.currentThread().interrupt();
            p.close();
            assertTrue(Thread.interrupted(), "the interrupt is still pending after close()");
            assertFalse(progressThreadAlive());
        } finally {
            Thread.interrupted();
            if (before == null) System.clearProperty("course.kernel");
            else System.setProperty("course.kernel", before);
        }
    }
}
