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

/** Notebook 02's self-check (selfcheck/02.json): it loads, the right answers are told right, wrong ones get the hint. */
class SelfCheck02Test {
    @Test
    void theFileLoadsWithFiveQuestions() {
        assertEquals(List.of("02.1", "02.2", "02.3", "02.4", "02.5"), SelfCheck.questions("02"));
    }

    @Test
    void theRightAnswersAreToldRight() {
        right("02.1", Duration.ofSeconds(48)); // ⌈7,000/300⌉ = 24 waves of 2 s
        right("02.1", Duration.ofMillis(48_500)); // within 2%
        right("02.2", false);
        right("02.3", Choice.B);
        right("02.4", 8);
        right("02.5", Choice.C);
    }

    @Test
    void theWrongModelsAreToldWrongWithTheSectionToReread() {
        // 7,000/300 · 2 s without rounding the waves up
        Result r = wrong("02.1", Duration.ofMillis(46_667));
        assertTrue(r.line().contains("Explain: 50 waves against one"), r.line());
        assertFalse(r.toString().contains("48"), "the answer is never shown: " + r);
        wrong("02.1", Duration.ofSeconds(2)); // one wave
        assertTrue(wrong("02.2", true).line().contains("Who waits? The pool's threads against the carriers"));
        wrong("02.3", Choice.A);
        wrong("02.4", 256); // the scheduler's maximum pool size, not its parallelism
        wrong("02.5", Choice.A);
    }

    @Test
    void placeholdersAreNotAnswers() {
        assertFalse(SelfCheck.check("02.1", Duration.ZERO).answered());
        assertFalse(SelfCheck.check("02.2", null).answered());
        assertFalse(SelfCheck.check("02.3", Choice.NONE).answered());
        assertFalse(SelfCheck.check("02.4", 0).answered());
    }
}
