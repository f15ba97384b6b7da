package course.grader;

import course.base.CourseRoot;
import course.base.Exercises;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./course grade [NN-name ...] [--solutions] [--json FILE] [--require-full]}: grades the exercises with
 * the course's own tests and prints a per-test report. {@code --profile trainer} adds the trainer's hidden
 * tests; {@code --submission DIR} grades a learner's submission (the Gradescope autograder's
 * {@code run_autograder}); {@code --class DIR} grades one folder per learner and writes a class report.
 *
 * <p>Exit codes: 0 when grading ran, whatever the score; 1 with {@code --require-full} below full marks; 2 on
 * a usage error (for example an unknown exercise); 3 when the grader itself failed.
 */
@Command(
        name = "./course grade",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        version = "course-grader 1.0.0",
        description = "Grades the exercises with the course's own tests (a pristine copy built into the grader)."
                + " Each exercise is compiled and tested on its own: one that does not compile, loops forever or"
                + " calls System.exit scores 0 without affecting the others.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:grading ran (whatever the score)",
            "1:--require-full and the score is below full marks",
            "2:usage error",
            "3:the grader itself failed"
        })
public final class GradeCli implements Callable<Integer> {

    @Parameters(
            paramLabel = "NN-name",
            arity = "0..*",
            description = "Exercises to grade, for example 01-thread-cost (default: all).")
    List<String> exercises = new ArrayList<>();

    @Option(names = "--solutions", description = "Grade the reference solutions in solutions/ instead of exercises/.")
    boolean solutions;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write a Gradescope-style results.json to FILE.")
    Path json;

    @Option(names = "--require-full", description = "Exit with 1 unless every test passes.")
    boolean requireFull;

    @Option(
            names = "--profile",
            paramLabel = "learner|trainer",
            defaultValue = "learner",
            converter = ProfileConverter.class,
            description = "Which tests to run: the learner's (default), or also the trainer's hidden tests in"
                    + " trainer/NN-name/src/test/java.")
    Grader.Profile profile;

    @Option(
            names = "--submission",
            paramLabel = "DIR",
            description = "Grade the submission in DIR (an exercises/ folder, a copy of the course, or bare .java"
                    + " files) instead of exercises/.")
    Path submission;

    @Option(
            names = "--class",
            paramLabel = "DIR",
            description = "Grade every folder in DIR as one learner's submission and write a class report"
                    + " (CSV and index.html) to --report.")
    Path classDir;

    @Option(
            names = "--jobs",
            paramLabel = "N",
            description = "How many exercises are graded at once; with --class, how many learners (default: one per"
                    + " core).")
    Integer jobs;

    @Option(
            names = "--report",
            paramLabel = "DIR",
            description = "Where --class writes its report (default: target/class-report in the course folder).")
    Path reportDir;

    @Option(names = "--leaderboard", description = "Add Gradescope's leaderboard (the points) to the JSON.")
    boolean leaderboard;

    @Option(
            names = "--format",
            paramLabel = "gradescope|exercism",
            defaultValue = "gradescope",
            description = "The format of --json: Gradescope's results.json (default), or Exercism's test-runner"
                    + " results.json, version 3 (task_id: the exercise's number, that is its notebook).")
    String format;

    /** Parses {@code learner} or {@code trainer}. */
    static final class ProfileConverter implements CommandLine.ITypeConverter<Grader.Profile> {
        @Override
        public Grader.Profile convert(String value) {
            return switch (value.toLowerCase(java.util.Locale.ROOT)) {
                case "learner" -> Grader.Profile.LEARNER;
                case "trainer" -> Grader.Profile.TRAINER;
                default ->
                    throw new CommandLine.TypeConversionException(
                            "'" + value + "' is not a profile: use learner or trainer");
            };
        }
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * Runs the grader as the command line asks.
     *
     * @return the exit code
     * @throws Exception if the grader itself fails
     */
    @Override
    public Integer call() throws Exception {
        List<String> known = Grader.exercises();
        for (String e : exercises) {
            if (!known.contains(e)) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(),
                        "no exercise named '" + e + "'; the exercises are " + String.join(", ", known));
            }
        }
        if (!format.equals("gradescope") && !format.equals("exercism")) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "'" + format + "' is not a format: use gradescope or exercism");
        }
        if (Stream.of(solutions, submission != null, classDir != null)
                        .filter(b -> b)
                        .count()
                > 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "choose one of --solutions, --submission and --class");
        }
        if (jobs != null && jobs < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--jobs must be at least 1, not " + jobs);
        }
        int atOnce = jobs != null ? jobs : Grader.defaultJobs();
        Path root = CourseRoot.find();
        if (solutions && !Exercises.hasAnswers(root)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "no solutions/ folder in this course (a learners' template): --solutions has nothing to grade");
        }
        Grader grader = new Grader(root, profile);
        grader.hiddenTestsSkipped().ifPresent(System.out::println);
        if (classDir != null) {
            return gradeClass(grader, root, atOnce);
        }
        GradeReport report;
        if (submission != null) {
            if (!java.nio.file.Files.isDirectory(submission)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "no folder " + submission);
            }
            report = ClassReport.gradeOne(grader, submission, exercises.isEmpty() ? known : exercises, atOnce);
        } else {
            report = grader.grade(exercises, solutions ? Grader.Source.SOLUTIONS : Grader.Source.EXERCISES, atOnce);
            LastGrades.remember(root, report); // for ./course progress; the learner's exercises/ only
        }
        System.out.print(report.toText());
        if (json != null) {
            GradeReport.writeJson(
                    json, format.equals("exercism") ? report.toExercismTree() : report.toJsonTree(leaderboard));
            System.out.println("wrote " + json);
        }
        System.out.flush();
        return requireFull && !report.full() ? 1 : 0;
    }

    private int gradeClass(Grader grader, Path root, int atOnce) throws java.io.IOException {
        if (!java.nio.file.Files.isDirectory(classDir)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "no folder " + classDir);
        }
        ClassReport report = ClassReport.grade(grader, classDir, exercises, System.out, atOnce);
        Path dir = reportDir != null ? reportDir : root.resolve("target").resolve("class-report");
        Path index = report.write(dir);
        System.out.println(report.summaryLine());
        System.out.println("wrote " + dir.resolve("class-report.csv") + " and " + index);
        System.out.flush();
        return 0;
    }

    /**
     * Parses {@code args}, grades, and exits with the code described above.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * Parses {@code args} and grades, returning the exit code instead of exiting.
     *
     * @param args the command line
     * @return the exit code
     */
    public static int run(String... args) {
        return new CommandLine(new GradeCli())
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    cmd.getErr().println("the grader failed: " + e);
                    return 3;
                })
                .execute(args);
    }
}
