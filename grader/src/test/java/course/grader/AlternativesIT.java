package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.Exercises;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tests are fair: a correct solution shaped unlike the reference one earns every point, the trainer's hidden
 * tests included. Each alternative is a folder {@code solutions/NN-name/alternatives/SHAPE/} of {@code .java} files that
 * replace the reference solution's files of the same names (for 06, the callers share a {@code FutureTask}; for
 * 08, a latch and {@code Thread.join} instead of a future).
 */
@NeedsAnswers
class AlternativesIT {
    @TempDir
    static Path work;

    /** An exercise's alternatives: {@code solutions/NN-name/alternatives}, beside its reference solution. */
    static Path alternativesDir(String exercise) {
        return Courses.part(exercise, Exercises.Part.ALTERNATIVES);
    }

    /** The exercise of an alternative {@code solutions/NN-name/alternatives/SHAPE}. */
    private static String exerciseOf(Path shape) {
        return shape.getParent().getParent().getFileName().toString();
    }

    @TestFactory
    List<DynamicTest> everyCorrectAlternativeEarnsEveryPoint() throws Exception {
        Grader grader = new Grader(Courses.root(), Grader.Profile.TRAINER);
        ExecutorService pool =
                Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));
        List<DynamicTest> tests = new ArrayList<>();
        List<Path> shapes = new ArrayList<>();
        for (String exercise : Courses.selected()) {
            if (Files.isDirectory(alternativesDir(exercise))) {
                try (Stream<Path> t = Files.list(alternativesDir(exercise))) {
                    shapes.addAll(t.sorted().toList());
                }
            }
        }
        List<String> covered =
                shapes.stream().map(AlternativesIT::exerciseOf).distinct().toList();
        assertEquals(Courses.selected(), covered, "the exercises with a correct alternative");
        for (Path shape : shapes) {
            String exercise = exerciseOf(shape);
            String name = exercise + "/" + shape.getFileName();
            Path sources = work.resolve(exercise).resolve(shape.getFileName().toString());
            Courses.copyTree(Courses.solution(exercise), sources);
            try (Stream<Path> files = Files.list(shape)) {
                for (Path file :
                        files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    Files.copy(
                            file,
                            Courses.find(sources, file.getFileName().toString()),
                            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Future<ExerciseResult> graded = pool.submit(() -> grader.grade(exercise, sources, null));
            tests.add(DynamicTest.dynamicTest(name, () -> {
                ExerciseResult r = graded.get();
                assertTrue(r.problems().isEmpty(), name + " should compile and run: " + r.problems());
                String failed = r.tests().stream()
                        .filter(t -> !t.passed())
                        .map(t -> t.method() + " ["
                                + t.message().lines().findFirst().orElse("") + "]")
                        .collect(Collectors.joining("\n  "));
                assertEquals(r.maxScore(), r.score(), name + " keeps every sentence but lost points:\n  " + failed);
            }));
        }
        pool.shutdown();
        return tests;
    }
}
