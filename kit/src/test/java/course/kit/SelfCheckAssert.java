package course.kit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.SelfCheck.Result;

/** What the notebooks' self-check tests assert of an answer: told right, or told wrong with its hint. */
final class SelfCheckAssert {
    private SelfCheckAssert() {}

    /** {@code answer} to question {@code id} is told right. */
    static void right(String id, Object answer) {
        Result r = SelfCheck.check(id, answer);
        assertTrue(r.answered() && r.correct(), id + " " + answer + ": " + r);
    }

    /** {@code answer} is told wrong: "not yet", and the section to reread. */
    static Result wrong(String id, Object answer) {
        Result r = SelfCheck.check(id, answer);
        assertTrue(r.answered() && !r.correct(), id + " " + answer + ": " + r);
        assertTrue(r.line().startsWith("not yet: reread "), r.line());
        return r;
    }

    /** {@code answer} is told wrong, with a hint that names {@code section}, and none of {@code notShown}. */
    static Result wrong(String id, Object answer, String section, String... notShown) {
        Result r = wrong(id, answer);
        assertTrue(r.line().contains(section), r.line() + " should name " + section);
        for (String s : notShown) assertFalse(r.toString().contains(s), "the answer is never shown: " + r);
        return r;
    }
}
