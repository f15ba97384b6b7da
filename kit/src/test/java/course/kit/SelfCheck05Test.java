package course.kit;

import static course.kit.SelfCheckAssert.right;
import static course.kit.SelfCheckAssert.wrong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.SelfCheck.Choice;
import course.kit.SelfCheck.Result;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Notebook 05's self-check (selfcheck/05.json): it loads, the right answers are told right, wrong ones get the hint. */
class SelfCheck05Test {
    @Test
    void theFileLoadsWithFiveQuestions() {
        assertEquals(List.of("05.1", "05.2", "05.3", "05.4", "05.5"), SelfCheck.questions("05"));
    }

    @Test
    void theRightAnswersAreToldRight() {
        right("05.1", Duration.ofMillis(6_250)); // ⌈1,000/40⌉ = 25 waves of 250 ms
        right("05.2", 133); // 20 / 0.15 s
        right("05.2", 133.3);
        right("05.3", false);
        right("05.4", Choice.B);
        right("05.5", 160); // 40 · (1 + ⌊3.5⌋)
    }

    @Test
    void theWrongModelsAreToldWrongWithTheSectionToReread() {
        // the pool's 50 connections instead of the 40 permits: ⌈1,000/50⌉ · 250 ms
        Result r = wrong("05.1", Duration.ofSeconds(5));
        assertTrue(r.line().contains("2 · `new Semaphore(50)`"), r.line());
        assertFalse(r.toString().contains("6.25") || r.toString().contains("6,250"), "never the answer: " + r);
        wrong("05.1", Duration.ofMillis(250)); // one wave: the permits forgotten
        wrong("05.2", 20); // the permits alone
        wrong("05.2", 3); // 20 × 0.15: Little's law upside down
        assertTrue(wrong("05.3", true).line().contains("3 · Acquire inside the thread, or before starting it"));
        assertTrue(wrong("05.4", Choice.C).line().contains("4 · The permit leak"));
        wrong("05.5", 140); // 40 · (1 + 3.5), waves not rounded down
        wrong("05.5", 200); // 50 permits instead of 40
    }

    @Test
    void placeholdersAreNotAnswers() {
        assertFalse(SelfCheck.check("05.1", Duration.ZERO).answered());
        assertFalse(SelfCheck.check("05.2", 0).answered());
        assertFalse(SelfCheck.check("05.3", null).answered());
        assertFalse(SelfCheck.check("05.4", Choice.NONE).answered());
        assertFalse(SelfCheck.check("05.5", 0).answered());
    }
}
