package course.grader;

import course.base.CourseRoot;
import course.base.Exercises;
import course.base.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Helpers for the grader's tests: the course folder, and throw-away course folders built from it. */
final class Courses {
    private Courses() {}

    /**
     * The exercises a test of every exercise covers: all of them, or those named in the system property
     * {@code exercises} ({@code mvn … -Dexercises=01-thread-cost,05-throttling}), to try one exercise's
     * mutants or alternatives while writing them.
     */
    static java.util.List<String> selected() {
        String only = System.getProperty("exercises", "").strip();
        if (only.isEmpty()) {
            return Grader.exercises();
        }
        java.util.List<String> named = java.util.List.of(only.split(","));
        return Grader.exercises().stream().filter(named::contains).toList();
    }

    /** The points an exercise is worth, as its golden solution results say (GoldenResultsIT keeps them true). */
    static int maxScore(String exercise) {
        try {
            return GoldenResultsIT.JSON
                    .readTree(GoldenResultsIT.golden(exercise, "solution").toFile())
                    .get("max_score")
                    .asInt();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The course folder these tests run in. */
    static Path root() {
        return CourseRoot.find();
    }

    /** Where {@code part} of {@code exercise} lives in the course folder, whether it is there or not. */
    static Path part(String exercise, Exercises.Part part) {
        return root().resolve(part.where(exercise));
    }

    /** A solution's {@code src/main/java}. */
    static Path solution(String exercise) {
        return part(exercise, Exercises.Part.SOLUTION);
    }

    /**
     * Creates a course folder under {@code dir} whose {@code exercises/NN-name} holds the reference solutions
     * (sources and the course's tests), plus an empty {@code course} script so that it is a course folder.
     */
    static Path solvedCourse(Path dir) throws IOException {
        Path course = dir.resolve("course-copy");
        for (String e : Grader.exercises()) {
            copyTree(solution(e), course.resolve("exercises").resolve(e).resolve("src/main/java"));
            copyTree(
                    root().resolve("exercises").resolve(e).resolve("src/test/java"),
                    course.resolve("exercises").resolve(e).resolve("src/test/java"));
        }
        Files.writeString(course.resolve("course"), "#!/bin/sh\n");
        return course;
    }

    /** Copies the learner-facing {@code exercises/} (stubs and tests) of this course under {@code dir}. */
    static Path stubCourse(Path dir) throws IOException {
        Path course = dir.resolve("course-copy");
        for (String e : Grader.exercises()) {
            copyTree(
                    root().resolve("exercises").resolve(e).resolve("src"),
                    course.resolve("exercises").resolve(e).resolve("src"));
        }
        Files.writeString(course.resolve("course"), "#!/bin/sh\n");
        return course;
    }

    /** Finds the one file named {@code name} under {@code dir}. */
    static Path find(Path dir, String name) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(name + " not found under " + dir));
        }
    }

    static void copyTree(Path from, Path to) throws IOException {
        FileTrees.copy(from, to);
    }
}
