package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link ForkedTests#budgetSeconds}: one exercise's budget, every exercise's, or the default. */
class ForkedTestsTest {
    @AfterEach
    void clear() {
        System.clearProperty(ForkedTests.BUDGET_PROPERTY);
        System.clearProperty(ForkedTests.BUDGET_PROPERTY + ".02-cafe");
    }

    @Test
    void anExercisesOwnBudgetWinsOverEveryExercisesAndTheDefault() {
        assertEquals(ForkedTests.EXERCISE_BUDGET_S, ForkedTests.budgetSeconds("02-cafe"));
        System.setProperty(ForkedTests.BUDGET_PROPERTY + ".02-cafe", "20");
        assertEquals(20, ForkedTests.budgetSeconds("02-cafe"));
        assertEquals(ForkedTests.EXERCISE_BUDGET_S, ForkedTests.budgetSeconds("04-io-vs-cpu"), "other exercises");
        assertEquals(ForkedTests.EXERCISE_BUDGET_S, ForkedTests.budgetSeconds(null), "no exercise named");
        System.setProperty(ForkedTests.BUDGET_PROPERTY, "30");
        assertEquals(20, ForkedTests.budgetSeconds("02-cafe"));
        assertEquals(30, ForkedTests.budgetSeconds("04-io-vs-cpu"));
        assertEquals(30, ForkedTests.budgetSeconds(null));
    }
}
