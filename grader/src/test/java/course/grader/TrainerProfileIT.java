package course.grader;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import course.base.Exercises;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trainer's profile adds the hidden tests of {@code trainer/NN-name}: at least one per exercise, each
 * hidden or visible only after the due date. The solutions pass them, the stubs fail them, and the learner's
 * profile neither runs nor shows them. A course without {@code trainer/} (a learners' template) grades with the
 * learner's tests and says so in one line; the tests of the hidden tests themselves need a course that has them.
 */
class TrainerProfileIT {
    @TempDir
    Path work;

    @BeforeEach
    void theCourseHasHiddenTests(TestInfo test) {
        if (!test.getTestMethod().orElseThrow().getName().startsWith("aCourseWithoutTrainer")) {
            assumeTrue(
                    Exercises.hasTrainer(Courses.root()),
                    "this course has no trainer/ folder (a learners' template): no hidden tests to check");
        }
    }

    @Test
    void aCourseWithoutTrainerGradesWithTheLearnersTestsAndSaysSo() throws Exception {
        Path course = Courses.stubCourse(work); // exercises/ alone: no trainer/
        Grader grader = new Grader(course, Grader.Profile.TRAINER);
        assertEquals(Optional.of(Grader.NO_TRAINER_FOLDER), grader.hiddenTestsSkipped());
        assertEquals(Grader.Profile.LEARNER, grader.profile());
        String exercise = "03-batch-math"; // the quickest to grade
        GradeReport r = grader.grade(List.of(exercise), Grader.Source.EXERCISES);
        var golden = GoldenResultsIT.JSON.readTree(
                GoldenResultsIT.golden(exercise, "stubs").toFile());
        assertAll(
                () -> assertEquals(golden.get("max_score").asInt(), r.maxScore(), "the learner's tests, all of them"),
                () -> assertTrue(
                        r.exercises().stream().flatMap(e -> e.tests().stream()).noneMatch(TestResult::hidden),
                        "no hidden test"),
                () -> assertFalse(r.provenance().contains("hidden"), r.provenance()));
        // The learner's profile there says in one line that the grade counts the visible tests alone.
        assertEquals(Optional.of(Grader.NO_HIDDEN_TESTS_HERE), new Grader(course).hiddenTestsSkipped());
        // The same course with a trainer/ folder beside it runs its hidden tests, and says nothing.
        java.nio.file.Files.createDirectories(course.resolve(Grader.TRAINER_FOLDER));
        assertEquals(Optional.empty(), new Grader(course, Grader.Profile.TRAINER).hiddenTestsSkipped());
        assertEquals(Optional.empty(), new Grader(course).hiddenTestsSkipped());
    }

    @Test
    @NeedsAnswers
    void theSolutionsPassEveryHiddenTest() {
        GradeReport r = new Grader(Courses.root(), Grader.Profile.TRAINER).grade(List.of(), Grader.Source.SOLUTIONS);
        System.out.print(r.toText());
        assertEquals(r.maxScore(), r.score(), "score of the solutions with the hidden tests");
        for (ExerciseResult e : r.exercises()) {
            List<TestResult> hidden =
                    e.tests().stream().filter(TestResult::hidden).toList();
            assertAll(
                    e.exercise(),
                    () -> assertFalse(hidden.isEmpty(), "no hidden test"),
                    () -> hidden.forEach(t -> assertTrue(
                            Set.of("hidden", "after_due_date").contains(t.visibility()),
                            t.name() + ": " + t.visibility())),
                    () -> assertTrue(e.tests().indexOf(hidden.getFirst()) > 0, "the learner's tests come first"));
        }
        assertTrue(r.provenance().contains("the trainer's hidden tests"), r.provenance());
    }

    @Test
    void theStubsFailThemAndTheLearnersProfileNeverSeesThem() throws Exception {
        Path course = Courses.stubCourse(work);
        // The trainer's folder is not in a learner's copy: grade the copy with the course's trainer/ beside it.
        Courses.copyTree(Courses.root().resolve(Grader.TRAINER_FOLDER), course.resolve(Grader.TRAINER_FOLDER));
        GradeReport trainer = new Grader(course, Grader.Profile.TRAINER).grade(List.of(), Grader.Source.EXERCISES);
        long hidden = trainer.exercises().stream()
                .flatMap(e -> e.tests().stream())
                .filter(TestResult::hidden)
                .count();
        // The stubs under the learner's profile are GoldenResultsIT's stubs.json files, checked there: read here.
        int learnerMax = 0;
        List<String> learnerVisibility = new java.util.ArrayList<>();
        for (ExerciseResult e : trainer.exercises()) {
            var golden = GoldenResultsIT.JSON.readTree(
                    GoldenResultsIT.golden(e.exercise(), "stubs").toFile());
            learnerMax += golden.get("max_score").asInt();
            golden.get("tests")
                    .forEach(x -> learnerVisibility.add(x.get("visibility").asText()));
            assertFalse(
                    golden.toString().contains("hidden"), e.exercise() + ": the learner's results name a hidden test");
        }
        int learnerMaxScore = learnerMax;
        assertAll(
                () -> assertEquals(0, trainer.score(), "the stubs' score with the hidden tests"),
                () -> assertTrue(hidden >= trainer.exercises().size(), hidden + " hidden tests"),
                () -> assertEquals(
                        trainer.maxScore() - learnerMaxScore,
                        trainer.exercises().stream()
                                .flatMap(e -> e.tests().stream())
                                .filter(TestResult::hidden)
                                .mapToInt(TestResult::maxScore)
                                .sum(),
                        "the hidden tests' points"),
                () -> assertTrue(
                        learnerVisibility.stream().allMatch(TestResult.VISIBLE::equals),
                        "the learner's profile shows a hidden test: " + learnerVisibility));
    }
}
