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

    /** The folder of every exercise's answers ({@code solutions/NN-name/{src,golden,mutants,alternatives}}): left
     * out of a learners' template. */
    public static final String SOLUTIONS = "solutions";

    /** Why the course's own tests that need the answers are skipped in a learners' template: one line. */
    public static final String NO_ANSWERS = "no solutions/ folder in this course (a learners' template, written by"
            + " ./course template): the tests that need the course's answers are skipped";

    private static final Pattern NAME = Pattern.compile("\\d\\d-[a-z0-9-]+");

    private Exercises() {}

    /**
     * One part of an exercise, and where it lives under the course folder ({@code %s}: the exercise's name). The
     * answers (the reference solution, the mutants and alternatives made from it, their golden results) live
     * under {@code solutions/NN-name}, the hidden tests under {@code trainer/NN-name}: a learners' copy, which has
     * neither folder, lacks those parts and is whole without them ({@link #optional}).
     */
    public enum Part {
        /** The learner's starting code. */
        STUB("the stub", "exercises/%s/src/main/java"),
        /** The course's tests, which the learner sees and the grader runs. */
        TESTS("the course's tests", "exercises/%s/src/test/java"),
        /** The exercise's module, listed in {@code exercises/pom.xml}. */
        MODULE("the Maven module", "exercises/%s/pom.xml"),
        /** The contract, in numbered sentences the tests name. */
        README("the README", "exercises/%s/README.md"),
        /** What the grader gives the stubs (GoldenResultsIT): what a learner sees before writing a line. */
        STUBS_GOLDEN("the stubs' golden results", "grader/src/test/resources/golden/%s/stubs.json"),
        /** The reference solution: an answer. */
        SOLUTION("the reference solution", SOLUTIONS + "/%s/src/main/java"),
        /** What the grader gives the solution and its first mutant (GoldenResultsIT). */
        GOLDEN("the golden results", SOLUTIONS + "/%s/golden"),
        /** Wrong solutions that the tests must catch (MutantsIT), each a diff of the solution. */
        MUTANTS("the mutants", SOLUTIONS + "/%s/mutants"),
        /** Other right solutions that the tests must pass (AlternativesIT). */
        ALTERNATIVES("the alternative solutions", SOLUTIONS + "/%s/alternatives"),
        /** The trainer's hidden tests; a course without {@code trainer/} has none, and grades without them. */
        HIDDEN_TESTS("the trainer's hidden tests", TRAINER + "/%s/src/test/java"),
        /** The notebook whose "Your turn" grades it with {@code Grade.exercise("NN-name")}. */
        NOTEBOOK("the notebook", "notebooks/*.ipynb");

        private final String label;
        private final String where;

        Part(String label, String where) {
            this.label = label;
            this.where = where;
        }

        /**
         * The course's folder this part lives in when it is one that a learners' copy leaves out whole
         * ({@code solutions} or {@code trainer}); empty for the parts every copy of the course has.
         */
        public Optional<String> optionalFolder() {
            String top = where.substring(0, where.indexOf('/'));
            return top.equals(SOLUTIONS) || top.equals(TRAINER) ? Optional.of(top) : Optional.empty();
        }

        /** Whether a learners' copy leaves this part out: an answer, or the hidden tests. */
        public boolean optional() {
            return optionalFolder().isPresent();
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
     * Every name that any part's folder uses ({@code exercises/}, {@code solutions/}, {@code trainer/}, the stubs'
     * golden results), sorted: an exercise half added or half removed shows here.
     */
    public static List<String> namesInAnyPart(Path root) {
        TreeSet<String> all = new TreeSet<>();
        for (String folder : List.of("exercises", SOLUTIONS, TRAINER, "grader/src/test/resources/golden")) {
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
     * Whether the course holds its answers: {@code solutions/}, with each exercise's reference solution, mutants,
     * alternatives and their golden results (a learners' template leaves the folder out).
     */
    public static boolean hasAnswers(Path root) {
        return Files.isDirectory(root.resolve(SOLUTIONS));
    }

    /**
     * The parts of {@code exercise} missing from the course folder, one line each ("the mutants:
     * solutions/NN-name/mutants"). An {@link Part#optional} part counts only where the course has its folder
     * ({@code solutions/}, {@code trainer/}).
     */
    public static List<String> missing(Path root, String exercise) {
        List<String> out = new ArrayList<>();
        for (Part part : Part.values()) {
            if (part.optionalFolder()
                    .filter(folder -> !Files.isDirectory(root.resolve(folder)))
                    .isPresent()) {
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
