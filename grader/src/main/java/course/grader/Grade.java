package course.grader;

import course.base.CourseRoot;
import course.base.ReportTable;
import java.util.List;

/**
 * Grading from a notebook's "Your turn" cell: {@code Grade.exercise("01-thread-cost")} grades the learner's
 * code of one exercise in place, exactly as {@code ./course grade 01-thread-cost} does, prints the summary
 * and returns the per-test report as a table (the kernel shows it as HTML).
 *
 * <pre>{@code
 * import course.grader.*;
 * Grade.exercise("01-thread-cost")
 * }</pre>
 */
public final class Grade {
    private Grade() {}

    /**
     * Grades the learner's code of {@code name} in {@code exercises/} with the course's own tests, prints
     * the summary (and any compile error or note), and returns the report as a table.
     *
     * <p>The course folder is found by walking up from the working directory (see {@link CourseRoot#find()}).
     *
     * @param name the exercise, for example {@code "01-thread-cost"}
     * @return one row per test: exercise, test, points, max, result, message
     * @throws IllegalArgumentException if {@code name} is not an exercise of the course
     */
    public static ReportTable exercise(String name) {
        GradeReport report = report(name);
        System.out.println(
                report.summaryLine() + " · graded with the course's own tests (edits to test files do not count)");
        for (ExerciseResult e : report.exercises()) {
            e.problems().forEach(p -> System.out.println("  " + p));
            e.notes().forEach(n -> System.out.println("  note: " + n));
        }
        return report.toTable();
    }

    /**
     * Grades the learner's code of the given exercises (all of them when none is given) and returns the
     * full report, without printing anything. Each exercise's grade is kept in {@code target/grades/} of the
     * course folder ({@link LastGrades}).
     *
     * @param names the exercises, {@code NN-name}
     * @return the report
     */
    public static GradeReport report(String... names) {
        var root = CourseRoot.find();
        GradeReport report = new Grader(root).grade(List.of(names), Grader.Source.EXERCISES);
        LastGrades.remember(root, report); // target/grades/NN-name.json, for ./course progress
        return report;
    }
}
