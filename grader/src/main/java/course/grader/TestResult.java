package course.grader;

/**
 * The grade of one of the course's tests.
 *
 * @param exercise the exercise, {@code NN-name}
 * @param name     the test's display name
 * @param score    the points earned: {@code maxScore} if the test passed, else 0
 * @param maxScore the points the test is worth
 * @param passed   whether the test passed
 * @param message  why it failed (expected against actual, or the exception and where it came from); empty
 *                 when it passed
 */
public record TestResult(String exercise, String name, int score, int maxScore, boolean passed, String message) {
}
