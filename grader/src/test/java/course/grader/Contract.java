package course.grader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * An exercise's contract, as its README states it: the numbered sentences under {@code ## The contract}, each
 * followed by a line {@code - Tests: `method`, `method`} that names the course's tests that check it (as
 * Exercism's {@code tests.toml} ties its canonical cases to tests).
 *
 * <pre>
 * ## The contract
 * 1. `count &lt; 0` throws `IllegalArgumentException`.
 *    - Tests: `negativeCountIsRejected`
 * </pre>
 *
 * @param exercise  the exercise, {@code NN-name}
 * @param sentences the sentences, in the README's order
 */
record Contract(String exercise, List<Sentence> sentences) {

    /**
     * One sentence of the contract.
     *
     * @param number its number in the README
     * @param text   what it says, on one line
     * @param tests  the test methods it names
     */
    record Sentence(int number, String text, List<String> tests) {}

    static final String HEADING = "## The contract";
    private static final Pattern ITEM = Pattern.compile("^(\\d+)\\. (.*)$");
    private static final Pattern TESTS_LINE = Pattern.compile("^\\s+- Tests: (.*)$");
    private static final Pattern NAME = Pattern.compile("`([A-Za-z_$][A-Za-z0-9_$]*)`");
    private static final Pattern TEST_METHOD = Pattern.compile(
            "@(?:Test|ParameterizedTest|RepeatedTest|Property|Example)\\b[\\s\\S]*?\\bvoid\\s+(\\w+)\\s*\\(");

    /** The README of {@code exercise} in the course folder {@code root}. */
    static Path readme(Path root, String exercise) {
        return root.resolve("exercises").resolve(exercise).resolve("README.md");
    }

    /** Reads the contract of {@code exercise} from its README; an empty list of sentences if it has none. */
    static Contract of(Path root, String exercise) {
        try {
            return parse(exercise, Files.readAllLines(readme(root, exercise)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses a README's lines. */
    static Contract parse(String exercise, List<String> lines) {
        List<Sentence> sentences = new ArrayList<>();
        Integer number = null;
        StringBuilder text = new StringBuilder();
        List<String> tests = new ArrayList<>();
        for (String line : section(lines, HEADING)) {
            Matcher item = ITEM.matcher(line);
            Matcher named = TESTS_LINE.matcher(line);
            boolean continues = !line.isBlank() && Character.isWhitespace(line.charAt(0));
            if (number != null && (item.matches() || !(line.isBlank() || continues))) {
                sentences.add(new Sentence(number, text.toString(), List.copyOf(tests)));
                number = null;
            }
            if (item.matches()) {
                number = Integer.parseInt(item.group(1));
                text.setLength(0);
                text.append(item.group(2).strip());
                tests.clear();
            } else if (number != null && named.matches()) {
                Matcher n = NAME.matcher(named.group(1));
                while (n.find()) {
                    tests.add(n.group(1));
                }
            } else if (number != null && continues) {
                text.append(' ').append(line.strip());
            }
        }
        if (number != null) {
            sentences.add(new Sentence(number, text.toString(), List.copyOf(tests)));
        }
        return new Contract(exercise, List.copyOf(sentences));
    }

    /** The lines of a README's section: after the line {@code heading} and before the next {@code ## } heading. */
    static List<String> section(List<String> lines, String heading) {
        List<String> out = new ArrayList<>();
        boolean inside = false;
        for (String line : lines) {
            if (line.startsWith("## ")) {
                if (inside) {
                    break;
                }
                inside = line.strip().equals(heading);
            } else if (inside) {
                out.add(line);
            }
        }
        return out;
    }

    /** The sentence numbered {@code number}. */
    Sentence sentence(int number) {
        return sentences.stream()
                .filter(s -> s.number() == number)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(exercise + " has no sentence " + number));
    }

    /** The test methods of the course's (visible) tests of {@code exercise}, from their sources. */
    static Set<String> testMethods(Path root, String exercise) {
        Set<String> methods = new LinkedHashSet<>();
        Path tests = root.resolve("exercises").resolve(exercise).resolve("src/test/java");
        try (Stream<Path> files = Files.walk(tests)) {
            for (Path file :
                    files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                Matcher m = TEST_METHOD.matcher(Files.readString(file));
                while (m.find()) {
                    methods.add(m.group(1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return methods;
    }
}
