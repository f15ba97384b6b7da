package course.base;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the course's folder: the one that holds {@code exercises/} and the {@code course} script. The grader
 * ({@code ./course grade}, {@code Grade.exercise(...)}, Gradescope), the kernel's {@code %exercise} magic and the
 * tests all ask here, in one order:
 *
 * <ol>
 *   <li>the nearest course folder at or above the working directory (a notebook kernel runs in
 *       {@code notebooks/}, the command line in the course folder);
 *   <li>the system property {@code course.home}, when it names a course folder;
 *   <li>the environment variable {@code COURSE_HOME}, when it names a course folder.
 * </ol>
 *
 * <p>The working directory comes first because a setting can name another copy of the course: the image's
 * kernelspec sets {@code COURSE_HOME} to the image's pristine copy, while the learner works in the copy on the
 * volume; the code graded and loaded must be the copy the learner has open.
 */
public final class CourseRoot {
    /** The system property that names the course folder when the working directory is outside it. */
    public static final String PROPERTY = "course.home";
    /** The environment variable that names the course folder when the working directory is outside it. */
    public static final String VARIABLE = "COURSE_HOME";

    private CourseRoot() {}

    /**
     * Returns the course folder of this process, as an absolute, normalized path.
     *
     * @return the folder that holds {@code exercises/} and the {@code course} script
     * @throws IllegalStateException if no such folder is found
     */
    public static Path find() {
        Path here = Path.of("").toAbsolutePath();
        return locate(here, System.getProperty(PROPERTY), System.getenv(VARIABLE))
                .orElseThrow(() -> new IllegalStateException(
                        "cannot find the course folder (the one with exercises/ and the course script) above " + here
                                + "; set " + VARIABLE + " to it"));
    }

    /**
     * The course folder in the order above, from explicit inputs (a test passes its own).
     *
     * @param workingDirectory where to start walking up
     * @param property         the value of {@code course.home}, or null
     * @param variable         the value of {@code COURSE_HOME}, or null
     * @return the course folder, or empty when none of the three gives one
     */
    public static Optional<Path> locate(Path workingDirectory, String property, String variable) {
        return search(workingDirectory).or(() -> fromSetting(property)).or(() -> fromSetting(variable));
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

    /** Whether {@code dir} is a course folder: it holds {@code exercises/} and the {@code course} script. */
    public static boolean isCourseRoot(Path dir) {
        return Files.isDirectory(dir.resolve("exercises")) && Files.isRegularFile(dir.resolve("course"));
    }

    private static Optional<Path> fromSetting(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        Path p = Path.of(value).toAbsolutePath().normalize();
        return isCourseRoot(p) ? Optional.of(p) : Optional.empty();
    }
}
