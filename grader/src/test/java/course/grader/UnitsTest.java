package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.MultipleFailuresError;

/** The small parts: the wire format, failure messages, finding the course folder. */
class UnitsTest {

    @Test
    void wireFieldsSurviveTabsNewlinesAndBackslashes() {
        String tricky = "a\tb\nc\\d\re";
        assertEquals(List.of("END", tricky, ""), Wire.fields(Wire.line("END", tricky, "")));
    }

    @Test
    void anAssertionFailureKeepsExpectedAndActual() {
        String m = Failures.describe(new AssertionFailedError("peak ==> expected: <3> but was: <6>", 3, 6), Set.of());
        assertEquals("peak ==> expected: <3> but was: <6>", m);
    }

    @Test
    void anExceptionNamesTheLearnersLine() {
        IllegalStateException e = new IllegalStateException("oops");
        e.setStackTrace(new StackTraceElement[] {
            new StackTraceElement("java.util.Objects", "x", "Objects.java", 1),
            new StackTraceElement("course.exercises.cafe.Cafe", "serve", "Cafe.java", 42),
            new StackTraceElement("course.exercises.cafe.CafeTest", "t", "CafeTest.java", 7)
        });
        assertEquals(
                "threw IllegalStateException: oops (at Cafe.java:42)",
                Failures.describe(e, Set.of("course.exercises.cafe.CafeTest")));
    }

    @Test
    void repeatedFailuresAreSaidOnce() {
        Throwable same = new UnsupportedOperationException("not written yet");
        same.setStackTrace(new StackTraceElement[0]);
        String m = Failures.describe(new MultipleFailuresError("h", List.of(same, same, same)), Set.of());
        assertEquals("threw UnsupportedOperationException: not written yet (×3)", m);
    }

    @Test
    void jupitersTimeoutIsRecognised() {
        assertTrue(Failures.isTimeout(new TimeoutException("serve() timed out after 5 seconds")));
        assertFalse(Failures.isTimeout(new TimeoutException("barrier")));
    }
}
