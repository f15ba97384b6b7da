package course.kit;

import static course.kit.SelfCheckAssert.right;
import static course.kit.SelfCheckAssert.wrong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import course.kit.SelfCheck.Choice;
import course.kit.SelfCheck.Result;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Notebook 04's self-check (selfcheck/04.json): it loads, and tells right, wrong and missing answers apart. */
class SelfCheck04Test {
    @Test
    void theFileLoads() {
        assertEquals(List.of("04.1", "04.2", "04.3", "04.4"), SelfCheck.questions("04"));
    }

    @Test
    void theRightAnswersAreToldRight() {
        right("04.1", Duration.ofMillis(240)); // 64 · 30 ms / 8 cores
        right("04.1", Duration.ofMillis(247)); // within 3 %
        right("04.2", Duration.ofMillis(295)); // max(50 ms, 200 · 5 ms / 4 + 45 ms)
        right("04.2", Duration.ofMillis(290));
        right("04.3", false);
        right("04.4", Choice.C);
    }

    @Test
    void theLikelyWrongAnswersAreToldWrongWithTheSectionToReread() {
        String one = "§ 1 · CPU-bound work: what sets the speed?";
        wrong("04.1", Duration.ofMillis(30), one, "240", "0.24"); // one task's time: the cores forgotten
        wrong("04.1", Duration.ofMillis(1_920), one); // N · c: one at a time
        wrong("04.1", Duration.ofMillis(250), one); // 4 % off: outside the tolerance
        String three = "§ 3 · Mixed work: compute, then wait";
        wrong("04.2", Duration.ofMillis(50), three, "295"); // the threads' floor C + W only
        wrong("04.2", Duration.ofMillis(250), three); // N · C / cores, the wait forgotten
        wrong("04.2", Duration.ofMillis(2_500), three); // N · C / cores on one core
        String four = "§ 4 · Carrier starvation: CPU-bound virtual threads delay I/O-bound ones";
        wrong("04.3", true, four);
        wrong("04.4", Choice.A, four);
        wrong("04.4", Choice.B, four);
        wrong("04.4", Choice.D, four);
    }

    @Test
    void aPlaceholderIsToldMissing() {
        for (Object placeholder : new Object[] {Duration.ZERO, null}) {
            Result r = SelfCheck.check("04.1", placeholder);
            assertFalse(r.answered() || r.correct(), r.toString());
            assertEquals("not answered yet", r.line());
        }
        assertFalse(SelfCheck.check("04.4", Choice.NONE).answered());
        assertFalse(SelfCheck.check("04.3", null).answered());
    }
}
