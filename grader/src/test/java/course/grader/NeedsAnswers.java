package course.grader;

import course.base.Exercises;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test that needs the course's answers: the reference solutions, the mutants and alternatives made from them, or
 * their golden results. A learners' template ({@code ./course template}) has none of them, and there such a test is
 * skipped with {@link Exercises#NO_ANSWERS} as its reason; in the full course it runs.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(NeedsAnswers.Condition.class)
@interface NeedsAnswers {
    /** Runs the test where the course holds its answers, and skips it, saying why, where it does not. */
    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return Exercises.hasAnswers(Courses.root())
                    ? ConditionEvaluationResult.enabled("the course holds its answers")
                    : ConditionEvaluationResult.disabled(Exercises.NO_ANSWERS);
        }
    }
}
