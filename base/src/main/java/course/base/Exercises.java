package course.base;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The one list of what an exercise {@code NN-name} is made of, across the course's folders (CONTRIBUTING.md
 * walks through adding one). Each {@link Part} says where it lives; {@link #missing} names the parts a course
 * folder lacks.
 */
public final class Exercises {
    /** The folder of the trainer's hidden tests: left out of a learners' template, and then skipped. */
    public static final String TRAINER = "trainer";

    /** The folder of the reference solutions: left out of a learners' template with the other answers. */
    public static final String SOLUTIONS = "solutions";

    /** Why the course's own tests that need the answers are skipped in a learners' template: one line. */
    public static final String NO_ANSWERS = "no solutions/ folder in this course (a learners' template, written by"
            + " ./course template): the tests that need the course's answers are skipped";

    private static final Pattern NAME = Pattern.compile("\\d\\d-[a-z0-9-]+");

    private Exercises() {}

    /** One part of an exercise, and where it lives under the course folder ({@code %s}: the exercise's name). */
    public enum Part {
        /** The learner's starting code. */
        STUB("the stub", "exercises/%s/src/main/java"),
        /** The course's tests, which the learner sees and the grader runs. */
        TESTS("the course's tests", "exercises/%s/src/test/java"),
        /** The exercise's module, listed in {@code exercises/pom.xml}. */
        MODULE("the Maven module", "exercises/%s/pom.xml"),
        /** The contract, in numbered sentences the tests name. */
        README("the README", "exercises/%s/README.md"),
        /** The reference solution: an answer. */
        SOLUTION("the reference solution", SOLUTIONS + "/%s/src/main/java", true),
        /** The trainer's hidden tests; a course without {@code trainer/} has none, and grades without them. */
        HIDDEN_TESTS("the trainer's hidden tests", TRAINER + "/%s/src/test/java", true),
        /**
         * What the grader gives the stubs, the solution and a mutant (GoldenResultsIT); a learners' template keeps
         * the stubs' alone.
         */
        GOLDEN("the golden results", "grader/src/test/resources/golden/%s"),
        /** Wrong solutions that the tests must catch (MutantsIT): answers too, each a diff of the solution. */
        MUTANTS("the mutants", "grader/src/test/resources/mutants/%s", true),
        /** Other right solutions that the tests must pass (AlternativesIT): answers. */
        ALTERNATIVES("the alternative solutions", "grader/src/test/resources/alternatives/%s", true),
        /** The notebook whose "Your turn" grades it with {@code Grade.exercise("NN-name")}. */
        NOTEBOOK("the notebook", "notebooks/*.ipynb");

        private final String label;
        private final String where;
        private final boolean answer;

        Part(String label, String where) {
            this(label, where, false);
        }

        Part(String label, String where, boolean answer) {
            this.label = label;
            this.where = where;
            this.answer = answer;
        }

        /** Whether this part gives an answer away, and so stays out of a learners' template. */
        public boolean answer() {
            return answer;
        }

        /** What the part is, in words. */
        public String label() {
            return label;
        }

        /** Where it lives, relative to the course folder. */
        public String where(String exercise) {
            return where.formatted(exercise);
        }
    }

    /**
     * The course's exercises: every {@code exercises/NN-name} folder that has tests, sorted.
     *
     * @param root the course folder
     */
    public static List<String> names(Path root) {
        return namesIn(root.resolve("exercises"), "src/test/java");
    }

    /**
     * Every name that any part's folder uses ({@code exercises/}, {@code solutions/}, {@code trainer/}, the golden
     * results, the mutants, the alternatives), sorted: an exercise half added or half removed shows here.
     */
    public static List<String> namesInAnyPart(Path root) {
        TreeSet<String> all = new TreeSet<>();
        for (String folder : List.of(
                "exercises",
                SOLUTIONS,
                TRAINER,
                "grader/src/test/resources/golden",
                "grader/src/test/resources/mutants",
                "grader/src/test/resources/alternatives")) {
            all.addAll(namesIn(root.resolve(folder), ""));
        }
        return List.copyOf(all);
    }

    /**
     * Where {@code part} of {@code exercise} is in the course folder {@code root}, if it is there.
     *
     * @return the folder or file; for {@link Part#NOTEBOOK} the notebook that grades the exercise
     */
    public static Optional<Path> find(Path root, String exercise, Part part) {
        if (part == Part.NOTEBOOK) {
            return notebook(root, exercise);
        }
        Path p = root.resolve(part.where(exercise));
        boolean there = Files.isDirectory(p) ? hasFiles(p) : Files.isRegularFile(p);
        if (part == Part.MODULE && there) {
            there = moduleListed(root, exercise);
        }
        return there ? Optional.of(p) : Optional.empty();
    }

    /** Whether the course holds the trainer's hidden tests (a learners' template leaves {@code trainer/} out). */
    public static boolean hasTrainer(Path root) {
        return Files.isDirectory(root.resolve(TRAINER));
    }

    /**
     * Whether the course holds its answers: the reference solutions, and with them the mutants and alternatives
     * (a learners' template leaves all of them out, {@code solutions/} first).
     */
    public static boolean hasAnswers(Path root) {
        return Files.isDirectory(root.resolve(SOLUTIONS));
    }

    /**
     * The parts of {@code exercise} missing from the course folder, one line each ("the mutants:
     * grader/src/test/resources/mutants/NN-name"). The hidden tests count only where the course has
     * {@code trainer/}, the other answers only where it has {@code solutions/}.
     */
    public static List<String> missing(Path root, String exercise) {
        List<String> out = new ArrayList<>();
        for (Part part : Part.values()) {
            if (part == Part.HIDDEN_TESTS ? !hasTrainer(root) : part.answer() && !hasAnswers(root)) {
                continue;
            }
            if (find(root, exercise, part).isEmpty()) {
                String where = part == Part.NOTEBOOK
                        ? "no notebook in notebooks/ calls Grade.exercise(\"" + exercise + "\")"
                        : part == Part.MODULE
                                ? part.where(exercise) + ", listed as <module>" + exercise
                                        + "</module> in exercises/pom.xml"
                                : part.where(exercise);
                out.add(part.label() + ": " + where);
            }
        }
        return out;
    }

    private static Optional<Path> notebook(Path root, String exercise) {
        Path dir = root.resolve("notebooks");
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        // In the notebook's JSON the call reads Grade.exercise(\"NN-name\").
        Pattern call = Pattern.compile("Grade\\.exercise\\(\\\\\"" + Pattern.quote(exercise) + "\\\\\"\\)");
        try (Stream<Path> s = Files.list(dir)) {
            for (Path nb :
                    s.filter(p -> p.toString().endsWith(".ipynb")).sorted().toList()) {
                if (call.matcher(Files.readString(nb)).find()) {
                    return Optional.of(nb);
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean moduleListed(Path root, String exercise) {
        try {
            Path pom = root.resolve("exercises/pom.xml");
            return Files.isRegularFile(pom) && Files.readString(pom).contains("<module>" + exercise + "</module>");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean hasFiles(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.anyMatch(Files::isRegularFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> namesIn(Path dir, String inside) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> NAME.matcher(p.getFileName().toString()).matches())
                    .filter(p -> Files.isDirectory(p.resolve(inside)))
                    .map(p -> p.getFileName().toString())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
