package course.kit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class CheckTest {
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private PrintStream original;

    @BeforeEach
    void capture() {
        original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(original);
    }

    private String printed() {
        return captured.toString(StandardCharsets.UTF_8);
    }

    /** Runs a check that must pass; returns its one printed line. */
    private String passes(Executable check) {
        captured.reset();
        assertDoesNotThrow(check);
        String out = printed();
        assertEquals(1, out.lines().count(), out);
        String line = out.strip();
        assertTrue(line.startsWith("✔ "), line);
        return line;
    }

    /** Runs a check that must fail; returns its one printed line, which is also the exception's message. */
    private String fails(Executable check) {
        captured.reset();
        Check.Failed f = assertThrows(Check.Failed.class, check);
        String out = printed();
        assertEquals(1, out.lines().count(), out);
        String line = out.strip();
        assertTrue(line.startsWith("✘ "), line);
        assertEquals(line, f.getMessage());
        return line;
    }

    @Test
    void marksAreTheCheckAndCross() {
        assertEquals("✔", Check.PASS);
        assertEquals("✘", Check.FAIL);
    }

    @Test
    void failedIsAnAssertionError() {
        Check.Failed f = assertThrows(Check.Failed.class, () -> Check.that("x", false, "no"));
        assertInstanceOf(AssertionError.class, f);
    }

    @Test
    void nearPassesWithinTheTolerance() {
        String line = passes(() -> Check.near("fixed pool of 200, elapsed", 50.04, 50.0, 0.02, "s"));
        assertEquals("✔ fixed pool of 200, elapsed: measured 50.04 s, predicted 50 s ± 2.0% (49 s … 51 s)", line);
        passes(() -> Check.near("edge", 2.1, 2.0, 0.1, "s"));
        passes(() -> Check.near("exact", 0, 0, 0, ""));
    }

    @Test
    void nearFailsOutsideTheTolerance() {
        String line = fails(() -> Check.near("x", 2, 1, 0.1, "s"));
        assertEquals("✘ x: measured 2 s, predicted 1 s ± 10.0% (0.900 s … 1.10 s)", line);
        fails(() -> Check.near("below", 0.8, 1, 0.1, "s"));
        fails(() -> Check.near("negative prediction", -2, -1, 0.5, ""));
    }

    @Test
    void nearRefusesANegativeTolerance() {
        captured.reset();
        assertThrows(IllegalArgumentException.class, () -> Check.near("x", 1, 1, -0.1, "s"));
        assertEquals("", printed(), "nothing printed for a mistaken call");
    }

    @Test
    void betweenIncludesItsBoundsAndStatesWhy() {
        String line = passes(() -> Check.between("peak", 200, 190, 200, "threads", "the pool size"));
        assertEquals("✔ peak: measured 200 threads, predicted 190 threads … 200 threads (the pool size)", line);
        passes(() -> Check.between("lo", 190, 190, 200, "", null));
        String fail = fails(() -> Check.between("over", 201, 190, 200, "", "  "));
        assertEquals("✘ over: measured 201, predicted 190 … 200", fail);
        fails(() -> Check.between("under", 189.5, 190, 200, "", null));
    }

    @Test
    void betweenRefusesSwappedBounds() {
        assertThrows(IllegalArgumentException.class, () -> Check.between("x", 1, 2, 1, "", ""));
    }

    @Test
    void atMostAndAtLeastIncludeTheLimit() {
        assertEquals(
                "✔ mem: measured 512 MB, predicted at most 512 MB", passes(() -> Check.atMost("mem", 512, 512, "MB")));
        fails(() -> Check.atMost("mem", 513, 512, "MB"));
        assertEquals("✔ rate: measured 10, predicted at least 10", passes(() -> Check.atLeast("rate", 10, 10, null)));
        assertEquals("✘ rate: measured 9.50, predicted at least 10", fails(() -> Check.atLeast("rate", 9.5, 10, null)));
    }

    @Test
    void equalComparesCountsExactly() {
        assertEquals("✔ tasks: measured 10,000, predicted 10,000", passes(() -> Check.equal("tasks", 10_000, 10_000)));
        assertEquals("✘ tasks: measured 9,999, predicted 10,000", fails(() -> Check.equal("tasks", 9_999, 10_000)));
    }

    @Test
    void thatReportsTheCondition() {
        assertEquals("✔ all virtual: 100 of 100", passes(() -> Check.that("all virtual", true, "100 of 100")));
        assertEquals("✘ all virtual: 99 of 100", fails(() -> Check.that("all virtual", false, "99 of 100")));
    }

    @Test
    void numbersAreFormattedByMagnitude() {
        assertEquals("1,000 ms", Format.number(1000, "ms"));
        assertEquals("123.5 ms", Format.number(123.45, "ms"));
        assertEquals("2.50", Format.number(2.5, ""));
        assertEquals("0.123 s", Format.number(0.1234, "s"));
        assertEquals("-3.25", Format.number(-3.25, null));
        assertEquals("0", Format.number(0, " "));
    }
}
