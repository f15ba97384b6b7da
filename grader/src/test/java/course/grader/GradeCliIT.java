package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: options, exit codes and the JSON file. */
class GradeCliIT {
    @TempDir
    Path work;

    @Test
    @NeedsAnswers
    void aSolutionScoresFullMarksWithRequireFull() throws Exception {
        // GoldenResultsIT grades every solution; one is enough to test the options here.
        Path json = work.resolve("r.json");
        assertEquals(
                0,
                GradeCli.run(
                        "05-throttling", "--solutions", "--require-full", "--json", json.toString(), "--leaderboard"),
                "exit code");
        JsonNode r = new ObjectMapper().readTree(json.toFile());
        JsonNode golden = GoldenResultsIT.JSON.readTree(
                GoldenResultsIT.golden("05-throttling", "solution").toFile());
        int max = golden.get("max_score").asInt();
        assertEquals(max, r.get("max_score").asInt(), "max_score");
        assertEquals(max, r.get("score").asInt(), "score");
        assertEquals(golden.get("tests").size(), r.get("tests").size(), "tests");
        JsonNode board = r.get("leaderboard");
        assertEquals(1, board.size(), "leaderboard entries");
        assertEquals("Points", board.get(0).get("name").asText());
        assertEquals(max, board.get(0).get("value").asInt());
        assertEquals("desc", board.get(0).get("order").asText());
    }

    @Test
    void requireFullFailsBelowFullMarksButPlainGradingDoesNot() throws Exception {
        // The course's exercises/ holds the stubs in this repository: 03 scores 0 of its golden maximum.
        String stub = Courses.root()
                .resolve("exercises/03-batch-math/src/main/java/course/exercises/batchmath/BatchMath.java")
                .toString();
        assertTrue(new java.io.File(stub).isFile(), stub);
        java.time.Instant before = java.time.Instant.now().minusSeconds(1);
        assertEquals(0, GradeCli.run("03-batch-math"), "exit code without --require-full");
        JsonNode last = new ObjectMapper()
                .readTree(LastGrades.file(Courses.root(), "03-batch-math").toFile());
        assertEquals(0, last.get("score").asInt(), "the last grade, kept for ./course progress: " + last);
        assertEquals(golden03().get("max_score").asInt(), last.get("max").asInt(), last.toString());
        assertTrue(!java.time.Instant.parse(last.get("when").asText()).isBefore(before), last.toString());
        assertEquals(1, GradeCli.run("03-batch-math", "--require-full"), "exit code with --require-full");
    }

    @Test
    void exercismsFormatHasTaskIdsAndTheTestCode() throws Exception {
        Path json = work.resolve("exercism.json");
        assertEquals(0, GradeCli.run("03-batch-math", "--json", json.toString(), "--format", "exercism"), "exit code");
        JsonNode r = new ObjectMapper().readTree(json.toFile());
        assertEquals(3, r.get("version").asInt(), "version");
        assertEquals("fail", r.get("status").asText(), "the stubs fail");
        assertEquals(golden03().get("tests").size(), r.get("tests").size(), "tests");
        for (JsonNode t : r.get("tests")) {
            assertEquals(
                    java.util.Set.of("name", "test_code", "status", "message", "output", "task_id"),
                    java.util.Set.copyOf(iterate(t.fieldNames())),
                    "fields of " + t);
            assertEquals(3, t.get("task_id").asInt(), "task_id: notebook 03");
            assertEquals("fail", t.get("status").asText());
            assertTrue(t.get("test_code").asText().contains("BatchMath."), "test_code: " + t.get("test_code"));
            assertTrue(
                    t.get("message").asText().contains("not written yet"),
                    t.get("message").asText());
        }
        assertTrue(r.get("tests").get(0).get("name").asText().startsWith("03-batch-math › "));
        assertEquals(2, GradeCli.run("03-batch-math", "--format", "junit"), "an unknown format");
    }

    private static java.util.List<String> iterate(java.util.Iterator<String> it) {
        java.util.List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    @Test
    void anUnknownExerciseIsAUsageError() {
        assertEquals(2, GradeCli.run("99-nothing"), "exit code");
    }

    @Test
    void anUnknownProfileAndTwoSourcesAreUsageErrors() {
        assertEquals(2, GradeCli.run("--profile", "teacher"), "exit code for --profile teacher");
        assertEquals(2, GradeCli.run("--solutions", "--class", work.toString()), "exit code for two sources");
        assertEquals(2, GradeCli.run("--class", work.toString(), "--jobs", "0"), "exit code for --jobs 0");
    }

    /** What the stubs of exercise 03 score, as GoldenResultsIT pins it. */
    private static JsonNode golden03() throws java.io.IOException {
        return new ObjectMapper()
                .readTree(GoldenResultsIT.golden("03-batch-math", "stubs").toFile());
    }
}
