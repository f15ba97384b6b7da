package course.kit;

import static course.kit.SelfCheckAssert.right;
import static course.kit.SelfCheckAssert.wrong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Notebook 03's self-check: its answers load, are told right, and a wrong answer gets its hint, not the answer. */
class SelfCheck03Test {
    private static Duration ms(long ms) {
        return Duration.ofMillis(ms);
    }

    @Test
    void theFileLoads() {
        assertEquals(List.of("03.1", "03.2", "03.3", "03.4", "03.5"), SelfCheck.questions("03"));
    }

    @Test
    void theRightAnswersAreToldRight() {
        right("03.1", ms(2_100)); // ⌈50/8⌉ = 7 waves of 300 ms
        right("03.2", 125); // L = 25 threads, W = 0.2 s
        right("03.2", 125.0);
        right("03.3", ms(500)); // 1+1 | 1+1 on two workers, then the 3 alone from 2 to 5
        right("03.4", ms(550)); // the chain 250 + 300 against 400
        right("03.5", false);
    }

    @Test
    void theWrongAnswersLearnersGiveAreToldWrongWithTheirSection() {
        String waves = "§ 1 · Waves: ⌈N/P⌉ · t", little = "§ 2 · Little's law in a closed loop: λ = L / W";
        String fifo = "§ 3 · Uneven tasks on a FIFO pool", article = "§ 4 · Article 002: three calls, 1.2 s or 0.5 s";
        wrong("03.1", ms(1_875), waves, "2.1", "2,100"); // N/P · t, the ceiling left out
        wrong("03.1", ms(1_800), waves); // ⌊N/P⌋ waves
        wrong("03.1", ms(15_000), waves); // N · t
        wrong("03.2", 1_500, little, "125"); // L = the clients, not the pool
        wrong("03.2", 5, little); // L · W
        wrong("03.2", 0.125, little); // W in milliseconds
        wrong("03.3", ms(350), fifo, "500"); // max(longest, total / P): a bound, not the FIFO makespan
        wrong("03.3", ms(300), fifo); // ⌈N/P⌉ waves of one unit
        wrong("03.3", ms(400), fifo); // the long task first
        wrong("03.4", ms(400), article, "550"); // the longest call, the dependency left out
        wrong("03.4", ms(950), article); // the sum
        wrong("03.5", true, fifo);
    }

    @Test
    void aPlaceholderIsNotAnAnswer() {
        for (String id : List.of("03.1", "03.3", "03.4"))
            assertFalse(SelfCheck.check(id, Duration.ZERO).answered());
        assertFalse(SelfCheck.check("03.2", 0).answered());
        assertFalse(SelfCheck.check("03.5", null).answered());
    }
}
