package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.difflib.patch.PatchFailedException;
import com.github.difflib.unifieddiff.UnifiedDiff;
import com.github.difflib.unifieddiff.UnifiedDiffFile;
import com.github.difflib.unifieddiff.UnifiedDiffReader;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every plausible wrong solution scores below full marks. A mutant is committed as a unified diff against
 * the reference solution ({@code mutants/NN-name/MUTANT.diff}), so that the one mistake it makes reads at a
 * glance; the test applies it to a copy of the solution and grades that copy.
 */
class MutantsIT {
    @TempDir
    static Path work;

    static Path mutantsDir() throws URISyntaxException {
        return Path.of(MutantsIT.class.getResource("/mutants").toURI());
    }

    /** The mutants' diffs, per exercise. */
    private static Map<String, List<Path>> mutants() throws IOException, URISyntaxException {
        Map<String, List<Path>> all = new TreeMap<>();
        try (Stream<Path> exercises = Files.list(mutantsDir())) {
            for (Path ex : exercises.sorted().toList()) {
                try (Stream<Path> ms = Files.list(ex)) {
                    all.put(
                            ex.getFileName().toString(),
                            ms.filter(m -> m.toString().endsWith(".diff"))
                                    .sorted()
                                    .toList());
                }
            }
        }
        return all;
    }

    private static String mutantName(Path diff) {
        String f = diff.getFileName().toString();
        return f.substring(0, f.length() - ".diff".length());
    }

    /** Applies a mutant's unified diff to the solution's sources in {@code sources}. */
    static void applyMutant(Path diff, Path sources) throws IOException, PatchFailedException {
        UnifiedDiff unified;
        try (var in = Files.newInputStream(diff)) {
            unified = UnifiedDiffReader.parseUnifiedDiff(in);
        }
        assertFalse(unified.getFiles().isEmpty(), diff + " changes no file");
        for (UnifiedDiffFile file : unified.getFiles()) {
            Path target = Courses.find(
                    sources, Path.of(file.getToFile()).getFileName().toString());
            List<String> original = Files.readAllLines(target);
            List<String> patched = file.getPatch().applyTo(original);
            assertNotEquals(original, patched, diff + " leaves " + target.getFileName() + " as it is");
            Files.write(target, patched);
        }
    }

    @Test
    void everyExerciseHasAtLeastThreeMutants() throws Exception {
        Map<String, List<Path>> all = mutants();
        assertEquals(Grader.exercises(), List.copyOf(all.keySet()), "exercises with mutants");
        all.forEach((ex, ms) -> assertTrue(ms.size() >= 3, ex + " has only " + ms.size() + " mutants"));
    }

    @TestFactory
    List<DynamicTest> everyMutantScoresBelowFullMarks() throws Exception {
        Grader grader = new Grader(Courses.root());
        // One mutant graded per core at a time (each grade forks a test JVM); each test waits for its own grade.
        ExecutorService pool =
                Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));
        List<DynamicTest> tests = new ArrayList<>();
        for (Map.Entry<String, List<Path>> e : mutants().entrySet()) {
            String exercise = e.getKey();
            // The first mutant of each exercise is graded by GoldenResultsIT, which checks its whole results.json.
            for (Path mutant : e.getValue().subList(1, e.getValue().size())) {
                String name = mutantName(mutant);
                Path sources = work.resolve(exercise).resolve(name);
                Courses.copyTree(Courses.solution(exercise), sources);
                applyMutant(mutant, sources);
                Future<ExerciseResult> graded = pool.submit(() -> grader.grade(exercise, sources, null));
                tests.add(DynamicTest.dynamicTest(exercise + "/" + name, () -> {
                    ExerciseResult r = graded.get();
                    assertTrue(r.problems().isEmpty(), "the mutant should compile and run: " + r.problems());
                    assertTrue(r.maxScore() > 0, "no tests were graded");
                    String caughtBy = r.tests().stream()
                            .filter(t -> !t.passed())
                            .map(t -> t.name() + " ["
                                    + t.message().lines().findFirst().orElse("") + "]")
                            .collect(Collectors.joining("\n  "));
                    System.out.printf("%s/%s: %d/%d%n  %s%n", exercise, name, r.score(), r.maxScore(), caughtBy);
                    assertTrue(
                            r.score() < r.maxScore(),
                            "the mutant scored full marks: " + r.score() + "/" + r.maxScore());
                    assertFalse(caughtBy.isEmpty(), "some test must fail");
                }));
            }
        }
        pool.shutdown();
        return tests;
    }
}
