package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The grader reports an exercise's tests in the order JUnit plans them, so every course test class (the
 * learner's and the trainer's, of every exercise found in the course folder) declares that order:
 * {@code @TestMethodOrder(MethodOrderer.OrderAnnotation.class)} and {@code @Order(1..n)}, one per test.
 */
class ExerciseTestOrderTest {
    private static final Pattern TEST =
            Pattern.compile("@(Test|ParameterizedTest|RepeatedTest|TestFactory|Property|Example)\\b");
    private static final Pattern ORDER = Pattern.compile("@(?:Order|TestOrder)\\((\\d+)\\)");

    static List<Path> testClasses() throws IOException {
        Path root = Courses.root();
        Path trainer = root.resolve(Grader.TRAINER_FOLDER); // absent from a learners' template
        try (Stream<Path> s = Stream.concat(
                Files.walk(root.resolve("exercises")),
                Files.isDirectory(trainer) ? Files.walk(trainer) : Stream.of())) {
            return s.filter(p -> p.toString().replace('\\', '/').matches(".*/\\d\\d-[^/]+/src/test/java/.*Test\\.java"))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void everyCourseTestClassDeclaresTheOrderOfItsTests() throws IOException {
        List<Path> classes = testClasses();
        assertFalse(classes.isEmpty());
        for (Path file : classes) {
            String text = Files.readString(file);
            long tests = TEST.matcher(text).results().count();
            assertTrue(
                    text.contains("@TestMethodOrder(MethodOrderer.OrderAnnotation.class)"),
                    file + ": no @TestMethodOrder(MethodOrderer.OrderAnnotation.class)");
            Matcher m = ORDER.matcher(text);
            List<Integer> orders =
                    m.results().map(r -> Integer.parseInt(r.group(1))).toList();
            assertEquals(
                    IntStream.rangeClosed(1, (int) tests).boxed().toList(),
                    orders,
                    file + ": its " + tests + " tests must carry @Order(1) to @Order(" + tests + "), in source order");
        }
    }
}
