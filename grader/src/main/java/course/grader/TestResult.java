package course.grader;

/**
 * The grade of one of the course's tests.
 *
 * @param exercise   the exercise, {@code NN-name}
 * @param name       the test's display name
 * @param score      the points earned: {@code maxScore} if the test passed, else 0
 * @param maxScore   the points the test is worth
 * @param passed     whether the test passed
 * @param message    why it failed (expected against actual, or the exception and where it came from); empty
 *                   when it passed
 * @param visibility who sees the test on Gradescope: {@code visible} (the default), {@code hidden} or
 *                   {@code after_due_date}, from the test's {@code visibility:...} tag
 * @param code       the test method's body, as the course's test source has it (empty when unknown)
 * @param method     the test method's name in its class (empty when unknown): what an exercise's contract names
 */
public record TestResult(
        String exercise,
        String name,
        int score,
        int maxScore,
        boolean passed,
        String message,
        String visibility,
        String code,
        String method) {

    /** The value of {@link #visibility()} for a test without a {@code visibility:...} tag. */
    public static final String VISIBLE = "visible";

    /** A visible test. */
    public TestResult(String exercise, String name, int score, int maxScore, boolean passed, String message) {
        this(exercise, name, score, maxScore, passed, message, VISIBLE, "", "");
    }

    /** A test whose code is not known. */
    public TestResult(
            String exercise, String name, int score, int maxScore, boolean passed, String message, String visibility) {
        this(exercise, name, score, maxScore, passed, message, visibility, "", "");
    }

    /** True for a test the learner does not see before grading (hidden, or visible only after the due date). */
    public boolean hidden() {
        return !VISIBLE.equals(visibility);
    }
}
