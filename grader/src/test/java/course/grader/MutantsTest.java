package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * Every plausible wrong solution committed under {@code mutants/NN-name/MUTANT/} scores below full marks,
 * while the reference solution it was made from scores full marks.
 */
class MutantsTest {
    @TempDir
    static Path work;

    private static Path mutantsDir() throws URISyntaxException {
        return Path.of(MutantsTest.class.getResource("/mutants").toURI());
    }

    /** Mutant name → its folder, per exercise. */
    private static Map<String, List<Path>> mutants() throws IOException, URISyntaxException {
        Map<String, List<Path>> all = new TreeMap<>();
        try (Stream<Path> exercises = Files.list(mutantsDir())) {
            for (Path ex : exercises.sorted().toList()) {
                try (Stream<Path> ms = Files.list(ex)) {
                    all.put(ex.getFileName().toString(), ms.sorted().toList());
                }
            }
        }
        return all;
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
        // Two mutants are graded at a time (the machine has two cores); each test waits for its own grade.
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<DynamicTest> tests = new ArrayList<>();
        for (Map.Entry<String, List<Path>> e : mutants().entrySet()) {
            String exercise = e.getKey();
            for (Path mutant : e.getValue()) {
                Path sources = work.resolve(exercise).resolve(mutant.getFileName().toString());
                Courses.copyTree(Courses.solution(exercise), sources);
                try (Stream<Path> files = Files.list(mutant)) {
                    for (Path f : files.toList()) {
                        Files.copy(f, Courses.find(sources, f.getFileName().toString()),
                                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    }
                }
                Future<ExerciseResult> graded = pool.submit(() -> grader.grade(exercise, sources, null));
                tests.add(DynamicTest.dynamicTest(exercise + "/" + mutant.getFileName(), () -> {
                    ExerciseResult r = graded.get();
                    assertTrue(r.problems().isEmpty(), "the mutant should compile and run: " + r.problems());
                    assertTrue(r.maxScore() > 0, "no tests were graded");
                    String caughtBy = r.tests().stream().filter(t -> !t.passed())
                            .map(t -> t.name() + " [" + t.message().lines().findFirst().orElse("") + "]")
                            .collect(Collectors.joining("\n  "));
                    System.out.printf("%s/%s: %d/%d%n  %s%n", exercise, mutant.getFileName(), r.score(),
                            r.maxScore(), caughtBy);
                    assertTrue(r.score() < r.maxScore(), "the mutant scored full marks: " + r.score() + "/"
                            + r.maxScore());
                    assertFalse(caughtBy.isEmpty(), "some test must fail");
                }));
            }
        }
        pool.shutdown();
        return tests;
    }
}
