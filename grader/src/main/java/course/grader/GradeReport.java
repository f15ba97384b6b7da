package course.grader;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import course.base.ReportTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The grade of one run of the grader, with its three renderings: the terminal report
 * ({@link #toText()}), Gradescope's {@code results.json} ({@link #writeJson(Path)}) and a table for the
 * notebooks ({@link #toTable()}).
 *
 * @param source    whose code was graded
 * @param profile   which tests were run
 * @param exercises the graded exercises, in order
 * @param elapsed   how long grading took
 */
public record GradeReport(
        Grader.Source source, Grader.Profile profile, List<ExerciseResult> exercises, Duration elapsed) {

    /** Creates a report; the list is copied. */
    public GradeReport {
        exercises = List.copyOf(exercises);
    }

    /** A report of the learner's profile. */
    public GradeReport(Grader.Source source, List<ExerciseResult> exercises, Duration elapsed) {
        this(source, Grader.Profile.LEARNER, exercises, elapsed);
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
        return score() == maxScore()
                && exercises.stream().allMatch(e -> e.problems().isEmpty());
    }

    /** The sentence that says which tests were used. */
    public String provenance() {
        String hidden = profile == Grader.Profile.TRAINER ? " and the trainer's hidden tests" : "";
        return switch (source) {
            case SOLUTIONS -> "Graded the reference solutions (solutions/) with the course's own tests" + hidden + ".";
            case SUBMISSION ->
                "Graded the submission with the course's own tests" + hidden
                        + ", as the course ships them (each file checked against the course's SHA-256 manifest).";
            case EXERCISES ->
                "Graded your code in exercises/ with the course's own tests" + hidden
                        + ", each file checked against the course's SHA-256 manifest: an edited test file is never run,"
                        + " and any is named below.";
        };
    }

    /** One line: the total, for example {@code "01-thread-cost: 7/11 points"}. */
    public String summaryLine() {
        String what = exercises.size() == 1 ? exercises.getFirst().exercise() : "Total";
        return "%s: %d/%d points (%d of %d tests passed)"
                .formatted(
                        what,
                        score(),
                        maxScore(),
                        exercises.stream()
                                .flatMap(e -> e.tests().stream())
                                .filter(TestResult::passed)
                                .count(),
                        exercises.stream().mapToLong(e -> e.tests().size()).sum());
    }

    /** The report for a terminal: per exercise, each test with its points and why it failed; then the total. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append(provenance()).append("\n\n");
        for (ExerciseResult e : exercises) {
            String head = e.exercise();
            sb.append(head)
                    .append(" ".repeat(Math.max(1, 64 - head.length())))
                    .append("%3d/%d".formatted(e.score(), e.maxScore()))
                    .append('\n');
            for (String p : e.problems()) {
                sb.append("  !! ").append(p).append('\n');
            }
            for (String n : e.notes()) {
                sb.append("  note: ").append(n).append('\n');
            }
            for (TestResult t : e.tests()) {
                sb.append("  ")
                        .append(t.passed() ? "PASS" : "FAIL")
                        .append("  %2d/%-2d ".formatted(t.score(), t.maxScore()))
                        .append(t.name())
                        .append(t.hidden() ? "  [" + t.visibility() + "]" : "")
                        .append('\n');
                if (!t.passed() && e.problems().isEmpty() && !t.message().isEmpty()) {
                    t.message()
                            .lines()
                            .forEach(l -> sb.append("               ").append(l).append('\n'));
                }
            }
            sb.append('\n');
        }
        sb.append(summaryLine())
                .append(String.format(Locale.ROOT, "  [%.1f s]", elapsed.toMillis() / 1000.0))
                .append('\n');
        return sb.toString();
    }

    /**
     * Gradescope's {@code results.json}: top-level {@code score}, {@code max_score}, {@code execution_time}
     * (whole seconds), {@code output} (Markdown, {@code output_format: md}) and {@code tests[]}, each test with
     * {@code name}, {@code number}, {@code score}, {@code max_score}, {@code status} ({@code passed} or
     * {@code failed}), {@code output} and {@code visibility}. The top-level output, which a learner always
     * sees, counts the visible tests only.
     */
    public Map<String, Object> toJsonTree() {
        return toJsonTree(false);
    }

    /**
     * As {@link #toJsonTree()}, with a {@code leaderboard} of one entry (the points, highest first) when
     * {@code leaderboard} is true.
     */
    public Map<String, Object> toJsonTree(boolean leaderboard) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("score", score());
        root.put("max_score", maxScore());
        root.put("execution_time", Math.max(1, Math.round(elapsed.toMillis() / 1000.0)));
        root.put("output", markdown());
        root.put("output_format", "md");
        root.put("test_output_format", "text");
        List<Map<String, Object>> tests = new ArrayList<>();
        for (int i = 0; i < exercises.size(); i++) {
            ExerciseResult e = exercises.get(i);
            String prefix = exerciseNumber(e.exercise(), i + 1);
            for (int j = 0; j < e.tests().size(); j++) {
                TestResult t = e.tests().get(j);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", t.exercise() + " › " + t.name());
                m.put("number", prefix + "." + (j + 1));
                m.put("score", t.score());
                m.put("max_score", t.maxScore());
                m.put("status", t.passed() ? "passed" : "failed");
                m.put("output", t.message());
                m.put("visibility", t.visibility());
                tests.add(m);
            }
        }
        root.put("tests", tests);
        if (leaderboard) {
            root.put("leaderboard", List.of(Map.of("name", "Points", "value", score(), "order", "desc")));
        }
        return root;
    }

    /**
     * Exercism's test-runner {@code results.json}, version 3: {@code version}, {@code status} ({@code pass},
     * {@code fail}, or {@code error} when no exercise could be tested, with {@code message}) and {@code tests[]},
     * each with {@code name}, {@code test_code}, {@code status}, {@code message}, {@code output} and
     * {@code task_id}: the exercise's number, which is the number of the notebook whose "Your turn" section
     * sets it.
     */
    public Map<String, Object> toExercismTree() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("version", 3);
        boolean noneRan = !exercises.isEmpty()
                && exercises.stream().allMatch(e -> !e.problems().isEmpty());
        root.put("status", noneRan ? "error" : full() ? "pass" : "fail");
        if (noneRan) {
            root.put(
                    "message",
                    String.join(
                            "\n",
                            exercises.stream()
                                    .flatMap(e -> e.problems().stream())
                                    .toList()));
        }
        List<Map<String, Object>> tests = new ArrayList<>();
        for (int i = 0; i < exercises.size(); i++) {
            ExerciseResult e = exercises.get(i);
            int task = Integer.parseInt(exerciseNumber(e.exercise(), i + 1));
            for (TestResult t : e.tests()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", t.exercise() + " › " + t.name());
                m.put("test_code", t.code());
                m.put("status", t.passed() ? "pass" : e.problems().isEmpty() ? "fail" : "error");
                m.put("message", t.passed() ? null : t.message());
                m.put("output", null);
                m.put("task_id", task);
                tests.add(m);
            }
        }
        root.put("tests", tests);
        return root;
    }

    /** {@code 01-thread-cost} is exercise 1; a name without a number gets its position. */
    private static String exerciseNumber(String exercise, int position) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+)-").matcher(exercise);
        return m.find() ? Integer.toString(Integer.parseInt(m.group(1))) : Integer.toString(position);
    }

    /** The top-level output for Gradescope, in Markdown: visible points per exercise, problems and notes. */
    String markdown() {
        StringBuilder md = new StringBuilder();
        long hidden = exercises.stream()
                .flatMap(e -> e.tests().stream())
                .filter(TestResult::hidden)
                .count();
        int visibleScore = 0;
        int visibleMax = 0;
        StringBuilder rows = new StringBuilder();
        for (ExerciseResult e : exercises) {
            int s = e.tests().stream()
                    .filter(t -> !t.hidden())
                    .mapToInt(TestResult::score)
                    .sum();
            int m = e.tests().stream()
                    .filter(t -> !t.hidden())
                    .mapToInt(TestResult::maxScore)
                    .sum();
            visibleScore += s;
            visibleMax += m;
            rows.append("| ")
                    .append(e.exercise())
                    .append(" | ")
                    .append(s)
                    .append('/')
                    .append(m)
                    .append(" |\n");
        }
        md.append("**")
                .append(hidden > 0 ? "Visible tests: " : "Total: ")
                .append(visibleScore)
                .append('/')
                .append(visibleMax)
                .append(" points**");
        if (hidden > 0) {
            md.append(" (")
                    .append(hidden)
                    .append(hidden == 1 ? " hidden test is" : " hidden tests are")
                    .append(" graded too: you see them after the due date, or once the grades are published)");
        }
        md.append("\n\n")
                .append(provenance())
                .append("\n\n| exercise | points |\n|---|---|\n")
                .append(rows);
        for (ExerciseResult e : exercises) {
            if (e.problems().isEmpty() && e.notes().isEmpty()) {
                continue;
            }
            md.append("\n**").append(e.exercise()).append("**\n\n");
            e.problems().forEach(p -> md.append("- ").append(p).append('\n'));
            e.notes().forEach(n -> md.append("- note: ").append(n).append('\n'));
        }
        return md.toString();
    }

    /**
     * Writes {@link #toJsonTree()} as JSON to {@code file}, creating its folder.
     *
     * @param file where to write, for example {@code results.json}
     * @throws IOException if the file cannot be written
     */
    public void writeJson(Path file) throws IOException {
        writeJson(file, toJsonTree());
    }

    /** Writes {@code tree} as indented JSON to {@code file}, creating its folder. */
    static void writeJson(Path file, Object tree) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), tree);
    }

    /** One row per test: exercise, test, points, max, result and message; named by {@link #summaryLine()}. */
    public ReportTable toTable() {
        List<List<Object>> rows = new ArrayList<>();
        for (ExerciseResult e : exercises) {
            String problem = e.problems().isEmpty() ? null : String.join("\n", e.problems());
            for (TestResult t : e.tests()) {
                rows.add(Arrays.asList(
                        t.exercise(),
                        t.name(),
                        t.score(),
                        t.maxScore(),
                        t.passed() ? "PASS" : "FAIL",
                        problem != null ? problem : t.message()));
            }
        }
        return new ReportTable(summaryLine(), List.of("Exercise", "Test", "Points", "Max", "Result", "Message"), rows);
    }
}
