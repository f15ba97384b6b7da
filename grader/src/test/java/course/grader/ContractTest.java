package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every exercise's README states its contract as numbered sentences, and ties each sentence to the tests that
 * check it and to the mutants (wrong solutions that break that sentence alone) that prove those tests fail
 * without it. {@link MutantsIT} grades the mutants; this test checks that the tables hold together.
 */
class ContractTest {
    /** A mutant's file name: the sentence it breaks, then what it does ({@code s3-reuses-threads.diff}). */
    static final Pattern MUTANT = Pattern.compile("s(\\d+)-[a-z0-9-]+\\.diff");

    /** A hint: {@code - **N.** text [notebook NN, § heading](../../notebooks/NN-name.ipynb)}. */
    private static final Pattern HINT = Pattern.compile("^- \\*\\*(\\d+)\\.\\*\\* ");

    private static final Pattern SECTION_LINK =
            Pattern.compile("\\[notebook \\d\\d, § ([^\\]]+)\\]\\((\\.\\./\\.\\./notebooks/[^)]+\\.ipynb)\\)");

    @Test
    void aContractIsReadFromItsReadme() {
        Contract c = Contract.parse(
                "00-demo",
                List.of(
                        "# Demo",
                        "## Your task",
                        "1. Not the contract.",
                        "## The contract",
                        "Read it.",
                        "",
                        "1. The first sentence,",
                        "   which goes on.",
                        "   - Tests: `first`, `second`",
                        "2. The second one.",
                        "   - Tests: `third`",
                        "",
                        "## Hints",
                        "3. Not the contract either."));
        assertEquals(
                List.of(
                        new Contract.Sentence(1, "The first sentence, which goes on.", List.of("first", "second")),
                        new Contract.Sentence(2, "The second one.", List.of("third"))),
                c.sentences());
    }

    @Test
    void aSentenceWithoutTestsNamesNone() {
        Contract c =
                Contract.parse("00-demo", List.of("## The contract", "1. Untested.", "2. Tested.", "   - Tests: `t`"));
        assertEquals(List.of(), c.sentence(1).tests());
        assertEquals(List.of("t"), c.sentence(2).tests());
    }

    @TestFactory
    List<DynamicTest> everySentenceIsTestedAndEveryTestChecksASentence() {
        List<DynamicTest> checks = new ArrayList<>();
        for (String exercise : Courses.selected()) {
            checks.add(DynamicTest.dynamicTest(exercise, () -> {
                Contract contract = Contract.of(Courses.root(), exercise);
                List<Contract.Sentence> sentences = contract.sentences();
                assertFalse(
                        sentences.isEmpty(),
                        exercise + "'s README has no numbered sentences under '" + Contract.HEADING + "'");
                assertEquals(
                        IntStream.rangeClosed(1, sentences.size()).boxed().toList(),
                        sentences.stream().map(Contract.Sentence::number).toList(),
                        exercise + ": the sentences are numbered 1, 2, 3, … in order");
                Set<String> methods = Contract.testMethods(Courses.root(), exercise);
                Set<String> named = new TreeSet<>();
                for (Contract.Sentence s : sentences) {
                    assertFalse(
                            s.tests().isEmpty(), exercise + " sentence " + s.number() + " names no test: " + s.text());
                    for (String t : s.tests()) {
                        assertTrue(
                                methods.contains(t),
                                exercise + " sentence " + s.number() + " names `" + t
                                        + "`, which is not a test of the exercise (its tests: " + methods + ")");
                    }
                    named.addAll(s.tests());
                }
                Set<String> unnamed = new TreeSet<>(methods);
                unnamed.removeAll(named);
                assertEquals(Set.of(), unnamed, exercise + ": tests that check no sentence of the contract");
            }));
        }
        return checks;
    }

    @TestFactory
    @NeedsAnswers
    List<DynamicTest> everySentenceHasAMutantThatBreaksItAlone() {
        List<DynamicTest> checks = new ArrayList<>();
        for (String exercise : Courses.selected()) {
            checks.add(DynamicTest.dynamicTest(exercise, () -> {
                Contract contract = Contract.of(Courses.root(), exercise);
                Set<Integer> broken = new TreeSet<>();
                for (Path diff : mutants(exercise)) {
                    String name = diff.getFileName().toString();
                    Matcher m = MUTANT.matcher(name);
                    assertTrue(m.matches(), exercise + "/" + name + " is not named sN-what-it-does.diff");
                    int n = Integer.parseInt(m.group(1));
                    contract.sentence(n); // the sentence exists
                    broken.add(n);
                }
                for (Contract.Sentence s : contract.sentences()) {
                    assertTrue(
                            broken.contains(s.number()),
                            exercise + " sentence " + s.number() + " has no mutant (solutions/" + exercise
                                    + "/mutants/s" + s.number() + "-….diff): " + s.text());
                }
            }));
        }
        return checks;
    }

    /**
     * Each README ends its contract with hints: a hint starts with the sentence it helps with ({@code - **N.**})
     * and links the notebook section that teaches it, by the section's heading, which must be in the notebook.
     */
    @TestFactory
    List<DynamicTest> everyHintPointsAtASentenceAndANotebookSection() {
        List<DynamicTest> checks = new ArrayList<>();
        for (String exercise : Courses.selected()) {
            checks.add(DynamicTest.dynamicTest(exercise, () -> {
                Path readme = Contract.readme(Courses.root(), exercise);
                List<String> hints = hints(Contract.section(Files.readAllLines(readme), "## Hints"));
                assertFalse(hints.isEmpty(), exercise + "'s README has no '## Hints' with hints");
                Contract contract = Contract.of(Courses.root(), exercise);
                for (String hint : hints) {
                    Matcher m = HINT.matcher(hint);
                    assertTrue(m.find(), exercise + ": a hint starts with its sentence (- **N.** …): " + hint);
                    contract.sentence(Integer.parseInt(m.group(1)));
                    Matcher link = SECTION_LINK.matcher(hint);
                    assertTrue(
                            link.find(),
                            exercise + ": a hint links the notebook section that teaches it"
                                    + " ([notebook NN, § heading](../../notebooks/NN-name.ipynb)): " + hint);
                    Path notebook = readme.getParent().resolve(link.group(2)).normalize();
                    assertTrue(Files.isRegularFile(notebook), exercise + ": the hint links " + notebook);
                    assertTrue(
                            headings(notebook).contains(link.group(1)),
                            exercise + ": " + notebook.getFileName() + " has no heading '" + link.group(1) + "'");
                }
            }));
        }
        return checks;
    }

    /** The hints of a Hints section, each joined onto one line. */
    static List<String> hints(List<String> section) {
        List<String> hints = new ArrayList<>();
        for (String line : section) {
            if (line.startsWith("- ")) {
                hints.add(line);
            } else if (!hints.isEmpty() && line.startsWith("  ") && !line.isBlank()) {
                hints.set(hints.size() - 1, hints.getLast() + " " + line.strip());
            }
        }
        return hints;
    }

    /** The markdown headings of a notebook, without their {@code #}s. */
    static Set<String> headings(Path notebook) throws IOException {
        Set<String> out = new TreeSet<>();
        for (JsonNode cell : new ObjectMapper().readTree(notebook.toFile()).path("cells")) {
            if (cell.path("cell_type").asText().equals("markdown")) {
                StringBuilder text = new StringBuilder();
                cell.path("source").forEach(line -> text.append(line.asText()));
                if (cell.path("source").isTextual()) {
                    text.append(cell.path("source").asText());
                }
                text.toString()
                        .lines()
                        .filter(l -> l.startsWith("#"))
                        .forEach(l -> out.add(l.replaceFirst("^#+\\s*", "").strip()));
            }
        }
        return out;
    }

    static List<Path> mutants(String exercise) throws IOException {
        try (Stream<Path> s = Files.list(MutantsIT.mutantsDir(exercise))) {
            return s.filter(p -> p.toString().endsWith(".diff")).sorted().toList();
        }
    }
}
