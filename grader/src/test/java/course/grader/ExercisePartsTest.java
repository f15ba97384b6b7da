package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.Exercises;
import course.base.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every exercise has every part that {@link Exercises.Part} lists (CONTRIBUTING.md: adding an exercise), and an
 * exercise that any part's folder names is one of the course's: a half-added or half-removed exercise is named
 * with what it lacks.
 */
class ExercisePartsTest {
    /** Every exercise named anywhere, with the parts it lacks; empty when the course is whole. */
    static Map<String, List<String>> missingParts(Path root) {
        Map<String, List<String>> missing = new LinkedHashMap<>();
        for (String e : Exercises.namesInAnyPart(root)) {
            List<String> lacks = Exercises.missing(root, e);
            if (!lacks.isEmpty()) {
                missing.put(e, lacks);
            }
        }
        return missing;
    }

    @Test
    void everyExerciseHasEveryPart() {
        Path root = Courses.root();
        assertEquals(Map.of(), missingParts(root), "exercises with a part missing (see CONTRIBUTING.md)");
        assertEquals(Grader.exercises(), Exercises.names(root), "the grader's manifest lists every exercise");
    }

    @Test
    void aMissingPartIsNamed(@TempDir Path dir) throws IOException {
        Path root = Courses.root();
        Path copy = dir.resolve("course");
        for (String part : List.of("exercises", "solutions", "trainer", "grader/src/test/resources/golden")) {
            if (Files.isDirectory(root.resolve(part))) {
                FileTrees.copy(root.resolve(part), copy.resolve(part));
            }
        }
        Files.createDirectories(copy.resolve("notebooks"));
        try (var notebooks = Files.list(root.resolve("notebooks"))) {
            for (Path nb :
                    notebooks.filter(p -> p.toString().endsWith(".ipynb")).toList()) {
                Files.copy(nb, copy.resolve("notebooks").resolve(nb.getFileName()));
            }
        }
        assertEquals(Map.of(), missingParts(copy), "the copy is whole");

        Files.delete(copy.resolve("notebooks/08-http-service.ipynb"));
        Files.writeString(
                copy.resolve("exercises/pom.xml"),
                Files.readString(copy.resolve("exercises/pom.xml")).replace("<module>07-structured</module>", ""));
        boolean answers = Exercises.hasAnswers(copy);
        if (answers) {
            FileTrees.delete(copy.resolve("solutions/05-throttling/mutants"));
            FileTrees.delete(copy.resolve("solutions/02-cafe/src"));
        }
        if (Exercises.hasTrainer(copy)) {
            FileTrees.delete(copy.resolve("trainer/01-thread-cost"));
        }
        Map<String, List<String>> missing = missingParts(copy);
        assertEquals(
                List.of("the Maven module: exercises/07-structured/pom.xml, listed as <module>07-structured</module>"
                        + " in exercises/pom.xml"),
                missing.get("07-structured"));
        assertEquals(
                List.of("the notebook: no notebook in notebooks/ calls Grade.exercise(\"08-deadline\")"),
                missing.get("08-deadline"));
        if (answers) {
            assertEquals(List.of("the reference solution: solutions/02-cafe/src/main/java"), missing.get("02-cafe"));
            assertEquals(List.of("the mutants: solutions/05-throttling/mutants"), missing.get("05-throttling"));
        }
        if (Exercises.hasTrainer(root)) {
            assertEquals(
                    List.of("the trainer's hidden tests: trainer/01-thread-cost/src/test/java"),
                    missing.get("01-thread-cost"));
        }

        // A learners' template has no trainer/ and no solutions/, which hold every answer: no part it lacks.
        for (String folder : List.of(Exercises.TRAINER, Exercises.SOLUTIONS)) {
            if (Files.exists(copy.resolve(folder))) {
                FileTrees.delete(copy.resolve(folder));
            }
        }
        assertTrue(
                missingParts(copy).values().stream()
                        .flatMap(List::stream)
                        .noneMatch(m -> Arrays.stream(Exercises.Part.values())
                                .filter(Exercises.Part::optional)
                                .anyMatch(part -> m.startsWith(part.label() + ":"))),
                missingParts(copy).toString());
        assertEquals(
                Set.of("07-structured", "08-deadline"), missingParts(copy).keySet(), "the two parts removed above");

        // An exercise that only one folder names is named, with everything else it lacks.
        Files.createDirectories(copy.resolve("solutions/09-half-added/src/main/java"));
        Files.writeString(copy.resolve("solutions/09-half-added/src/main/java/X.java"), "class X {}");
        List<String> half = missingParts(copy).get("09-half-added");
        assertTrue(half.contains("the course's tests: exercises/09-half-added/src/test/java"), half.toString());
        assertTrue(
                half.contains("the stubs' golden results: grader/src/test/resources/golden/09-half-added/stubs.json"),
                half.toString());
        assertTrue(half.contains("the mutants: solutions/09-half-added/mutants"), half.toString());
    }
}
