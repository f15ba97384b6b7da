package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.SelfCheck.Choice;
import course.kit.SelfCheck.Result;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SelfCheckTest {
    private enum Executor {
        POOL,
        VIRTUAL
    }

    private static void right(String id, Object answer) {
        Result r = SelfCheck.check(id, answer);
        assertTrue(r.answered() && r.correct(), id + " " + answer + ": " + r);
        assertTrue(r.toString().startsWith("✔ " + id + ": "), r.toString());
    }

    private static void wrong(String id, Object answer) {
        Result r = SelfCheck.check(id, answer);
        assertTrue(r.answered() && !r.correct(), id + " " + answer + ": " + r);
        assertTrue(r.line().startsWith("not yet: "), r.line());
        assertFalse(r.toString().contains("✘") || r.toString().contains("✔"), r.toString());
    }

    private static void missing(String id, Object answer) {
        Result r = SelfCheck.check(id, answer);
        assertFalse(r.answered() || r.correct(), id + " " + answer + ": " + r);
        assertEquals("not answered yet", r.line());
    }

    @Test
    void aRightAnswerIsConfirmed() {
        right("zz.1", Duration.ofSeconds(35));
        right("zz.1", Duration.ofMillis(35_600)); // within 2%
        right("zz.2", 21);
        right("zz.2", 21.4); // within 0.5
        right("zz.2", 21L);
        right("zz.3", Choice.B);
        right("zz.4", false);
        right("zz.5", Executor.VIRTUAL);
        right("zz.6", Duration.ofMillis(259)); // within 10 ms
        assertEquals(
                "✔ zz.1: ⌈N/P⌉ waves of t",
                SelfCheck.check("zz.1", Duration.ofSeconds(35)).toString());
    }

    @Test
    void aWrongAnswerIsToldWrongWithTheSectionToRereadAndNotTheAnswer() {
        wrong("zz.1", Duration.ofSeconds(50));
        wrong("zz.1", Duration.ofMillis(35_800)); // 2.3%: outside
        wrong("zz.2", 20);
        wrong("zz.2", 21.6);
        wrong("zz.3", Choice.A);
        wrong("zz.4", true);
        wrong("zz.5", Executor.POOL);
        wrong("zz.6", Duration.ofMillis(261));
        Result r = SelfCheck.check("zz.1", Duration.ofSeconds(50));
        assertEquals("not yet: reread § 1 · Article 000's café: ⌈N/P⌉ · t with N = 7,000", r.line());
        assertFalse(r.toString().contains("35"), "the answer is never shown: " + r);
    }

    @Test
    void aPlaceholderIsToldMissing() {
        missing("zz.1", Duration.ZERO);
        missing("zz.2", 0);
        missing("zz.2", 0.0);
        missing("zz.3", Choice.NONE);
        missing("zz.4", null);
        missing("zz.5", null);
        assertEquals("zz.4 · not answered yet", SelfCheck.check("zz.4", null).toString());
    }

    @Test
    void anAnswerOfTheWrongKindSaysWhatTheQuestionTakes() {
        Result r = SelfCheck.check("zz.1", 35);
        assertTrue(r.answered() && !r.correct());
        assertTrue(r.line().contains("asks for a Duration") && r.line().contains("not Integer"), r.line());
        assertTrue(SelfCheck.check("zz.4", "false").line().contains("true or false"));
    }

    @Test
    void anUnknownIdIsAProgrammingErrorThatNamesTheKnownOnes() {
        var inFile = assertThrows(IllegalArgumentException.class, () -> SelfCheck.check("zz.9", 1));
        assertTrue(inFile.getMessage().contains("zz.1, zz.2, zz.3, zz.4, zz.5, zz.6"), inFile.getMessage());
        var noFile = assertThrows(IllegalArgumentException.class, () -> SelfCheck.check("77.1", 1));
        assertTrue(noFile.getMessage().contains("00.1, 00.2, 00.3, 00.4"), noFile.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SelfCheck.check("nodot", 1));
    }

    @Test
    void aFileThatDoesNotExistHasNoQuestions() {
        assertEquals(List.of(), SelfCheck.questions("77"));
    }

    /** zs.json is zz.json as a learners' template seals it (./course template): it marks every answer alike. */
    @Test
    void aSealedFileMarksAsItsOpenOne() {
        assertEquals(List.of("zs.1", "zs.2", "zs.3", "zs.4", "zs.5", "zs.6"), SelfCheck.questions("zs"));
        Object[] answers = {
            Duration.ofSeconds(35),
            Duration.ofMillis(35_600),
            Duration.ofMillis(35_800),
            Duration.ZERO,
            21,
            21.4,
            21.6,
            20,
            0,
            Choice.B,
            Choice.A,
            false,
            true,
            null,
            Executor.VIRTUAL,
            Executor.POOL,
            Duration.ofMillis(259),
            Duration.ofMillis(261),
            "false"
        };
        for (int n = 1; n <= 6; n++) {
            for (Object a : answers) {
                Result open = SelfCheck.check("zz." + n, a);
                Result sealed = SelfCheck.check("zs." + n, a);
                assertEquals(open.answered(), sealed.answered(), n + " " + a);
                assertEquals(open.correct(), sealed.correct(), n + " " + a);
                assertEquals(open.line().replace("zz.", "zs."), sealed.line(), n + " " + a);
            }
        }
        assertEquals(
                "✔ zs.1: ⌈N/P⌉ waves of t",
                SelfCheck.check("zs.1", Duration.ofSeconds(35)).toString());
    }

    @Test
    void theResultShowsWithItsJsonAndPrintsOutsideTheKernel() {
        PrintStream original = System.out;
        var out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            SelfCheck.answer("zz.2", 20);
        } finally {
            System.setOut(original);
        }
        assertEquals("zz.2 · not yet: reread § 2 · ⌈N/P⌉ rounds up\n", out.toString(StandardCharsets.UTF_8));
        Result r = SelfCheck.check("zz.2", 20);
        assertEquals(List.of("id", "answered", "correct"), List.copyOf(r.json().keySet()));
        assertEquals("zz.2", r.json().get("id"));
        assertEquals(true, r.json().get("answered"));
        assertEquals(false, r.json().get("correct"));
        assertTrue(r.html().contains("not yet"), r.html());
    }
}
