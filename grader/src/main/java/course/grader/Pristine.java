package course.grader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The course's own copy of every exercise's tests (and stubs), built into the grader.
 *
 * <p>At build time Maven copies {@code exercises/NN-name/src/test/java} and {@code src/main/java} into the
 * grader's class path under {@code pristine/NN-name/}. Grading always compiles and runs these tests, never
 * the copies in the learner's {@code exercises/} folder.
 */
final class Pristine {
    private static volatile Path root;

    private Pristine() {
    }

    /** The {@code pristine} folder inside the grader's jar or classes folder. */
    static Path root() {
        Path r = root;
        if (r == null) {
            synchronized (Pristine.class) {
                if (root == null) {
                    root = locate();
                }
                r = root;
            }
        }
        return r;
    }

    private static Path locate() {
        try {
            Path home = Classpaths.locationOf(Pristine.class);
            if (Files.isDirectory(home)) {
                return home.resolve("pristine");
            }
            FileSystem jar = FileSystems.newFileSystem(home);
            return jar.getPath("/pristine");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the grader's copy of the course's tests", e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The names of the exercises ({@code NN-name}), sorted. */
    static List<String> exercises() {
        Path r = root();
        if (!Files.isDirectory(r)) {
            throw new IllegalStateException("the grader has no copy of the course's tests (" + r
                    + "): rebuild it with ./course setup --rebuild");
        }
        try (Stream<Path> s = Files.list(r)) {
            return s.filter(p -> Files.isDirectory(p.resolve("src/test/java")))
                    .map(p -> p.getFileName().toString().replace("/", ""))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The course's tests of {@code exercise}: its {@code src/test/java} folder. */
    static Path tests(String exercise) {
        return root().resolve(exercise).resolve("src/test/java");
    }

    /** The stubs of {@code exercise} as the course ships them: its {@code src/main/java} folder. */
    static Path stubs(String exercise) {
        return root().resolve(exercise).resolve("src/main/java");
    }
}
