package course.grader;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One broken exercise never hides the grades of the others: in a course whose exercises are solved, except
 * that 01 has a syntax error, 02 never returns (whatever interrupts it) and 04 calls {@code System.exit(1)}, those three score 0
 * with a clear reason while 03 and 05 score full marks.
 */
@NeedsAnswers
class IsolationIT {
    @TempDir
    static Path work;

    static Map<String, ExerciseResult> graded;

    @BeforeAll
    static void gradeABrokenCourse() throws Exception {
        Path course = Courses.solvedCourse(work);
        Path threadCost = Courses.find(course.resolve("exercises/01-thread-cost"), "ThreadCost.java");
        Files.writeString(
                threadCost,
                Files.readString(threadCost)
                        .replace("long start = System.nanoTime();", "long start = System.nanoTime()"));
        Path cafe = Courses.find(course.resolve("exercises/02-cafe"), "Cafe.java");
        Files.writeString(
                cafe,
                Files.readString(cafe)
                        .replace(
                                "Objects.requireNonNull(brewTime, \"brewTime\");",
                                // never returns and ignores interrupts, as a busy loop does, but parked: the
                                // grader kills its JVM all the same, and no core spins for the budget's 20 s
                                "while (staff != null) { java.util.concurrent.locks.LockSupport.park(); Thread.interrupted(); }"));
        Path workloads = Courses.find(course.resolve("exercises/04-io-vs-cpu"), "Workloads.java");
        Files.writeString(
                workloads,
                Files.readString(workloads)
                        .replace("Objects.requireNonNull(wait, \"wait\");", "System.exit(1);")
                        .replace(
                                "return switch (Objects.requireNonNull(kind, \"kind\")) {",
                                "System.exit(1);\n        return switch (Objects.requireNonNull(kind, \"kind\")) {"));
        // 02's thirteen tests would each wait for their timeout (each in a fresh test JVM, the stuck one killed): a
        // budget of 20 s for the exercise lets the first few time out, and the rest are not run, as the budget says.
        // (With a busy loop, as before, a core spun for the whole budget: 90 s at first, then 20 s.) The budget
        // is 02's alone: 04, whose System.exit restarts the test JVM for each test, ran out of a budget of 20 s for
        // every exercise under ./course test's load, and its later tests said "not run" instead of naming the exit.
        GradeReport report;
        System.setProperty(ForkedTests.BUDGET_PROPERTY + ".02-cafe", "20");
        try {
            report = new Grader(course).grade(List.of(), Grader.Source.EXERCISES);
        } finally {
            System.clearProperty(ForkedTests.BUDGET_PROPERTY + ".02-cafe");
        }
        System.out.print(report.toText());
        graded = report.exercises().stream().collect(Collectors.toMap(ExerciseResult::exercise, Function.identity()));
    }

    @Test
    void aSyntaxErrorScoresZeroWithTheLearnersFileAndLine() {
        ExerciseResult r = graded.get("01-thread-cost");
        assertAll(
                () -> assertEquals(0, r.score(), "score"),
                () -> assertEquals(
                        Courses.maxScore("01-thread-cost"),
                        r.maxScore(),
                        "the tests are still listed with their points"),
                () -> assertEquals("your code does not compile:", r.problems().getFirst()),
                () -> assertTrue(
                        r.problems()
                                .get(1)
                                .startsWith(
                                        "exercises/01-thread-cost/src/main/java/course/exercises/threadcost/ThreadCost.java:"),
                        "the error names the learner's file and line: " + r.problems()),
                () -> assertTrue(
                        r.problems().get(1).contains("';' expected"),
                        r.problems().get(1)),
                () -> assertTrue(
                        r.tests().stream().allMatch(t -> t.message().startsWith("not graded: ")),
                        "every test says why it was not graded"));
    }

    @Test
    void anEndlessLoopScoresZeroByTimeout() {
        ExerciseResult r = graded.get("02-cafe");
        assertAll(
                () -> assertEquals(0, r.score(), "score"),
                () -> assertEquals(Courses.maxScore("02-cafe"), r.maxScore(), "max score"),
                // A test that runs serve on a thread of its own bounds its wait and fails with what it saw; one that
                // calls serve itself is stopped by its timeout (a Jupiter test's, or the watchdog of a property).
                () -> assertTrue(r.tests().stream().noneMatch(TestResult::passed), "every test failed: " + r.tests()),
                () -> assertTrue(
                        r.tests().stream()
                                        .filter(t -> t.message().contains("timed out"))
                                        .count()
                                >= 1,
                        "the first test timed out: " + r.tests()),
                () -> assertTrue(
                        r.tests().stream()
                                .filter(t -> t.message().startsWith("not run"))
                                .allMatch(t -> t.message().contains("the exercise's time budget was used up")),
                        "a test left out says the budget left it out: " + r.tests()));
    }

    @Test
    void systemExitScoresZeroForItsOwnExerciseOnly() {
        ExerciseResult r = graded.get("04-io-vs-cpu");
        assertAll(
                () -> assertEquals(0, r.score(), "score"),
                () -> assertEquals(Courses.maxScore("04-io-vs-cpu"), r.maxScore(), "max score"),
                () -> assertTrue(
                        r.tests().stream().allMatch(t -> t.message().contains("System.exit(1)")),
                        "every test names the System.exit: " + r.tests()));
    }

    @Test
    void theOtherExercisesAreGradedNormally() {
        assertAll(
                () -> assertEquals(
                        Courses.maxScore("03-batch-math"),
                        graded.get("03-batch-math").score(),
                        "03-batch-math"),
                () -> assertEquals(
                        Courses.maxScore("03-batch-math"),
                        graded.get("03-batch-math").maxScore(),
                        "03-batch-math max"),
                () -> assertEquals(
                        Courses.maxScore("05-throttling"),
                        graded.get("05-throttling").score(),
                        "05-throttling"),
                () -> assertEquals(
                        Courses.maxScore("05-throttling"),
                        graded.get("05-throttling").maxScore(),
                        "05-throttling max"));
    }
}
