package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The grader remembers each exercise's last grade for ./course progress. */
class LastGradesTest {
    @TempDir
    Path root;

    private static ExerciseResult result(String exercise, int passed, int failed, List<String> problems) {
        var tests = new java.util.ArrayList<TestResult>();
        for (int i = 0; i < passed; i++) tests.add(new TestResult(exercise, "ok" + i, 2, 2, true, ""));
        for (int i = 0; i < failed; i++) tests.add(new TestResult(exercise, "no" + i, 0, 3, false, "expected"));
        return new ExerciseResult(exercise, tests, problems, List.of());
    }

    @Test
    void eachGradingOfTheExercisesWritesTheLastGradeOfEach() throws Exception {
        var first = new GradeReport(
                Grader.Source.EXERCISES,
                List.of(result("02-cafe", 1, 2, List.of()), result("03-batch-math", 0, 0, List.of("does not compile"))),
                Duration.ofSeconds(3));
        Instant before = Instant.now().minusSeconds(1);
        LastGrades.remember(root, first);
        JsonNode cafe =
                new ObjectMapper().readTree(LastGrades.file(root, "02-cafe").toFile());
        assertEquals("02-cafe", cafe.get("exercise").asText());
        assertEquals(2, cafe.get("score").asInt());
        assertEquals(8, cafe.get("max").asInt());
        assertEquals("learner", cafe.get("profile").asText());
        assertEquals(0, cafe.get("problems").asInt());
        assertFalse(Instant.parse(cafe.get("when").asText()).isBefore(before), cafe.toString());
        assertEquals(
                1,
                new ObjectMapper()
                        .readTree(LastGrades.file(root, "03-batch-math").toFile())
                        .get("problems")
                        .asInt());

        LastGrades.remember(
                root,
                new GradeReport(Grader.Source.EXERCISES, List.of(result("02-cafe", 4, 0, List.of())), Duration.ZERO));
        JsonNode again =
                new ObjectMapper().readTree(LastGrades.file(root, "02-cafe").toFile());
        assertEquals(8, again.get("score").asInt(), "the last grade replaces the one before");
        try (var files = Files.list(root.resolve(LastGrades.FOLDER))) {
            assertEquals(
                    List.of("02-cafe.json", "03-batch-math.json"),
                    files.map(p -> p.getFileName().toString()).sorted().toList(),
                    "no temporary file left behind");
        }
    }

    @Test
    void theSolutionsAndSubmissionsAreNotTheLearnersGrade() {
        for (var source : List.of(Grader.Source.SOLUTIONS, Grader.Source.SUBMISSION)) {
            LastGrades.remember(
                    root, new GradeReport(source, List.of(result("02-cafe", 1, 0, List.of())), Duration.ZERO));
        }
        assertFalse(Files.exists(root.resolve(LastGrades.FOLDER)));
    }

    @Test
    void anUnwritableFolderNeverFailsTheGrading() throws Exception {
        Files.writeString(root.resolve("target"), "a file where the folder would be");
        var report =
                new GradeReport(Grader.Source.EXERCISES, List.of(result("02-cafe", 1, 0, List.of())), Duration.ZERO);
        var err = new java.io.ByteArrayOutputStream();
        var original = System.err;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            LastGrades.remember(root, report);
        } finally {
            System.setErr(original);
        }
        assertTrue(
                err.toString(java.nio.charset.StandardCharsets.UTF_8)
                        .startsWith("note: could not keep the grade of 02-cafe"),
                err.toString());
    }
}
