package course.grader;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;

/**
 * The grader remembers each exercise's last grade, for {@code ./course progress}: every grading of the learner's
 * {@code exercises/} ({@code ./course grade}, a notebook's {@code Grade.exercise(...)}) writes
 * {@code target/grades/NN-name.json} in the course folder.
 *
 * <pre>{@code
 * {"exercise": "02-cafe", "score": 7, "max": 10, "when": "2026-05-02T09:14:03Z", "profile": "learner", "problems": 0}
 * }</pre>
 *
 * {@code problems} counts what stopped the tests from running (a compile error). Gradings of the solutions, of a
 * submission or of a class are not the learner's exercises and are not remembered; Gradescope's
 * {@code results.json} is another file, unchanged.
 */
public final class LastGrades {
    /** The folder, relative to the course folder. */
    public static final String FOLDER = "target/grades";

    private LastGrades() {}

    /** Where the last grade of {@code exercise} is kept in the course folder {@code root}. */
    public static Path file(Path root, String exercise) {
        return root.resolve(FOLDER).resolve(exercise + ".json");
    }

    /**
     * Writes the grade of each exercise of {@code report}, when it graded the learner's {@code exercises/}. A folder
     * that cannot be written is noted on stderr; it never fails the grading.
     */
    public static void remember(Path root, GradeReport report) {
        if (report.source() != Grader.Source.EXERCISES) return;
        String when = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        var json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        for (ExerciseResult e : report.exercises()) {
            Path file = file(root, e.exercise());
            try {
                Files.createDirectories(file.getParent());
                var m = new LinkedHashMap<String, Object>();
                m.put("exercise", e.exercise());
                m.put("score", e.score());
                m.put("max", e.maxScore());
                m.put("when", when);
                m.put("profile", report.profile().name().toLowerCase(Locale.ROOT));
                m.put("problems", e.problems().size());
                Path tmp = Files.createTempFile(file.getParent(), e.exercise(), ".tmp");
                json.writeValue(tmp.toFile(), m);
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException | RuntimeException x) {
                System.err.println("note: could not keep the grade of " + e.exercise() + " in " + file + ": " + x);
            }
        }
    }
}
