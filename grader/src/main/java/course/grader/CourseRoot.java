package course.grader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the course's folder: the one that holds {@code exercises/} and the {@code course} script.
 *
 * <p>The search walks up from the current working directory (a notebook kernel runs in {@code notebooks/},
 * the command line in the course folder), then falls back to the system property {@code course.home} and
 * the environment variable {@code COURSE_HOME}.
 */
public final class CourseRoot {
    private CourseRoot() {}

    /**
     * Returns the course folder, as an absolute, normalized path.
     *
     * @return the folder that holds {@code exercises/} and the {@code course} script
     * @throws IllegalStateException if no such folder is found
     */
    public static Path find() {
        return search(Path.of("").toAbsolutePath())
                .or(() -> fromSetting(System.getProperty("course.home")))
                .or(() -> fromSetting(System.getenv("COURSE_HOME")))
                .orElseThrow(() -> new IllegalStateException(
                        "cannot find the course folder (the one with exercises/ and the course script) above "
                                + Path.of("").toAbsolutePath() + "; set COURSE_HOME to it"));
    }

    /**
     * Returns the nearest folder at or above {@code start} that is a course folder.
     *
     * @param start where to start looking
     * @return the course folder, or empty if there is none above {@code start}
     */
    public static Optional<Path> search(Path start) {
        for (Path p = start.toAbsolutePath().normalize(); p != null; p = p.getParent()) {
            if (isCourseRoot(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> fromSetting(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        Path p = Path.of(value).toAbsolutePath().normalize();
        return isCourseRoot(p) ? Optional.of(p) : Optional.empty();
    }

    private static boolean isCourseRoot(Path p) {
        return Files.isDirectory(p.resolve("exercises")) && Files.isRegularFile(p.resolve("course"));
    }
}
