package course.grader;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The grade of one run of the grader, with its three renderings: the terminal report
 * ({@link #toText()}), Gradescope's {@code results.json} ({@link #writeJson(Path)}) and a table for the
 * notebooks ({@link #toTable()}).
 *
 * @param source    whose code was graded
 * @param exercises the graded exercises, in order
 * @param elapsed   how long grading took
 */
public record GradeReport(Grader.Source source, List<ExerciseResult> exercises, Duration elapsed) {

    /** Creates a report; the list is copied. */
    public GradeReport {
        exercises = List.copyOf(exercises);
    }

    /** The points earned over all graded exercises. */
    public int score() {
        return exercises.stream().mapToInt(ExerciseResult::score).sum();
    }

    /** The points possible over all graded exercises. */
    public int maxScore() {
        return exercises.stream().mapToInt(ExerciseResult::maxScore).sum();
    }

    /** True when every test of every graded exercise passed. */
    public boolean full() {
        return score() == maxScore() && exercises.stream().allMatch(e -> e.problems().isEmpty());
    }

    /** The sentence that says which tests were used. */
    public String provenance() {
        return source == Grader.Source.SOLUTIONS
                ? "Graded the reference solutions (solutions/) with the course's own tests."
                : "Graded your code in exercises/ with the course's own tests: a pristine copy built into the"
                + " grader. Edits to test files under exercises/ do not change the grade.";
    }

    /** One line: the total, for example {@code "01-thread-cost: 7/11 points"}. */
    public String summaryLine() {
        String what = exercises.size() == 1 ? exercises.getFirst().exercise() : "Total";
        return "%s: %d/%d points (%d of %d tests passed)".formatted(what, score(), maxScore(),
                exercises.stream().flatMap(e -> e.tests().stream()).filter(TestResult::passed).count(),
                exercises.stream().mapToLong(e -> e.tests().size()).sum());
    }

    /** The report for a terminal: per exercise, each test with its points and why it failed; then the total. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append(provenance()).append("\n\n");
        for (ExerciseResult e : exercises) {
            String head = e.exercise();
            sb.append(head).append(" ".repeat(Math.max(1, 64 - head.length())))
                    .append("%3d/%d".formatted(e.score(), e.maxScore())).append('\n');
            for (String p : e.problems()) {
                sb.append("  !! ").append(p).append('\n');
            }
            for (String n : e.notes()) {
                sb.append("  note: ").append(n).append('\n');
            }
            for (TestResult t : e.tests()) {
                sb.append("  ").append(t.passed() ? "PASS" : "FAIL")
                        .append("  %2d/%-2d ".formatted(t.score(), t.maxScore())).append(t.name()).append('\n');
                if (!t.passed() && e.problems().isEmpty() && !t.message().isEmpty()) {
                    t.message().lines().forEach(l -> sb.append("               ").append(l).append('\n'));
                }
            }
            sb.append('\n');
        }
        sb.append(summaryLine()).append(String.format(Locale.ROOT, "  [%.1f s]", elapsed.toMillis() / 1000.0))
                .append('\n');
        return sb.toString();
    }

    /**
     * The Gradescope-style results: top-level {@code score}, {@code max_score}, {@code execution_time},
     * {@code output} and {@code tests[]}, each test with {@code name}, {@code score}, {@code max_score},
     * {@code status} ({@code passed} or {@code failed}), {@code output} and {@code visibility}.
     */
    public Map<String, Object> toJsonTree() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("score", score());
        root.put("max_score", maxScore());
        root.put("execution_time", Math.round(elapsed.toMillis() / 100.0) / 10.0);
        StringBuilder output = new StringBuilder(provenance());
        for (ExerciseResult e : exercises) {
            output.append("\n").append(e.exercise()).append(": ").append(e.score()).append('/').append(e.maxScore());
            e.problems().forEach(p -> output.append("\n  ").append(p));
            e.notes().forEach(n -> output.append("\n  note: ").append(n));
        }
        root.put("output", output.toString());
        List<Map<String, Object>> tests = new ArrayList<>();
        for (ExerciseResult e : exercises) {
            for (TestResult t : e.tests()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", t.exercise() + " › " + t.name());
                m.put("score", t.score());
                m.put("max_score", t.maxScore());
                m.put("status", t.passed() ? "passed" : "failed");
                m.put("output", t.message());
                m.put("visibility", "visible");
                tests.add(m);
            }
        }
        root.put("tests", tests);
        return root;
    }

    /**
     * Writes {@link #toJsonTree()} as JSON to {@code file}, creating its folder.
     *
     * @param file where to write, for example {@code results.json}
     * @throws IOException if the file cannot be written
     */
    public void writeJson(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), toJsonTree());
    }

    /** One row per test: exercise, test, points, max, result and message; named by {@link #summaryLine()}. */
    public Table toTable() {
        StringColumn exercise = StringColumn.create("Exercise");
        StringColumn test = StringColumn.create("Test");
        IntColumn points = IntColumn.create("Points");
        IntColumn max = IntColumn.create("Max");
        StringColumn result = StringColumn.create("Result");
        StringColumn message = StringColumn.create("Message");
        for (ExerciseResult e : exercises) {
            String problem = e.problems().isEmpty() ? null : String.join("\n", e.problems());
            for (TestResult t : e.tests()) {
                exercise.append(t.exercise());
                test.append(t.name());
                points.append(t.score());
                max.append(t.maxScore());
                result.append(t.passed() ? "PASS" : "FAIL");
                message.append(problem != null ? problem : t.message());
            }
        }
        return Table.create(summaryLine(), exercise, test, points, max, result, message);
    }
}
