package course.kit;

import static course.kit.SelfCheckAssert.right;
import static course.kit.SelfCheckAssert.wrong;
import static org.junit.jupiter.api.Assertions.assertEquals;

import course.kit.SelfCheck.Choice;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Notebook 06's self-check (selfcheck/06.json): it loads, and tells right, wrong and missing answers apart. */
class SelfCheck06Test {
    @Test
    void theFileLoads() {
        assertEquals(List.of("06.1", "06.2", "06.3", "06.4"), SelfCheck.questions("06"));
    }

    @Test
    void theRightAnswersAreToldRight() {
        right("06.1", false);
        right("06.2", Choice.C);
        right("06.3", 4); // one per carrier
        right("06.3", 4L);
        right("06.4", Duration.ofMillis(1_250)); // ⌈200/8⌉ waves of 50 ms
        right("06.4", Duration.ofMillis(1_300)); // within 5 %
    }

    @Test
    void theLikelyWrongAnswersAreToldWrongWithTheSectionToReread() {
        String one = "§ 1 · `synchronized` around a blocking call";
        wrong("06.1", true, one); // the JDK 21 rule
        String two = "§ 2 · What still pins";
        for (Choice c : List.of(Choice.A, Choice.B, Choice.D, Choice.E)) wrong("06.2", c, two);
        wrong("06.3", 1, two); // only the initialiser
        wrong("06.3", 1_000, two); // every reader
        wrong("06.3", 3, two);
        String three = "§ 3 · File I/O and the carriers";
        wrong("06.4", Duration.ofMillis(50), three, "1.25", "1,250"); // a socket's answer: every read at once
        wrong("06.4", Duration.ofSeconds(10), three); // N · t, one read at a time
        wrong("06.4", Duration.ofMillis(1_350), three); // 8 % off: outside the tolerance
    }

    @Test
    void aPlaceholderIsToldMissing() {
        assertEquals("not answered yet", SelfCheck.check("06.1", null).line());
        assertEquals("not answered yet", SelfCheck.check("06.2", Choice.NONE).line());
        assertEquals("not answered yet", SelfCheck.check("06.3", 0).line());
        assertEquals("not answered yet", SelfCheck.check("06.4", Duration.ZERO).line());
    }
}
