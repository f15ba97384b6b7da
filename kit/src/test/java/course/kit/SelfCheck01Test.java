package course.kit;

import static course.kit.SelfCheckAssert.right;
import static course.kit.SelfCheckAssert.wrong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import course.kit.SelfCheck.Choice;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Notebook 01's self-check: its answers load, are told right, and a wrong answer gets its hint, not the answer. */
class SelfCheck01Test {
    @Test
    void theFileLoads() {
        assertEquals(List.of("01.1", "01.2", "01.3", "01.4", "01.5"), SelfCheck.questions("01"));
    }

    @Test
    void theRightAnswersAreToldRight() {
        right("01.1", false); // a sleeping virtual thread holds no OS thread
        right("01.2", Choice.B); // the hand-offs
        right("01.3", 80.0 / 21); // (60 + 20) / (1 + 20)
        right("01.3", 3.8);
        right("01.4", 2_097); // 2 MiB / 1,000 B
        right("01.4", 2_048); // 2 × 1,024 × 1,000 / 1,000: within 5%
        right("01.4", 2_000); // 2 MB taken as 2,000,000 B: within 5%
        right("01.5", false); // never pooled
    }

    @Test
    void theWrongAnswersLearnersGiveAreToldWrongWithTheirSection() {
        wrong("01.1", true, "§ 5 · Memory: a reserved stack against a heap object");
        wrong("01.2", Choice.A, "§ 2 · The same loop with no thread created");
        wrong("01.2", Choice.C, "§ 2 · The same loop with no thread created");
        wrong("01.3", 60, "§ 4 · Both ways, side by side", "3.8"); // c_P / c_V: the hand-off left out
        wrong("01.3", 80, "§ 4 · Both ways, side by side", "3.8"); // (c_P + h) / c_V
        wrong("01.4", 1_048.576, "§ 5 · Memory", "2,097", "2097"); // -Xss of 1 MB, the default
        wrong("01.4", 1, "§ 5 · Memory"); // a virtual thread as heavy as a stack
        wrong("01.5", true, "§ 2 · The same loop with no thread created");
    }

    @Test
    void aPlaceholderIsNotAnAnswer() {
        for (String id : List.of("01.1", "01.5"))
            assertFalse(SelfCheck.check(id, null).answered());
        assertFalse(SelfCheck.check("01.2", Choice.NONE).answered());
        assertFalse(SelfCheck.check("01.3", 0).answered());
        assertFalse(SelfCheck.check("01.4", 0).answered());
    }
}
