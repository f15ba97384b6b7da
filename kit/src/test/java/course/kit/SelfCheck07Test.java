package course.kit;

import static course.kit.SelfCheckAssert.right;
import static course.kit.SelfCheckAssert.wrong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import course.kit.SelfCheck.Choice;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Notebook 07's self-check: its answers file loads, right answers are told right, wrong ones get their hint. */
class SelfCheck07Test {
    @Test
    void theFileLoadsWithFiveQuestions() {
        assertEquals(List.of("07.1", "07.2", "07.3", "07.4", "07.5"), SelfCheck.questions("07"));
    }

    @Test
    void fourCallsInOneScopeTakeTheLongestNotTheSum() {
        right("07.1", Duration.ofMillis(600));
        right("07.1", Duration.ofMillis(620));
        wrong("07.1", Duration.ofMillis(1_650), "1 · Three calls in one scope"); // the sum
        wrong("07.1", Duration.ofMillis(250), "1 · Three calls in one scope"); // the first reply
        wrong("07.1", Duration.ofMillis(412), "1 · Three calls in one scope"); // the mean
    }

    @Test
    void aDeadlineBeforeTheLongestCallEndsTheScopeAtTheDeadline() {
        right("07.2", Duration.ofMillis(400));
        wrong("07.2", Duration.ofMillis(600), "3 · A deadline"); // waited for the longest call
        wrong("07.2", Duration.ofMillis(250), "3 · A deadline"); // the first reply
    }

    @Test
    void theSiblingsOfAFailedCallAreInterruptedAndAwaited() {
        right("07.3", Choice.C);
        for (Choice c : List.of(Choice.A, Choice.B, Choice.D, Choice.E)) wrong("07.3", c, "2 · One call fails");
    }

    @Test
    void anExecutorsThreadDoesNotInheritAScopedValue() {
        right("07.4", false);
        wrong("07.4", true, "7 · Inheritance, rebinding, and reading outside the scope");
    }

    @Test
    void aThreadLocalHoldsOneCachePerVirtualThread() {
        right("07.5", 819.2); // 50,000 × 16,384 B
        right("07.5", 800); // 16 KB read as 16,000 B
        right("07.5", 781.25); // in MiB: the point is one array per thread, not the unit
        wrong("07.5", 0.016384, "6 · ThreadLocal against ScopedValue"); // one shared copy
        wrong("07.5", 0.032768, "6 · ThreadLocal against ScopedValue"); // one per carrier, 2 cores
    }

    @Test
    void noAnswerIsGivenAway() {
        for (String id : SelfCheck.questions("07")) {
            String hint = SelfCheck.check(id, id.equals("07.3") ? Choice.E : id.equals("07.4") ? true : 1)
                    .line();
            for (String figure : List.of("600", "400", "819", "0.6", "0.4")) {
                assertFalse(hint.contains(figure), id + " gives a figure away: " + hint);
            }
        }
    }
}
