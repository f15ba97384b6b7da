package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import course.base.Exercises;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The grader's whole output, as golden files: for every exercise in {@code exercises/} (found by listing the
 * folder), the Gradescope {@code results.json} of its stubs, of its reference solution and of its first mutant
 * (by name) must equal {@code grader/src/test/resources/golden/NN-name/stubs.json} and, beside the answers they
 * come from, {@code solutions/NN-name/golden/{solution,mutant}.json}, with the fields
 * that change from run to run masked: the execution time, durations and identity hashes in messages, and a
 * mutant's failure messages. Exercism's java-test-runner tests itself the same way. A learners' template
 * ({@code ./course template}) keeps the stubs' files alone: there the solution's and the mutant's are skipped.
 *
 * <p>After a deliberate change to the tests, the stubs, the solutions, the mutants or the grader's messages,
 * regenerate them (a new exercise needs only this), then review the diff:
 * <pre>mvn -pl grader -am verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=GoldenResultsIT -Dgolden.update=true</pre>
 */
class GoldenResultsIT {
    static final boolean UPDATE = Boolean.getBoolean("golden.update");
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    static final ExecutorService POOL =
            Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));

    @TempDir
    static Path work;

    @AfterAll
    static void stop() {
        POOL.shutdownNow();
    }

    /** The exercises, as the course folder lists them (NN-name folders with sources). */
    static List<String> exercises() throws IOException {
        try (Stream<Path> s = Files.list(Courses.root().resolve("exercises"))) {
            return s.filter(p -> p.getFileName().toString().matches("\\d\\d-[a-z0-9-]+"))
                    .filter(p -> Files.isDirectory(p.resolve("src")))
                    .map(p -> p.getFileName().toString())
                    .sorted()
                    .toList();
        }
    }

    /**
     * The golden file's path in the source tree: the stubs' with the grader's test resources (a learners' copy
     * keeps it), the solution's and the mutant's in {@code solutions/NN-name/golden}, with the other answers.
     */
    static Path golden(String exercise, String kind) {
        return kind.equals("stubs")
                ? Courses.part(exercise, Exercises.Part.STUBS_GOLDEN)
                : Courses.part(exercise, Exercises.Part.GOLDEN).resolve(kind + ".json");
    }

    /**
     * results.json of one graded exercise, with what changes from run to run or from machine to machine
     * masked: the execution time, durations and identity hashes in messages, the input a failing property shrank
     * to, in its "for example:" line and in the call its message names (how far shrinking gets in its time
     * depends on the load), and a mutant's failure messages
     * (a wrong solution's failures name figures that depend on scheduling and on the number of cores, and a
     * racy one fails one assertion or two; which tests it fails, and the points, do not). The stubs' messages
     * are kept whole.
     */
    /** A call with at least one figure among its arguments, as a property's failure message names it. */
    private static final Pattern SHRUNK_CALL = Pattern.compile("\\b([a-z]\\w*)\\(([^()]*\\d[^()]*)\\)");

    @SuppressWarnings("unchecked")
    static String masked(Grader.Source source, ExerciseResult result, boolean mutant) throws IOException {
        Map<String, Object> tree = new GradeReport(source, List.of(result), Duration.ZERO).toJsonTree();
        tree.put("execution_time", "<masked>");
        for (Map<String, Object> test : (List<Map<String, Object>>) tree.get("tests")) {
            String output = (String) test.get("output");
            if (mutant) {
                test.put("output", output.isEmpty() ? "" : "<the failure's message>");
            } else if (output.contains("for example: ")) {
                // a property's message names the call it failed on: the input shrinking reached
                test.put("output", SHRUNK_CALL.matcher(output).replaceAll("$1(<the shrunk input>)"));
            }
        }
        String text = JSON.writeValueAsString(tree) + "\n";
        return text.replaceAll("\\b\\d+(\\.\\d+)?(\\s?)(ns|µs|us|ms|s|min)\\b", "<time>$2$3")
                .replaceAll("@[0-9a-f]{5,8}\\b", "@<hash>")
                // jqwik's shrinking is bounded in time (PropertyTests), so how far it got depends on the load
                .replaceAll("(for example: \\w+ = )[^\"\\\\]*", "$1<the shrunk input>");
    }

    @TestFactory
    List<DynamicTest> theGradersResultsEqualTheGoldenFiles() throws Exception {
        Grader grader = new Grader(Courses.root());
        List<String> exercises = exercises();
        assertTrue(exercises.size() >= 7, "exercises found: " + exercises);
        List<DynamicTest> tests = new ArrayList<>();
        for (String exercise : exercises) {
            if (!Courses.selected().contains(exercise)) {
                continue;
            }
            Path stub = Courses.root().resolve("exercises").resolve(exercise).resolve("src/main/java");
            tests.add(check(
                    exercise,
                    "stubs",
                    Grader.Source.EXERCISES,
                    POOL.submit(() -> grader.grade(exercise, stub, null)),
                    false));
            if (!Exercises.hasAnswers(Courses.root())) {
                // a learners' template: the solution and its mutant are not there, nor their golden files
                for (String kind : List.of("solution", "mutant")) {
                    tests.add(DynamicTest.dynamicTest(
                            exercise + "/" + kind, () -> Assumptions.abort(Exercises.NO_ANSWERS)));
                }
                continue;
            }
            tests.add(check(
                    exercise,
                    "solution",
                    Grader.Source.SOLUTIONS,
                    POOL.submit(() -> grader.grade(exercise, Courses.solution(exercise), null)),
                    false));
            Path diff = firstMutant(exercise);
            Path sources = work.resolve(exercise).resolve("mutant");
            Courses.copyTree(Courses.solution(exercise), sources);
            MutantsIT.applyMutant(diff, sources);
            tests.add(check(
                    exercise,
                    "mutant",
                    Grader.Source.SUBMISSION,
                    POOL.submit(() -> grader.grade(exercise, sources, null)),
                    true));
        }
        return tests;
    }

    static Path firstMutant(String exercise) throws Exception {
        try (Stream<Path> s = Files.list(MutantsIT.mutantsDir(exercise))) {
            return s.filter(p -> p.toString().endsWith(".diff"))
                    .sorted()
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(exercise + " has no mutant"));
        }
    }

    private static DynamicTest check(
            String exercise, String kind, Grader.Source source, Future<ExerciseResult> graded, boolean mutant) {
        return DynamicTest.dynamicTest(exercise + "/" + kind, () -> {
            ExerciseResult r = graded.get();
            assertTrue(r.problems().isEmpty() || kind.equals("stubs"), "graded: " + r.problems());
            switch (kind) {
                case "solution" -> assertEquals(r.maxScore(), r.score(), "the solution earns every point");
                case "mutant" -> assertTrue(r.score() < r.maxScore(), "the mutant scored full marks");
                default -> assertTrue(r.score() < r.maxScore(), "the stub scored full marks");
            }
            String actual = masked(source, r, mutant);
            Path file = golden(exercise, kind);
            if (UPDATE) {
                Files.createDirectories(file.getParent());
                Files.writeString(file, actual, StandardCharsets.UTF_8);
                return;
            }
            assertTrue(Files.isRegularFile(file), file + " is missing: generate it (see this class's comment)");
            assertEquals(
                    Files.readString(file, StandardCharsets.UTF_8),
                    actual,
                    "results.json of " + exercise + "/" + kind + " differs from " + file);
        });
    }
}
