package course.grader;

import java.util.List;

/**
 * The grade of one exercise.
 *
 * @param exercise the exercise, {@code NN-name}
 * @param tests    every test of the course for this exercise, in the order they are declared
 * @param problems what stopped the exercise from being tested (compile errors, a test JVM that would not
 *                 start); empty when its tests ran
 * @param notes    remarks that do not change the grade (for example: a test file in {@code exercises/}
 *                 differs from the course's copy, which was used)
 */
public record ExerciseResult(String exercise, List<TestResult> tests, List<String> problems, List<String> notes) {

    /** Creates a result; the lists are copied. */
    public ExerciseResult {
        tests = List.copyOf(tests);
        problems = List.copyOf(problems);
        notes = List.copyOf(notes);
    }

    /** The points earned. */
    public int score() {
        return tests.stream().mapToInt(TestResult::score).sum();
    }

    /** The points possible. */
    public int maxScore() {
        return tests.stream().mapToInt(TestResult::maxScore).sum();
    }
}
