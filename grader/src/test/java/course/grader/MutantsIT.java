package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.difflib.patch.PatchFailedException;
import com.github.difflib.unifieddiff.UnifiedDiff;
import com.github.difflib.unifieddiff.UnifiedDiffFile;
import com.github.difflib.unifieddiff.UnifiedDiffReader;
import course.base.Exercises;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every plausible wrong solution scores below full marks. A mutant is committed as a unified diff against
 * the reference solution ({@code solutions/NN-name/mutants/sN-what-it-does.diff}, N the contract sentence it breaks), so
 * that the one mistake it makes reads at a glance; the test applies it to a copy of the solution and grades
 * that copy.
 */
@NeedsAnswers
class MutantsIT {
    @TempDir
    static Path work;

    /** An exercise's mutants: {@code solutions/NN-name/mutants}, beside its reference solution. */
    static Path mutantsDir(String exercise) {
        return Courses.part(exercise, Exercises.Part.MUTANTS);
    }

    /** The mutants' diffs, per exercise: every folder of {@code solutions/} that has mutants. */
    private static Map<String, List<Path>> mutants() throws IOException {
        Map<String, List<Path>> all = new TreeMap<>();
        try (Stream<Path> exercises = Files.list(Courses.root().resolve(Exercises.SOLUTIONS))) {
            for (Path ex : exercises.sorted().toList()) {
                Path dir = mutantsDir(ex.getFileName().toString());
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                try (Stream<Path> ms = Files.list(dir)) {
                    all.put(
                            ex.getFileName().toString(),
                            ms.filter(m -> m.toString().endsWith(".diff"))
                                    .sorted()
                                    .toList());
                }
            }
        }
        return all;
    }

    private static String mutantName(Path diff) {
        String f = diff.getFileName().toString();
        return f.substring(0, f.length() - ".diff".length());
    }

    /** Applies a mutant's unified diff to the solution's sources in {@code sources}. */
    static void applyMutant(Path diff, Path sources) throws IOException, PatchFailedException {
        UnifiedDiff unified;
        try (var in = Files.newInputStream(diff)) {
            unified = UnifiedDiffReader.parseUnifiedDiff(in);
        }
        assertFalse(unified.getFiles().isEmpty(), diff + " changes no file");
        for (UnifiedDiffFile file : unified.getFiles()) {
            Path target = Courses.find(
                    sources, Path.of(file.getToFile()).getFileName().toString());
            List<String> original = Files.readAllLines(target);
            List<String> patched = file.getPatch().applyTo(original);
            assertNotEquals(original, patched, diff + " leaves " + target.getFileName() + " as it is");
            Files.write(target, patched);
        }
    }

    @Test
    void everyExerciseHasMutants() throws Exception {
        // ContractTest checks that each sentence of an exercise's contract has a mutant of its own.
        assertEquals(Grader.exercises(), List.copyOf(mutants().keySet()), "exercises with mutants");
    }

    /**
     * Each mutant breaks one sentence of its exercise's contract ({@code sN-….diff} breaks sentence N) and keeps
     * the rest: it must score below full marks, and among the tests it fails must be one that the README names
     * for sentence N. So every sentence has a test that fails without it.
     */
    @TestFactory
    List<DynamicTest> everyMutantFailsATestOfTheSentenceItBreaks() throws Exception {
        // Each exercise's tests are compiled once: a mutant changes method bodies and private members, never the API
        // or a constant that the tests compile against.
        Grader grader = new Grader(Courses.root()).reusingCompiledTests(Files.createDirectories(work.resolve("tests")));
        // Eight mutants graded per core at a time: a grade mostly waits (its forked test JVM's start, javac, and the
        // sleeps of the sentence's properties), and a mutant only has to fail, which a busy machine cannot prevent.
        // All 234 mutants on 2 cores: 2 per core 148 s (60 % busy), 4 per core 112 s, 8 per core 91 s (90 % busy).
        ExecutorService pool = Executors.newFixedThreadPool(
                Math.min(16, 8 * Runtime.getRuntime().availableProcessors()));
        List<DynamicTest> tests = new ArrayList<>();
        for (Map.Entry<String, List<Path>> e : mutants().entrySet()) {
            String exercise = e.getKey();
            if (!Courses.selected().contains(exercise)) {
                continue;
            }
            Contract contract = Contract.of(Courses.root(), exercise);
            for (Path mutant : e.getValue()) {
                String name = mutantName(mutant);
                Matcher m = ContractTest.MUTANT.matcher(mutant.getFileName().toString());
                assertTrue(m.matches(), mutant + " is not named sN-what-it-does.diff");
                Contract.Sentence sentence = contract.sentence(Integer.parseInt(m.group(1)));
                Path sources = work.resolve(exercise).resolve(name);
                Courses.copyTree(Courses.solution(exercise), sources);
                applyMutant(mutant, sources);
                // Only the sentence's tests run: one of them failing is what this requires, and it puts the grade
                // below full marks whatever the other tests do. Each exercise's first mutant is also graded whole,
                // by GoldenResultsIT.
                Future<ExerciseResult> graded =
                        pool.submit(() -> grader.only(sentence.tests()).grade(exercise, sources, null));
                tests.add(DynamicTest.dynamicTest(exercise + "/" + name, () -> {
                    ExerciseResult r = graded.get();
                    assertTrue(r.problems().isEmpty(), "the mutant should compile and run: " + r.problems());
                    assertTrue(r.maxScore() > 0, "no tests were graded");
                    List<TestResult> failed =
                            r.tests().stream().filter(t -> !t.passed()).toList();
                    String caughtBy = failed.stream()
                            .map(t -> t.method() + " ["
                                    + t.message().lines().findFirst().orElse("") + "]")
                            .collect(Collectors.joining("\n  "));
                    System.out.printf("%s/%s: %d/%d%n  %s%n", exercise, name, r.score(), r.maxScore(), caughtBy);
                    assertTrue(
                            r.score() < r.maxScore(),
                            "the mutant scored full marks: " + r.score() + "/" + r.maxScore());
                    assertTrue(
                            failed.stream().anyMatch(t -> sentence.tests().contains(t.method())),
                            "the mutant breaks sentence " + sentence.number() + " (" + sentence.text()
                                    + "), but none of its tests " + sentence.tests() + " failed; it failed: "
                                    + caughtBy);
                }));
            }
        }
        pool.shutdown();
        return tests;
    }
}
