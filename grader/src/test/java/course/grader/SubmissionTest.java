package course.grader;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a submission is laid out for grading: an exercises/ folder, a whole course, or bare files. */
class SubmissionTest {
    @TempDir
    Path work;

    @Test
    @NeedsAnswers
    void aWholeCourseIsGradedFromItsExercisesNotItsSolutions() throws Exception {
        Path repo = work.resolve("in/my-repo");
        Courses.copyTree(Courses.root().resolve("exercises/02-cafe/src"), repo.resolve("exercises/02-cafe/src"));
        Courses.copyTree(Courses.solution("02-cafe"), repo.resolve("solutions/02-cafe/src/main/java"));
        Submission.Layout layout =
                Submission.layout(Courses.root(), work.resolve("in"), List.of("02-cafe"), work.resolve("out"));
        Path cafe = layout.sources("02-cafe").resolve("course/exercises/cafe/Cafe.java");
        assertEquals(
                Files.readString(repo.resolve("exercises/02-cafe/src/main/java/course/exercises/cafe/Cafe.java")),
                Files.readString(cafe),
                "the learner's exercises/ copy, not solutions/");
        assertEquals(
                List.of("graded my-repo/exercises/02-cafe/src/main/java"),
                layout.notes().get("02-cafe"));
    }

    @Test
    @NeedsAnswers
    void bareFilesJoinTheirExerciseByPackageAndTheStubsFillTheRest() throws Exception {
        Path in = Files.createDirectories(work.resolve("in"));
        Files.copy(Courses.solution("02-cafe").resolve("course/exercises/cafe/Cafe.java"), in.resolve("Cafe.java"));
        Files.writeString(in.resolve("CafeTest.java"), "package course.exercises.cafe;\nclass CafeTest { }\n");
        Files.writeString(in.resolve("Notes.java"), "// my notes\npackage somewhere.else;\nclass Notes { }\n");
        Submission.Layout layout =
                Submission.layout(Courses.root(), in, List.of("02-cafe", "05-throttling"), work.resolve("out"));
        Path cafe = layout.sources("02-cafe").resolve("course/exercises/cafe");
        assertAll(
                () -> assertEquals(
                        Files.readString(in.resolve("Cafe.java")), Files.readString(cafe.resolve("Cafe.java"))),
                () -> assertTrue(Files.isRegularFile(cafe.resolve("CafeReport.java")), "the stub of CafeReport"),
                () -> assertFalse(Files.exists(cafe.resolve("CafeTest.java")), "a file named like a course test"),
                () -> assertEquals(
                        List.of(
                                "CafeTest.java is named like one of the course's tests: not used",
                                "graded Cafe.java with the course's stubs for the rest"),
                        layout.notes().get("02-cafe")),
                () -> assertEquals(
                        List.of("no file of this exercise in the submission: graded the course's stub"),
                        layout.notes().get("05-throttling")),
                () -> assertTrue(
                        Files.isRegularFile(
                                layout.sources("05-throttling").resolve("course/exercises/throttling/Throttle.java")),
                        "the stub of 05"));
    }
}
