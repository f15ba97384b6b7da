package course.grader;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./course grade --class DIR} on six generated learners (the solutions, the stubs, two mutants, code
 * that does not compile, code that calls {@code System.exit}), some handing in their {@code exercises/} folder
 * and some bare files: every learner's scores in the CSV equal what {@code ./course grade} gives that learner
 * on their own, a broken learner costs only their own row, and the HTML report has its parts. Two exercises
 * keep it short; the grader treats every exercise alike.
 */
@NeedsAnswers
class ClassReportIT {
    static final List<String> EXERCISES = List.of("02-cafe", "05-throttling");

    @TempDir
    static Path work;

    static Path classDir;
    static ClassReport report;
    static Path index;
    static String progress;
    /** Each learner's own course folder, as ./course grade would see it. */
    static final Map<String, Path> own = new LinkedHashMap<>();

    @BeforeAll
    static void gradeTheClass() throws Exception {
        classDir = work.resolve("class");
        Path solutions = Courses.solvedCourse(work.resolve("solved"));

        // 1. the solutions, as an exercises/ folder
        Courses.copyTree(solutions.resolve("exercises"), classDir.resolve("ada/exercises"));
        // 2. the stubs, as a whole copy of the course
        Courses.copyTree(Courses.stubCourse(work.resolve("stubbed")), classDir.resolve("bob/vthreads-course"));
        // 3. a mutant of 02, as bare files (with the solution of 05)
        Path carl = classDir.resolve("carl");
        for (String e : EXERCISES) {
            try (var s = Files.walk(Courses.solution(e))) {
                for (Path f : s.filter(Files::isRegularFile).toList()) {
                    Files.createDirectories(carl);
                    Files.copy(f, carl.resolve(f.getFileName()));
                }
            }
        }
        // a mutant that fails fast: one that serves the orders one by one (s4) waits out every brew in turn,
        // 18 s of a grading against 3 s, and this class grades carl twice
        MutantsIT.applyMutant(MutantsIT.mutantsDir("02-cafe").resolve("s6-counts-customers-not-brews.diff"), carl);
        // 4. a mutant of 05, as an exercises/ folder
        Courses.copyTree(solutions.resolve("exercises"), classDir.resolve("dana/exercises"));
        MutantsIT.applyMutant(
                MutantsIT.mutantsDir("05-throttling").resolve("s5-permit-leak.diff"),
                classDir.resolve("dana/exercises/05-throttling"));
        // 5. 02 does not compile
        Courses.copyTree(solutions.resolve("exercises"), classDir.resolve("eve/exercises"));
        Path cafe = Courses.find(classDir.resolve("eve/exercises/02-cafe"), "Cafe.java");
        Files.writeString(cafe, Files.readString(cafe).replaceFirst(";", ""));
        // 6. 05 calls System.exit, as one bare file (02 not handed in)
        Path throttle = Courses.find(Courses.solution("05-throttling"), "Throttle.java");
        Files.createDirectories(classDir.resolve("finn"));
        Files.writeString(
                classDir.resolve("finn/Throttle.java"),
                Files.readString(throttle).replaceFirst("\\{", "{\n    static { System.exit(7); }\n"));

        own.put("ada", classDir.resolve("ada"));
        own.put("bob", classDir.resolve("bob/vthreads-course"));
        own.put("carl", bareFilesCourse(carl, "carl"));
        own.put("dana", classDir.resolve("dana"));
        own.put("eve", classDir.resolve("eve"));
        own.put("finn", bareFilesCourse(classDir.resolve("finn"), "finn"));

        ByteArrayOutputStream console = new ByteArrayOutputStream();
        report = ClassReport.grade(
                new Grader(Courses.root()),
                classDir,
                EXERCISES,
                new PrintStream(console, true, StandardCharsets.UTF_8),
                2); // two learners at once on any machine: what a trainer's laptop does by default
        progress = console.toString(StandardCharsets.UTF_8);
        System.out.print(progress);
        index = report.write(work.resolve("report"));
        System.out.println(report.summaryLine());
    }

    /** A course folder whose exercises are the stubs, with the learner's bare files in their packages. */
    private static Path bareFilesCourse(Path files, String name) throws Exception {
        Path course = Courses.stubCourse(work.resolve("own-" + name));
        try (var s = Files.list(files)) {
            for (Path f : s.toList()) {
                Path stub = null;
                for (String e : EXERCISES) {
                    try (var w =
                            Files.walk(course.resolve("exercises").resolve(e).resolve("src/main/java"))) {
                        Path found = w.filter(p -> p.getFileName().equals(f.getFileName()))
                                .findFirst()
                                .orElse(null);
                        stub = found != null ? found : stub;
                    }
                }
                Files.copy(f, stub, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return course;
    }

    @Test
    void everyLearnersScoresEqualWhatTheGraderGivesThemAlone() throws Exception {
        List<Map<String, String>> csv = readCsv(work.resolve("report/class-report.csv"));
        assertEquals(6, csv.size(), "rows");
        assertEquals(
                List.copyOf(own.keySet()),
                csv.stream().map(r -> r.get("learner")).toList(),
                "learners");
        // Each learner alone, as ./course grade in their own course folder, one per core at a time. The solutions
        // (ada) and the stubs (bob) alone are GoldenResultsIT's golden files, checked there: read, not regraded.
        Map<String, java.util.concurrent.Future<int[]>> graded = new LinkedHashMap<>();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.max(1, Runtime.getRuntime().availableProcessors()))) {
            for (Map.Entry<String, Path> e : own.entrySet()) {
                String golden = Map.of("ada", "solution", "bob", "stubs").get(e.getKey());
                if (golden != null) {
                    graded.put(
                            e.getKey(), java.util.concurrent.CompletableFuture.completedFuture(goldenScores(golden)));
                    continue;
                }
                Files.writeString(e.getValue().resolve("course"), "#!/bin/sh\n");
                graded.put(
                        e.getKey(),
                        pool.submit(() -> new Grader(e.getValue())
                                .grade(EXERCISES, Grader.Source.EXERCISES).exercises().stream()
                                        .flatMap(x -> x.tests().stream())
                                        .mapToInt(TestResult::score)
                                        .toArray()));
            }
        }
        for (Map<String, String> row : csv) {
            String learner = row.get("learner");
            int[] expected = graded.get(learner).get();
            int[] actual = report.tests().stream()
                    .mapToInt(k -> Integer.parseInt(row.get(k.label())))
                    .toArray();
            assertArrayEquals(expected, actual, learner + ": per-test points, alone " + Arrays.toString(expected));
            assertEquals(Arrays.stream(expected).sum(), Integer.parseInt(row.get("score")), learner + ": score");
        }
    }

    /** The rows of a CSV file (RFC 4180: quoted fields may hold commas, quotes and line breaks), by column name. */
    static List<Map<String, String>> readCsv(Path file) throws java.io.IOException {
        String text = Files.readString(file);
        List<List<String>> lines = new java.util.ArrayList<>();
        List<String> line = new java.util.ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                line.add(field.toString());
                field.setLength(0);
            } else if (c == '\n') {
                line.add(field.toString());
                field.setLength(0);
                lines.add(line);
                line = new java.util.ArrayList<>();
            } else if (c != '\r') {
                field.append(c);
            }
        }
        List<String> header = lines.getFirst();
        List<Map<String, String>> rows = new java.util.ArrayList<>();
        for (List<String> l : lines.subList(1, lines.size())) {
            assertEquals(header.size(), l.size(), "fields in " + l);
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) row.put(header.get(i), l.get(i));
            rows.add(row);
        }
        return rows;
    }

    /** The per-test points of EXERCISES in one kind of golden results.json (see GoldenResultsIT). */
    private static int[] goldenScores(String kind) throws java.io.IOException {
        List<Integer> scores = new java.util.ArrayList<>();
        for (String e : EXERCISES) {
            for (var test : GoldenResultsIT.JSON
                    .readTree(GoldenResultsIT.golden(e, kind).toFile())
                    .get("tests")) {
                scores.add(test.get("score").asInt());
            }
        }
        return scores.stream().mapToInt(Integer::intValue).toArray();
    }

    @Test
    void brokenCodeCostsOnlyItsOwnRowAndExercise() {
        Map<String, ClassReport.Learner> by = new LinkedHashMap<>();
        report.learners().forEach(l -> by.put(l.name(), l));
        int max = report.maxScore();
        assertAll(
                () -> assertEquals(
                        Courses.maxScore("02-cafe") + Courses.maxScore("05-throttling"),
                        max,
                        "02-cafe and 05-throttling"),
                () -> assertEquals(max, by.get("ada").score(), "the solutions"),
                () -> assertEquals(0, by.get("bob").score(), "the stubs"),
                () -> assertTrue(
                        by.get("carl").score() > 0 && by.get("carl").score() < max,
                        "mutant 02: " + by.get("carl").score()),
                () -> assertTrue(
                        by.get("dana").score() > 0 && by.get("dana").score() < max,
                        "mutant 05: " + by.get("dana").score()),
                () -> assertEquals(
                        Courses.maxScore("05-throttling"), by.get("eve").score(), "02 does not compile, 05 is right"),
                () -> assertTrue(
                        by.get("eve").problems().startsWith("02-cafe: your code does not compile:"),
                        by.get("eve").problems()),
                () -> assertEquals(0, by.get("finn").score(), "System.exit in 05, 02 not handed in"),
                () -> assertTrue(
                        by.get("finn").find(report.tests().getLast()).message().contains("System.exit(7)"),
                        by.get("finn").find(report.tests().getLast()).message()));
    }

    @Test
    void theConsoleShowsProgressAndTheTimePerLearner() {
        assertTrue(progress.contains("[1/6] ada …"), progress);
        int max = Courses.maxScore("02-cafe") + Courses.maxScore("05-throttling");
        assertTrue(progress.matches("(?s).*\\[6/6] finn: 0/" + max + " points in \\d+\\.\\d s.*"), progress);
        assertTrue(
                report.summaryLine()
                        .matches("6 learners graded in \\d+ s \\(\\d+\\.\\d s per learner\\); mean score .*"),
                report.summaryLine());
    }

    @Test
    void aClassIsGradedWithAtLeastOneJob() {
        var none = new PrintStream(java.io.OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> ClassReport.grade(new Grader(Courses.root()), classDir, EXERCISES, none, 0));
        assertTrue(e.getMessage().contains("at least 1"), e.getMessage());
        assertTrue(progress.indexOf("[1/6] ada …") < progress.indexOf("[1/6] ada: "), "a learner's start comes first");
        assertEquals(
                6,
                progress.lines()
                        .filter(l -> l.matches("\\[\\d/6] \\w+: .* in \\d+\\.\\d s"))
                        .count(),
                "one result line per learner: " + progress);
    }

    @Test
    void theHtmlReportHasTheHistogramAndTheTestsWorstFirst() throws Exception {
        String html = Files.readString(index);
        byte[] png = Files.readAllBytes(index.resolveSibling("scores.png"));
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4), "scores.png is a PNG");
        List<ClassReport.TestStats> stats = report.stats();
        for (int i = 1; i < stats.size(); i++) {
            assertTrue(stats.get(i - 1).rate() <= stats.get(i).rate(), "worst first at " + i);
        }
        ClassReport.TestStats worst = stats.getFirst();
        assertAll(
                () -> assertTrue(html.contains("<img src=\"scores.png\""), "the histogram"),
                () -> assertTrue(html.contains("class-report.csv"), "a link to the CSV"),
                () -> assertEquals(report.tests().size(), stats.size(), "one row per test"),
                () -> assertTrue(
                        html.indexOf(ClassReport.esc(worst.key().label()))
                                < html.indexOf(
                                        ClassReport.esc(stats.getLast().key().label())),
                        "worst first in the page"),
                () -> assertTrue(
                        worst.commonCount() >= 1
                                && html.contains(ClassReport.esc(
                                        worst.commonFailure().length() > 100
                                                ? worst.commonFailure().substring(0, 100)
                                                : worst.commonFailure())),
                        "the most common failure: " + worst.commonFailure()),
                () -> assertTrue(html.contains("s per learner"), "the time per learner"));
    }
}
