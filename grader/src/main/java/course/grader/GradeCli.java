package course.grader;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./course grade [NN-name ...] [--solutions] [--json FILE] [--require-full]}: grades the exercises with
 * the course's own tests and prints a per-test report.
 *
 * <p>Exit codes: 0 when grading ran, whatever the score; 1 with {@code --require-full} below full marks; 2 on
 * a usage error (for example an unknown exercise); 3 when the grader itself failed.
 */
@Command(name = "./course grade", mixinStandardHelpOptions = true, sortOptions = false,
        version = "course-grader 1.0.0",
        description = "Grades the exercises with the course's own tests (a pristine copy built into the grader)."
                + " Each exercise is compiled and tested on its own: one that does not compile, loops forever or"
                + " calls System.exit scores 0 without affecting the others.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:grading ran (whatever the score)",
            "1:--require-full and the score is below full marks",
            "2:usage error",
            "3:the grader itself failed"})
public final class GradeCli implements Callable<Integer> {

    @Parameters(paramLabel = "NN-name", arity = "0..*",
            description = "Exercises to grade, for example 01-thread-cost (default: all).")
    List<String> exercises = new ArrayList<>();

    @Option(names = "--solutions", description = "Grade the reference solutions in solutions/ instead of exercises/.")
    boolean solutions;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write a Gradescope-style results.json to FILE.")
    Path json;

    @Option(names = "--require-full", description = "Exit with 1 unless every test passes.")
    boolean requireFull;

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
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "no exercise named '" + e + "'; the exercises are " + String.join(", ", known));
            }
        }
        Path root = CourseRoot.find();
        GradeReport report = new Grader(root)
                .grade(exercises, solutions ? Grader.Source.SOLUTIONS : Grader.Source.EXERCISES);
        System.out.print(report.toText());
        if (json != null) {
            report.writeJson(json);
            System.out.println("wrote " + json);
        }
        System.out.flush();
        return requireFull && !report.full() ? 1 : 0;
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
