package course.kit;

import static course.kit.SelfCheckAssert.right;
import static course.kit.SelfCheckAssert.wrong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import course.kit.SelfCheck.Choice;
import course.kit.experiments.HttpService;
import course.kit.models.HttpModel;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Notebook 08's self-check: its answers file loads, right answers are told right, wrong ones get their hint, and
 * the expected figures are the notebook's model ({@link HttpService#throughput}, {@link HttpService#latencyMillis})
 * for the questions' parameters.
 */
class SelfCheck08Test {
    private static final Duration T = Duration.ofMillis(250);

    @Test
    void theFileLoadsWithFiveQuestions() {
        assertEquals(List.of("08.1", "08.2", "08.3", "08.4", "08.5"), SelfCheck.questions("08"));
    }

    @Test
    void thePoolsThroughputIsItsThreadsOverT() {
        double model = HttpModel.throughput(600, 200, T); // 600 clients, 200 threads, L = 1,000 never reached
        right("08.1", model);
        wrong("08.1", 600 * 1_000.0 / T.toMillis(), "2 · The pool of 200"); // C / t: the pool forgotten
        wrong("08.1", 1_000 * 1_000.0 / T.toMillis(), "2 · The pool of 200"); // L / t: the wrong limit
        wrong("08.1", 1_000.0 / T.toMillis(), "2 · The pool of 200"); // one at a time
    }

    @Test
    void onVirtualThreadsTheLatencyIsSetByTheDownstreamsLimit() {
        right("08.2", Duration.ofNanos((long) (HttpModel.latencyMillis(3_000, 1_000, T) * 1e6)));
        wrong("08.2", T, "3 · Virtual threads"); // t: no queue at all
        wrong("08.2", Duration.ofMillis(3_750), "3 · Virtual threads"); // C · t / 200: the pool's limit
    }

    @Test
    void theQueueMovesIntoTheHandler() {
        right("08.3", Choice.C);
        for (Choice c : List.of(Choice.A, Choice.B, Choice.D, Choice.E)) wrong("08.3", c, "3 · Virtual threads");
    }

    @Test
    void virtualThreadsDoNotRaiseThroughputPastTheDownstreamsLimit() {
        right("08.4", false);
        wrong("08.4", true, "3 · Virtual threads");
    }

    @Test
    void aBoundedWaitBoundsTheTimeInTheHandler() {
        right("08.5", Duration.ofMillis(350));
        wrong(
                "08.5",
                Duration.ofMillis(300),
                "4 · The fix: a `Semaphore` in front of the downstream"); // maxWait forgotten
        wrong("08.5", Duration.ofMillis(50), "4 · The fix: a `Semaphore` in front of the downstream"); // t forgotten
    }

    @Test
    void noAnswerIsGivenAway() {
        for (String id : SelfCheck.questions("08")) {
            String hint = SelfCheck.check(id, id.equals("08.3") ? Choice.E : id.equals("08.4") ? true : 1)
                    .line();
            for (String figure : List.of("800", "750", "350", "0.75", "0.35")) {
                assertFalse(hint.contains(figure), id + " gives a figure away: " + hint);
            }
        }
    }
}
