package course.grader;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import course.base.ReportTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The untouched stubs score 0 with a helpful message per test; a learner's edited test file changes
 * nothing; the JSON is Gradescope's shape.
 */
class StubsAndTamperingIT {
    @TempDir
    static Path work;

    static GradeReport stubs;

    @BeforeAll
    static void gradeTheStubs() throws Exception {
        stubs = new Grader(Courses.stubCourse(work.resolve("stubs"))).grade(List.of(), Grader.Source.EXERCISES);
    }

    /** The course's exercise folders, and the points their test sources declare, read from the files themselves. */
    static final List<Path> EXERCISES;

    static final int POINTS, TESTS;

    static {
        try (var dirs = java.nio.file.Files.list(Courses.root().resolve("exercises"))) {
            EXERCISES = dirs.filter(d -> d.getFileName().toString().matches("\\d\\d-.+"))
                    .sorted()
                    .toList();
            int points = 0, tests = 0;
            var tag = java.util.regex.Pattern.compile("@(?:net\\.jqwik\\.api\\.)?Tag\\(\"points:(\\d+)\"\\)");
            for (Path e : EXERCISES) {
                try (var files = java.nio.file.Files.walk(e.resolve("src/test/java"))) {
                    for (Path f :
                            files.filter(x -> x.toString().endsWith(".java")).toList()) {
                        String src = java.nio.file.Files.readString(f);
                        var m = tag.matcher(src);
                        while (m.find()) points += Integer.parseInt(m.group(1));
                        tests += src.split("@(?:Test|Property|Example)\\b", -1).length
                                - 1; // Jupiter's tests, jqwik's properties
                    }
                }
            }
            POINTS = points;
            TESTS = tests;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theStubsScoreZeroOutOfTheFullMaximum() {
        assertEquals(0, stubs.score(), "score of the stubs");
        assertEquals(POINTS, stubs.maxScore(), "max score: the points the exercises' tests declare");
        assertEquals(EXERCISES.size(), stubs.exercises().size(), "exercises graded: one per folder " + EXERCISES);
        stubs.exercises().forEach(e -> assertTrue(e.problems().isEmpty(), "the stubs compile: " + e.problems()));
    }

    @Test
    void everyStubFailureSaysWhatIsMissingWithoutAStackTrace() {
        List<org.junit.jupiter.api.function.Executable> checks = new java.util.ArrayList<>();
        for (ExerciseResult e : stubs.exercises()) {
            for (TestResult t : e.tests()) {
                checks.add(() -> assertAll(
                        e.exercise() + " › " + t.name(),
                        () -> assertTrue(t.message().contains("is not written yet"), t.message()),
                        () -> assertTrue(
                                t.message().length() < 1000,
                                "message too long: " + t.message().length()),
                        () -> assertFalse(t.message().contains("\tat "), "stack frames in: " + t.message()),
                        () -> assertFalse(t.message().contains("at java.base/"), "stack frames in: " + t.message())));
            }
        }
        assertAll("every test of every stub", checks);
    }

    @Test
    void anEditedTestFileDoesNotChangeTheGrade() throws Exception {
        Path course = Courses.stubCourse(work.resolve("tampered"));
        // The learner "fixes" the tests: every test body is replaced by nothing, so every test would pass.
        Path test = Courses.find(course.resolve("exercises/01-thread-cost"), "ThreadCostTest.java");
        String edited = Files.readString(test)
                .replaceAll("(?s)void (\\w+)\\(\\) throws InterruptedException \\{.*?\\n    }", "void $1() { }");
        assertTrue(!edited.equals(Files.readString(test)), "the edit must change the file");
        Files.writeString(test, edited);
        Files.writeString(test.resolveSibling("ExtraTest.java"), """
                package course.exercises.threadcost;
                class ExtraTest { @org.junit.jupiter.api.Test void free() { } }
                """);

        GradeReport report = new Grader(course).grade(List.of("01-thread-cost"), Grader.Source.EXERCISES);
        ExerciseResult r = report.exercises().getFirst();
        ExerciseResult untouched = stubs.exercises().getFirst();
        assertAll(
                () -> assertEquals(0, r.score(), "score with an edited test file"),
                () -> assertEquals(untouched.maxScore(), r.maxScore(), "max score with an edited test file"),
                () -> assertEquals(
                        untouched.tests().stream().map(TestResult::name).toList(),
                        r.tests().stream().map(TestResult::name).toList(),
                        "the tests that ran"),
                () -> assertEquals(
                        List.of(
                                "exercises/01-thread-cost/src/test/java/course/exercises/threadcost/ThreadCostTest.java differs"
                                        + " from the course's copy: graded with the course's own copy (`git checkout --"
                                        + " exercises/01-thread-cost/src/test/java/course/exercises/threadcost/ThreadCostTest.java`"
                                        + " restores yours)",
                                "exercises/01-thread-cost/src/test/java/course/exercises/threadcost/ExtraTest.java is not one"
                                        + " of the course's tests: not run"),
                        r.notes(),
                        "one line per edited or extra file"),
                () -> assertTrue(report.toText().contains("an edited test file is never run"), report.toText()));
    }

    @Test
    void aClassInTheLearnersCodeNamedLikeACourseTestDoesNotReplaceIt() throws Exception {
        Path course = Courses.stubCourse(work.resolve("shadow"));
        // The learner copies the test class into src/main/java and empties it: the course's own class must run.
        Path main = course.resolve("exercises/05-throttling/src/main/java/course/exercises/throttling");
        Files.writeString(main.resolve("ThrottleTest.java"), """
                package course.exercises.throttling;
                class ThrottleTest { }
                """);
        ExerciseResult r = new Grader(course)
                .grade(List.of("05-throttling"), Grader.Source.EXERCISES)
                .exercises()
                .getFirst();
        ExerciseResult untouched = stubs.exercises().get(4);
        assertAll(
                () -> assertEquals(0, r.score(), "score"),
                () -> assertEquals(
                        untouched.tests().stream().map(TestResult::name).toList(),
                        r.tests().stream().map(TestResult::name).toList(),
                        "the course's tests ran"));
    }

    @Test
    void theJsonIsGradescopesShape() throws Exception {
        Path file = work.resolve("out/results.json");
        stubs.writeJson(file);
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertEquals(0, json.get("score").asInt(), "score");
        assertEquals(POINTS, json.get("max_score").asInt(), "max_score");
        assertTrue(json.get("output").asText().contains("course's own tests"), "output names the tests used");
        assertEquals("md", json.get("output_format").asText(), "output_format");
        assertFalse(json.has("leaderboard"), "no leaderboard unless asked for");
        assertTrue(json.has("execution_time"), "execution_time");
        assertEquals(TESTS, json.get("tests").size(), "tests");
        for (JsonNode t : json.get("tests")) {
            assertEquals(
                    Set.of("name", "number", "score", "max_score", "status", "output", "visibility"),
                    Set.copyOf(iterate(t.fieldNames())),
                    "fields of " + t);
            assertTrue(t.get("number").asText().matches("[1-9]\\d*\\.\\d+"), "number of " + t);
            assertEquals("visible", t.get("visibility").asText(), "the learner's profile runs no hidden test");
            assertEquals("failed", t.get("status").asText());
            assertTrue(t.get("max_score").asInt() >= 1, "max_score of " + t.get("name"));
            assertFalse(t.get("output").asText().isBlank(), "output of " + t.get("name"));
        }
    }

    @Test
    void theNotebookTableHasOneRowPerTest() {
        ReportTable table = stubs.toTable();
        assertEquals(TESTS, table.rowCount(), "rows");
        assertEquals(List.of("Exercise", "Test", "Points", "Max", "Result", "Message"), table.columns());
        assertEquals(
                POINTS, table.column("Max").stream().mapToInt(v -> (Integer) v).sum(), "sum of Max");
        assertTrue(table.html().contains("<th>Exercise</th>"), "the notebook's HTML has the header");
        assertTrue(table.name().startsWith("Total: 0/" + POINTS + " points"), table.name());
    }

    private static List<String> iterate(java.util.Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
