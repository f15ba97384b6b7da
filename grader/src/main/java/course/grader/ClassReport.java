package course.grader;

import course.base.FileTrees;
import course.base.ReportTable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code ./course grade --class DIR}: grades every learner's folder in {@code DIR} on its own, with the same
 * grader and limits as {@code ./course grade}, and writes a report for the trainer: a CSV with one row per
 * learner and one column per test, and an {@code index.html} with the score histogram, the pass rate of
 * each test (worst first) and each test's most common failure message.
 *
 * @param learners one entry per learner, in the order of their folders' names
 * @param tests    every test graded, as {@code NN-name › test name}, in the course's order
 * @param elapsed  how long grading the class took
 */
public record ClassReport(List<Learner> learners, List<TestKey> tests, Duration elapsed) {

    /**
     * One learner's grade.
     *
     * @param name    the learner's folder name
     * @param report  the grade ({@code null} when grading this learner failed altogether)
     * @param elapsed how long grading this learner took
     * @param failure why grading failed ({@code null} when it ran)
     */
    public record Learner(String name, GradeReport report, Duration elapsed, String failure) {
        /** The points of one test (0 when it was not graded). */
        int points(TestKey key) {
            TestResult t = find(key);
            return t == null ? 0 : t.score();
        }

        TestResult find(TestKey key) {
            if (report == null) {
                return null;
            }
            for (ExerciseResult e : report.exercises()) {
                if (e.exercise().equals(key.exercise())) {
                    for (TestResult t : e.tests()) {
                        if (t.name().equals(key.name())) {
                            return t;
                        }
                    }
                }
            }
            return null;
        }

        int score() {
            return report == null ? 0 : report.score();
        }

        /** The points of one exercise. */
        int exerciseScore(String exercise) {
            return report == null
                    ? 0
                    : report.exercises().stream()
                            .filter(e -> e.exercise().equals(exercise))
                            .mapToInt(ExerciseResult::score)
                            .sum();
        }

        /** The first problem that stopped an exercise from being tested, if any, prefixed by its exercise. */
        String problems() {
            if (failure != null) {
                return failure;
            }
            List<String> out = new ArrayList<>();
            for (ExerciseResult e : report.exercises()) {
                if (!e.problems().isEmpty()) {
                    String p = e.problems().getFirst();
                    if (e.problems().size() > 1 && p.endsWith(":")) {
                        p += " " + e.problems().get(1);
                    }
                    out.add(e.exercise() + ": " + p);
                }
            }
            return String.join("; ", out);
        }
    }

    /** A test of the course, with its points and visibility. */
    public record TestKey(String exercise, String name, int maxScore, String visibility) {
        String label() {
            return exercise + " › " + name;
        }
    }

    /** Creates a report; the lists are copied. */
    public ClassReport {
        learners = List.copyOf(learners);
        tests = List.copyOf(tests);
    }

    /**
     * Grades every folder in {@code classDir}, as many learners at once as this machine has cores, printing
     * progress.
     *
     * @see #grade(Grader, Path, List, PrintStream, int)
     */
    public static ClassReport grade(Grader grader, Path classDir, List<String> exercises, PrintStream progress)
            throws IOException {
        return grade(grader, classDir, exercises, progress, Grader.defaultJobs());
    }

    /**
     * Grades every folder in {@code classDir}, {@code jobs} learners at once, printing a line when each learner
     * starts and one when each is graded. Each learner's exercises are graded one after the other, each in test
     * JVMs of its own, so learners never share a JVM. A grader failure on one folder costs only that learner's row.
     *
     * @param grader    the grader (its course folder gives the tests and the stubs)
     * @param classDir  one folder per learner: their {@code exercises/} (or a copy of the course), or bare files
     * @param exercises the exercises to grade; empty for all
     * @param progress  where to print the progress lines
     * @param jobs      learners graded at once, at least 1
     */
    public static ClassReport grade(
            Grader grader, Path classDir, List<String> exercises, PrintStream progress, int jobs) throws IOException {
        if (jobs < 1) throw new IllegalArgumentException("jobs must be at least 1, not " + jobs);
        List<String> chosen = exercises.isEmpty() ? Grader.exercises() : exercises;
        List<Path> folders;
        try (Stream<Path> s = Files.list(classDir)) {
            folders = s.filter(Files::isDirectory)
                    .filter(p -> !p.getFileName().toString().startsWith("."))
                    .sorted()
                    .toList();
        }
        if (folders.isEmpty()) {
            throw new IllegalArgumentException(classDir + " holds no learner folders");
        }
        long t0 = System.nanoTime();
        int n = folders.size();
        // jobs bounds how many learners' test JVMs run at once; the learners keep the folders' order.
        List<Learner> learners = Grader.eachAtOnce(
                java.util.stream.IntStream.range(0, n).boxed().toList(),
                jobs,
                i -> gradeLearner(grader, folders.get(i), chosen, i + 1, n, progress));
        List<TestKey> keys = new ArrayList<>();
        for (Learner l : learners) {
            if (l.report() == null) {
                continue;
            }
            for (ExerciseResult e : l.report().exercises()) {
                for (TestResult t : e.tests()) {
                    TestKey k = new TestKey(t.exercise(), t.name(), t.maxScore(), t.visibility());
                    if (keys.stream()
                            .noneMatch(x -> x.exercise().equals(k.exercise())
                                    && x.name().equals(k.name()))) {
                        keys.add(k);
                    }
                }
            }
        }
        keys.sort(Comparator.comparingInt((TestKey k) -> chosen.indexOf(k.exercise())));
        return new ClassReport(learners, keys, Duration.ofNanos(System.nanoTime() - t0));
    }

    /** Grades one learner's folder, printing a line when it starts and one when it is graded. */
    private static Learner gradeLearner(
            Grader grader, Path folder, List<String> exercises, int number, int of, PrintStream progress) {
        String name = folder.getFileName().toString();
        synchronized (progress) {
            progress.printf(Locale.ROOT, "[%d/%d] %s …%n", number, of, name);
            progress.flush();
        }
        long started = System.nanoTime();
        Learner learner;
        try {
            GradeReport report = gradeOne(grader, folder, exercises, 1); // jobs already bounds the test JVMs
            learner = new Learner(name, report, Duration.ofNanos(System.nanoTime() - started), null);
        } catch (RuntimeException | IOException e) {
            learner = new Learner(
                    name,
                    null,
                    Duration.ofNanos(System.nanoTime() - started),
                    "not graded: the grader failed on this folder: " + e);
        }
        synchronized (progress) {
            progress.printf(
                    Locale.ROOT,
                    "[%d/%d] %s: %s in %.1f s%n",
                    number,
                    of,
                    name,
                    learner.report() == null
                            ? learner.failure()
                            : learner.report().score() + "/" + learner.report().maxScore() + " points",
                    learner.elapsed().toMillis() / 1000.0);
            progress.flush();
        }
        return learner;
    }

    /** Grades one learner's folder in a temporary folder of its own, {@code jobs} exercises at once. */
    static GradeReport gradeOne(Grader grader, Path folder, List<String> exercises, int jobs) throws IOException {
        Path work = Files.createTempDirectory("course-class-");
        try {
            long t0 = System.nanoTime();
            Submission.Layout layout = Submission.layout(grader.root(), folder, exercises, work.resolve("submission"));
            List<ExerciseResult> results = Grader.eachAtOnce(exercises, jobs, e -> {
                ExerciseResult r = grader.grade(e, layout.sources(e), null);
                List<String> notes = new ArrayList<>(layout.notes().getOrDefault(e, List.of()));
                notes.addAll(r.notes());
                return new ExerciseResult(r.exercise(), r.tests(), r.problems(), notes);
            });
            return new GradeReport(
                    Grader.Source.SUBMISSION, grader.profile(), results, Duration.ofNanos(System.nanoTime() - t0));
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    /** The most points possible. */
    public int maxScore() {
        return tests.stream().mapToInt(TestKey::maxScore).sum();
    }

    /** The mean time to grade one learner. */
    public Duration perLearner() {
        return learners.isEmpty()
                ? Duration.ZERO
                : Duration.ofNanos((long) learners.stream()
                        .mapToLong(l -> l.elapsed().toNanos())
                        .average()
                        .orElse(0));
    }

    /** One row per learner: name, score, max, seconds, problems, then the points of every test. */
    public ReportTable toTable() {
        List<String> columns = new ArrayList<>(List.of("learner", "score", "max_score", "seconds", "problems"));
        for (TestKey k : tests) {
            columns.add(k.label() + (TestResult.VISIBLE.equals(k.visibility()) ? "" : " [" + k.visibility() + "]"));
        }
        List<List<Object>> rows = new ArrayList<>();
        for (Learner l : learners) {
            List<Object> row = new ArrayList<>(List.of(
                    l.name(), l.score(), maxScore(), Math.round(l.elapsed().toMillis() / 100.0) / 10.0, l.problems()));
            for (TestKey k : tests) {
                row.add(l.points(k));
            }
            rows.add(row);
        }
        return new ReportTable("class", columns, rows);
    }

    /** Pass rate and most common failure of one test across the class. */
    record TestStats(
            TestKey key,
            int passed,
            int graded,
            String commonFailure,
            int commonCount,
            int failures,
            boolean fromWorkingCode) {
        double rate() {
            return graded == 0 ? 0 : (double) passed / graded;
        }
    }

    /** Every test's pass rate, worst first (ties in the course's order). */
    List<TestStats> stats() {
        List<TestStats> out = new ArrayList<>();
        for (TestKey k : tests) {
            int passed = 0;
            int graded = 0;
            // What to teach again shows in the failures of code that works in part: a learner who passed
            // none of the exercise's tests (not started, or not compiling) says little about this test.
            Map<String, Integer> working = new LinkedHashMap<>();
            Map<String, Integer> all = new LinkedHashMap<>();
            for (Learner l : learners) {
                graded++;
                TestResult t = l.find(k);
                if (t != null && t.passed()) {
                    passed++;
                } else {
                    String m = t == null
                            ? (l.failure() != null ? l.failure() : "not graded")
                            : t.message().lines().findFirst().orElse("failed");
                    all.merge(m, 1, Integer::sum);
                    if (l.exerciseScore(k.exercise()) > 0) {
                        working.merge(m, 1, Integer::sum);
                    }
                }
            }
            Map<String, Integer> messages = working.isEmpty() ? all : working;
            Map.Entry<String, Integer> common = messages.entrySet().stream()
                    .max(Map.Entry.comparingByValue())
                    .orElse(null);
            out.add(new TestStats(
                    k,
                    passed,
                    graded,
                    common == null ? "" : common.getKey(),
                    common == null ? 0 : common.getValue(),
                    messages.values().stream().mapToInt(i -> i).sum(),
                    !working.isEmpty()));
        }
        List<TestStats> sorted = new ArrayList<>(out);
        sorted.sort(Comparator.comparingDouble(TestStats::rate));
        return sorted;
    }

    /** The score histogram: learners per tenth of the maximum, as bins labelled "0–9" … "90–100". */
    Map<String, Integer> histogram() {
        Map<String, Integer> bins = new LinkedHashMap<>();
        for (int b = 0; b < 10; b++) {
            bins.put(b == 9 ? "90–100" : (b * 10) + "–" + (b * 10 + 9), 0);
        }
        List<String> labels = List.copyOf(bins.keySet());
        int max = Math.max(1, maxScore());
        for (Learner l : learners) {
            int bin = Math.min(9, (int) Math.floor(10.0 * l.score() / max));
            bins.merge(labels.get(bin), 1, Integer::sum);
        }
        return bins;
    }

    /**
     * Writes {@code class-report.csv}, {@code scores.png} and {@code index.html} into {@code dir}.
     *
     * @return the {@code index.html} written
     */
    public Path write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("class-report.csv"), toTable().csv());
        Files.write(
                dir.resolve("scores.png"),
                Histogram.png(
                        "Scores of " + learners.size() + " learners (of " + maxScore() + " points)",
                        "score, % of the maximum",
                        histogram()));
        Path index = dir.resolve("index.html");
        Files.writeString(index, html());
        return index;
    }

    /** The summary line, also printed on the console. */
    public String summaryLine() {
        double mean = learners.stream().mapToInt(Learner::score).average().orElse(0);
        return String.format(
                Locale.ROOT,
                "%d learners graded in %.0f s (%.1f s per learner); mean score %.1f of %d",
                learners.size(),
                elapsed.toMillis() / 1000.0,
                perLearner().toMillis() / 1000.0,
                mean,
                maxScore());
    }

    String html() {
        StringBuilder h = new StringBuilder();
        h.append("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8">
                <title>Class report</title>
                <style>
                body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 1100px;
                       color: #222; padding: 0 1em; }
                h1 { margin-bottom: 0.2em; } h2 { margin-top: 1.6em; }
                .summary { color: #555; }
                table { border-collapse: collapse; width: 100%; font-size: 14px; }
                th, td { border-bottom: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; }
                th { background: #f4f4f4; white-space: nowrap; }
                td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
                .bar { display: inline-block; height: 10px; background: #4c78a8; vertical-align: middle; }
                .bar.low { background: #e45756; }
                td.lost { color: #b8322f; }
                .tag { font-size: 11px; background: #eee; border-radius: 3px; padding: 0 4px; color: #555; }
                .msg { color: #444; font-family: ui-monospace, monospace; font-size: 12px; white-space: pre-wrap; }
                img { max-width: 100%; }
                </style></head><body>
                """);
        h.append("<h1>Class report</h1>\n<p class=\"summary\">")
                .append(esc(summaryLine()))
                .append(". ")
                .append(esc(profileSentence()))
                .append(" The same numbers, one row per learner and one column per test,")
                .append(" are in <a href=\"class-report.csv\">class-report.csv</a>.</p>\n");
        h.append("<img src=\"scores.png\" alt=\"histogram of the learners' scores\">\n");

        h.append("<h2>Tests, worst first</h2>\n<table><tr><th>test</th><th>points</th><th>passed</th><th></th>")
                .append("<th>most common failure</th></tr>\n");
        for (TestStats s : stats()) {
            int width = (int) Math.round(120 * s.rate());
            h.append("<tr><td>").append(esc(s.key().label()));
            if (!TestResult.VISIBLE.equals(s.key().visibility())) {
                h.append(" <span class=\"tag\">")
                        .append(esc(s.key().visibility()))
                        .append("</span>");
            }
            h.append("</td><td class=\"num\">")
                    .append(s.key().maxScore())
                    .append("</td><td class=\"num\">")
                    .append(s.passed())
                    .append('/')
                    .append(s.graded())
                    .append(String.format(Locale.ROOT, " (%.0f%%)", 100 * s.rate()))
                    .append("</td><td>")
                    .append("<span class=\"bar")
                    .append(s.rate() < 0.5 ? " low" : "")
                    .append("\" style=\"width:")
                    .append(width)
                    .append("px\"></span></td><td>");
            if (s.failures() > 0) {
                h.append("<span class=\"msg\">")
                        .append(esc(shorten(s.commonFailure(), 300)))
                        .append("</span>")
                        .append(" <span class=\"tag\">")
                        .append(s.commonCount())
                        .append(" of ")
                        .append(s.failures())
                        .append(
                                s.fromWorkingCode()
                                        ? " failing with working code"
                                        : (s.failures() == 1 ? " failure" : " failures"))
                        .append("</span>");
            }
            h.append("</td></tr>\n");
        }
        h.append("</table>\n");

        List<String> exercises =
                tests.stream().map(TestKey::exercise).distinct().toList();
        h.append("<h2>Learners</h2>\n<table><tr><th>learner</th><th>score</th>");
        exercises.forEach(e -> h.append("<th>").append(esc(e)).append("</th>"));
        h.append("<th>time</th><th>what stopped an exercise from being tested</th></tr>\n");
        for (Learner l : learners) {
            h.append("<tr><td>")
                    .append(esc(l.name()))
                    .append("</td><td class=\"num\">")
                    .append(l.score())
                    .append('/')
                    .append(maxScore())
                    .append("</td>");
            for (String e : exercises) {
                int max = tests.stream()
                        .filter(k -> k.exercise().equals(e))
                        .mapToInt(TestKey::maxScore)
                        .sum();
                int got = l.exerciseScore(e);
                h.append("<td class=\"num")
                        .append(got < max ? " lost" : "")
                        .append("\">")
                        .append(got)
                        .append('/')
                        .append(max)
                        .append("</td>");
            }
            h.append("<td class=\"num\">")
                    .append(String.format(Locale.ROOT, "%.1f s", l.elapsed().toMillis() / 1000.0))
                    .append("</td><td><span class=\"msg\">")
                    .append(esc(shorten(l.problems(), 400)))
                    .append("</span></td></tr>\n");
        }
        h.append("</table>\n</body></html>\n");
        return h.toString();
    }

    private String profileSentence() {
        boolean hidden =
                learners.stream().anyMatch(l -> l.report() != null && l.report().profile() == Grader.Profile.TRAINER);
        return "Graded with the course's own tests" + (hidden ? " and the trainer's hidden tests" : "")
                + ", each learner in a separate folder and separate test JVMs, with the limits of ./course grade.";
    }

    private static String shorten(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    static String esc(String s) {
        return ReportTable.escape(s);
    }
}
