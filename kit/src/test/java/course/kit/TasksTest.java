package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class TasksTest {

    @Test
    void sleepRefusesNegativeAndNullDurations() {
        var e = assertThrows(IllegalArgumentException.class, () -> Tasks.sleep(Duration.ofMillis(-1)));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
        assertThrows(NullPointerException.class, () -> Tasks.sleep(null));
    }

    @Test
    void sleepTaskSleepsAtLeastItsDurationAndAnswersInterruption() throws Exception {
        long t0 = System.nanoTime();
        Tasks.sleep(Duration.ofMillis(20)).run(1);
        long slept = System.nanoTime() - t0;
        assertTrue(slept >= Duration.ofMillis(20).toNanos(), slept + " ns");
        Thread.currentThread().interrupt();
        try {
            assertThrows(
                    InterruptedException.class,
                    () -> Tasks.sleep(Duration.ofMinutes(5)).run(0));
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void cpuRefusesNegativeIterations() {
        var e = assertThrows(IllegalArgumentException.class, () -> Tasks.cpu(-1));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
    }

    @Test
    void burnIsDeterministic() throws Exception {
        assertEquals(88172645463325252L, Tasks.burn(0), "zero rounds return the seed");
        assertEquals(Tasks.burn(1_000), Tasks.burn(1_000));
        assertNotEquals(Tasks.burn(1_000), Tasks.burn(1_001));
        long x = 88172645463325252L;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        assertEquals(x, Tasks.burn(1), "one xorshift round");
    }

    @Test
    void burnStopsWhenInterrupted() {
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class, () -> Tasks.burn(Long.MAX_VALUE));
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void cpuTaskStopsWhenItsThreadIsInterrupted() throws Exception {
        RunResult r = Run.tasks(Pool.fixed(1), 1, i -> {
            Thread.currentThread().interrupt();
            Tasks.cpu(Long.MAX_VALUE).run(i);
        });
        assertEquals("InterruptedException", r.records().get(0).failure());
    }

    @Test
    void calibrateReturnsAPositiveRoundCountThatGrowsWithTheTarget() throws Exception {
        long small = Tasks.calibrate(Duration.ofNanos(1));
        long big = Tasks.calibrate(Duration.ofSeconds(10));
        assertTrue(small >= 1, "at least one round: " + small);
        assertTrue(big > small, big + " rounds for 10 s, " + small + " for 1 ns");
    }
}
