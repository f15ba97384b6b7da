package course.kit;

import static course.kit.SelfCheckAssert.right;
import static course.kit.SelfCheckAssert.wrong;
import static org.junit.jupiter.api.Assertions.assertEquals;

import course.kit.SelfCheck.Choice;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Notebook 00's self-check (selfcheck/00.json, the example the kit's README shows): it loads, the right answers
 * are told right. Like every SelfCheckNNTest it holds the answers, so a learners' template leaves it out.
 */
class SelfCheck00Test {
    @Test
    void theFileLoadsWithFourQuestions() {
        assertEquals(List.of("00.1", "00.2", "00.3", "00.4"), SelfCheck.questions("00"));
    }

    @Test
    void theRightAnswersAreToldRight() {
        right("00.1", Duration.ofSeconds(6));
        right("00.2", 21);
        right("00.3", Choice.B);
        right("00.4", false);
    }

    @Test
    void aWrongAnswerGetsTheHint() {
        wrong("00.1", Duration.ofSeconds(60));
        wrong("00.4", true);
    }
}
