package course.grader;

import course.base.CourseRoot;
import course.base.Exercises;
import course.base.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Grades exercises with the course's own tests.
 *
 * <p>For each exercise the grader compiles the code under test (the learner's
 * {@code exercises/NN-name/src/main/java}, or the reference solution in {@code solutions/}) in-process with
 * {@code javax.tools}, compiles the course's pristine copy of the tests against it, and runs them in forked
 * JVMs with the JUnit Platform Launcher (see {@link ForkedTests}). A test earns its {@code points:N} tag (1
 * without one) when it passes, and nothing otherwise. An exercise that does not compile scores 0 with one
 * clear error; the other exercises are graded as usual.
 *
 * <p>Instances are immutable and may grade from several threads at once.
 */
public final class Grader {

    /** Which code is graded. */
    public enum Source {
        /** The learner's code: {@code exercises/NN-name/src/main/java}. */
        EXERCISES("exercises"),
        /** The reference solutions: {@code solutions/NN-name/src/main/java}. */
        SOLUTIONS("solutions"),
        /** A learner's submission, laid out by {@link Submission} (the autograder and the class report). */
        SUBMISSION("submission");

        private final String folder;

        Source(String folder) {
            this.folder = folder;
        }

        /** The folder under the course folder that holds this source's exercises. */
        public String folder() {
            return folder;
        }
    }

    /** Which of the course's tests are run. */
    public enum Profile {
        /**
         * The tests a learner sees: {@code exercises/NN-name/src/test/java}, less any test tagged
         * {@code visibility:hidden} or {@code visibility:after_due_date}.
         */
        LEARNER,
        /** The learner's tests and the trainer's hidden ones in {@code trainer/NN-name/src/test/java}. */
        TRAINER
    }

    /** The folder, under the course folder, that holds the trainer's hidden tests. */
    public static final String TRAINER_FOLDER = Exercises.TRAINER;

    /** What the grader says, once, when the trainer's profile meets a course without {@code trainer/}. */
    static final String NO_TRAINER_FOLDER =
            "no trainer/ folder in this course: the trainer's hidden tests are skipped, the learner's tests run";

    /**
     * What the grader says, once, when the learner's profile grades a course without {@code trainer/} (a learners'
     * template, {@code ./course template}): the grade counts the tests the learner sees, and a trainer's may count
     * more.
     */
    static final String NO_HIDDEN_TESTS_HERE = "no trainer/ folder in this copy of the course: graded with the tests"
            + " you see; the trainer's hidden tests are not in it";

    private final Path root;
    private final Profile profile;
    private final boolean hiddenSkipped;
    private final List<String> only;
    /** The course's tests compiled once per exercise and reused, or null: see {@link #reusingCompiledTests}. */
    private final Map<String, Path> compiledTests;
    /** Where those compiled tests are kept. */
    private final Path compiledTestsFolder;

    /**
     * Creates a grader for the course in {@code root} that runs the tests a learner sees.
     *
     * @param root the course folder (see {@link CourseRoot#find()})
     */
    public Grader(Path root) {
        this(root, Profile.LEARNER);
    }

    /**
     * Creates a grader for the course in {@code root}. The trainer's profile in a course without {@code trainer/}
     * (a learners' template) grades as the learner's, and {@link #hiddenTestsSkipped()} says so.
     *
     * @param root    the course folder (see {@link CourseRoot#find()})
     * @param profile which tests to run
     */
    public Grader(Path root, Profile profile) {
        this(root, profile, List.of(), null, null);
    }

    private Grader(
            Path root, Profile profile, List<String> only, Map<String, Path> compiledTests, Path compiledTestsFolder) {
        this.root = root.toAbsolutePath().normalize();
        Objects.requireNonNull(profile, "profile");
        this.hiddenSkipped = profile == Profile.TRAINER && !Exercises.hasTrainer(this.root);
        this.profile = hiddenSkipped ? Profile.LEARNER : profile;
        this.only = List.copyOf(only);
        this.compiledTests = compiledTests;
        this.compiledTestsFolder = compiledTestsFolder;
    }

    /**
     * This grader, compiling each exercise's tests once and reusing the classes for every later grade of it (by this
     * grader and those {@link #only} makes from it). Only for code whose public API and constants are the reference
     * solution's, which is all the tests compile against: the grader's own tests of its mutants, which change method
     * bodies and private members alone. A learner's code is never graded so.
     *
     * @param folder where the compiled tests are kept, a folder per exercise
     */
    Grader reusingCompiledTests(Path folder) {
        return new Grader(root, hiddenSkipped ? Profile.TRAINER : profile, only, new ConcurrentHashMap<>(), folder);
    }

    /**
     * This grader, running only the test methods named (all of them when none is): the grader's own tests grade a
     * mutant with just the tests of the contract sentence it breaks, since one of them failing is what they
     * require. A grade of some tests is not a learner's grade: nothing the course shows is graded so, and its
     * properties do not shrink a failing input (see {@link PropertyTests#configuration}).
     */
    Grader only(Collection<String> methods) {
        return new Grader(
                root,
                hiddenSkipped ? Profile.TRAINER : profile,
                List.copyOf(methods),
                compiledTests,
                compiledTestsFolder);
    }

    /** The course folder this grader grades in. */
    public Path root() {
        return root;
    }

    /** Which tests this grader runs. */
    public Profile profile() {
        return profile;
    }

    /**
     * The one line to show when the course has no {@code trainer/} folder: with the trainer's profile, that its
     * hidden tests are skipped; with the learner's, that the grade counts the visible tests alone and the hidden
     * ones are not in this copy. Empty where the course has {@code trainer/}.
     */
    public Optional<String> hiddenTestsSkipped() {
        if (hiddenSkipped) {
            return Optional.of(NO_TRAINER_FOLDER);
        }
        return Exercises.hasTrainer(root) ? Optional.empty() : Optional.of(NO_HIDDEN_TESTS_HERE);
    }

    /** The exercises the course grades ({@code NN-name}), in order. */
    public static List<String> exercises() {
        return Pristine.exercises();
    }

    /**
     * Grades the given exercises, as many at once as this machine has cores ({@link #defaultJobs()}).
     *
     * @see #grade(List, Source, int)
     */
    public GradeReport grade(List<String> names, Source source) {
        return grade(names, source, defaultJobs());
    }

    /** How many exercises, or learners, are graded at once by default: one per core. */
    public static int defaultJobs() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Grades the given exercises, {@code jobs} at once. Each exercise is compiled in a folder of its own and its
     * tests run in test JVMs of its own, so exercises graded at once share nothing; the report lists them in
     * the order given.
     *
     * @param names  the exercises, {@code NN-name}; empty for all of them
     * @param source whose code to grade
     * @param jobs   exercises graded at once, at least 1
     * @return the report
     * @throws IllegalArgumentException if a name is not one of {@link #exercises()}, or jobs is below 1
     */
    public GradeReport grade(List<String> names, Source source, int jobs) {
        List<String> all = exercises();
        List<String> chosen = names.isEmpty() ? all : names;
        for (String n : chosen) {
            if (!all.contains(n)) {
                throw new IllegalArgumentException("no exercise named '" + n + "'; the exercises are " + all);
            }
        }
        long t0 = System.nanoTime();
        List<ExerciseResult> results = eachAtOnce(chosen, jobs, n -> {
            Path main = root.resolve(source.folder()).resolve(n).resolve("src/main/java");
            Path learnerTests = source == Source.EXERCISES
                    ? root.resolve("exercises").resolve(n).resolve("src/test/java")
                    : null;
            return grade(n, main, learnerTests);
        });
        return new GradeReport(source, profile, results, Duration.ofNanos(System.nanoTime() - t0));
    }

    /**
     * Applies {@code gradeOne} to every item (an exercise, a learner), {@code jobs} at once, and returns the results
     * in the order of {@code items}. A grading mostly waits for its test JVM, so each runs on a platform thread of
     * its own. An exception from one grading is rethrown here, after the others have ended.
     */
    static <I, T> List<T> eachAtOnce(List<I> items, int jobs, java.util.function.Function<? super I, T> gradeOne) {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs must be at least 1, not " + jobs);
        }
        if (jobs == 1 || items.size() < 2) {
            return items.stream().<T>map(gradeOne).toList();
        }
        List<java.util.concurrent.Future<T>> futures = new ArrayList<>();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(Math.min(jobs, items.size()))) {
            for (I item : items) {
                futures.add(pool.submit(() -> gradeOne.apply(item)));
            }
        } // close() waits for every grading
        List<T> results = new ArrayList<>();
        for (var f : futures) {
            if (f.state() == java.util.concurrent.Future.State.SUCCESS) {
                results.add(f.resultNow());
                continue;
            }
            Throwable cause = f.exceptionNow(); // close() waited: every other grading has ended too
            if (cause instanceof RuntimeException r) throw r;
            if (cause instanceof Error err) throw err;
            throw new IllegalStateException(cause);
        }
        return results;
    }

    /**
     * Grades one exercise whose code under test is in {@code mainSources}.
     *
     * @param exercise     the exercise, {@code NN-name}
     * @param mainSources  the folder of the code under test (a {@code src/main/java})
     * @param learnerTests the learner's copy of the tests: used only where it matches the course's manifest
     *                     (see {@link Pristine}), and to note edits; {@code null} for the course folder's own
     * @return the exercise's grade
     */
    public ExerciseResult grade(String exercise, Path mainSources, Path learnerTests) {
        Objects.requireNonNull(exercise, "exercise");
        Path work = null;
        try {
            work = Files.createTempDirectory("course-grade-" + exercise + "-");
            return gradeIn(exercise, mainSources, learnerTests, work);
        } catch (IOException e) {
            throw new UncheckedIOException("grading " + exercise + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("grading " + exercise + " was interrupted", e);
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    private ExerciseResult gradeIn(String exercise, Path mainSources, Path learnerTests, Path work)
            throws IOException, InterruptedException {
        long started = System.nanoTime();
        Path testSources = work.resolve("course-tests");
        Pristine.Resolution pristine = Pristine.copy(root, exercise, Pristine.Kind.TESTS, learnerTests, testSources);
        if (!pristine.complete()) {
            return refused(exercise, pristine);
        }
        List<String> notes = tamperNotes(exercise, pristine, testSources, learnerTests);
        Path hidden = root.resolve(TRAINER_FOLDER).resolve(exercise).resolve("src/test/java");
        if (profile == Profile.TRAINER && Files.isDirectory(hidden)) {
            FileTrees.copy(hidden, testSources);
        }
        GradeJob job = new GradeJob(exercise, mainSources, work, testClassNames(testSources), notes, started);
        Files.createDirectories(job.mainOut());
        Files.createDirectories(job.testOut());
        // The test JVM starts now and loads JUnit while the code compiles; it gets its job afterwards.
        try (ForkedTests.Prestarted ready =
                ForkedTests.prestart(job.testFolders(), job.testClasses(), work, runsHidden())) {
            return gradeCompiled(job, ready);
        }
    }

    /**
     * One exercise's grading: the code under test, the work folder and the course's test classes in it; where
     * things are compiled to and the class paths follow from the work folder.
     *
     * @param exercise    the exercise, {@code NN-name}
     * @param mainSources the folder of the code under test
     * @param work        the grading's own temporary folder
     * @param testClasses the course's test classes, by name
     * @param notes       what the grader noticed about the learner's copy of the tests
     * @param started     {@link System#nanoTime()} when the grading started
     */
    record GradeJob(
            String exercise, Path mainSources, Path work, List<String> testClasses, List<String> notes, long started) {
        Path testSources() {
            return work.resolve("course-tests");
        }

        Path mainOut() {
            return work.resolve("main-classes");
        }

        Path testOut() {
            return work.resolve("test-classes");
        }

        /** What the test JVM's class path adds to the grader's jars: the course's tests first, so that a class in
         *  the learner's code named like one of them never replaces it; then the code under test. */
        List<Path> testFolders() {
            return List.of(testOut(), mainOut());
        }
    }

    /** The tests of {@code exercise}, compiled by the first grade that needs them and copied for the others. */
    private List<String> reuseCompiledTests(String exercise, Path testSources, List<Path> cp, Path testOut)
            throws IOException {
        Path compiled;
        synchronized (compiledTests) {
            compiled = compiledTests.get(exercise);
            if (compiled == null) {
                List<String> errors =
                        JavaCompilation.compile(testSources, cp, testOut, p -> courseTest(testSources, p));
                if (!errors.isEmpty()) {
                    return errors;
                }
                compiled = compiledTestsFolder.resolve(exercise);
                FileTrees.copy(testOut, compiled);
                compiledTests.put(exercise, compiled);
                return List.of();
            }
        }
        FileTrees.copy(compiled, testOut);
        return List.of();
    }

    private ExerciseResult gradeCompiled(GradeJob job, ForkedTests.Prestarted ready)
            throws IOException, InterruptedException {
        String exercise = job.exercise();
        Path mainSources = job.mainSources();
        Path testSources = job.testSources();
        List<Path> compileCp = Classpaths.compile();
        List<String> problems = new ArrayList<>();
        if (!Files.isDirectory(mainSources)) {
            problems.add(show(mainSources) + ": folder not found");
        } else {
            List<String> errors = JavaCompilation.compile(mainSources, compileCp, job.mainOut(), this::show);
            if (!errors.isEmpty()) {
                problems.add("your code does not compile:");
                problems.addAll(errors);
            } else {
                List<Path> cp = new ArrayList<>(compileCp);
                cp.addFirst(job.mainOut());
                errors = compiledTests == null
                        ? JavaCompilation.compile(testSources, cp, job.testOut(), p -> courseTest(testSources, p))
                        : reuseCompiledTests(exercise, testSources, cp, job.testOut());
                if (!errors.isEmpty()) {
                    problems.add("the course's tests do not compile against your code"
                            + " (did you change a public name or signature?):");
                    problems.addAll(errors);
                }
            }
        }

        long compiled = System.nanoTime();
        ForkedTests.Outcome outcome;
        if (problems.isEmpty()) {
            outcome = ForkedTests.run(
                    exercise, job.testFolders(), job.testClasses(), only, false, job.work(), ready, runsHidden());
        } else {
            ready.close();
            outcome = listTestsWithStubs(exercise, testSources, job.testClasses(), job.work());
        }
        if (outcome.problem() != null) {
            problems.add(outcome.problem());
        }
        if (Boolean.getBoolean("course.grader.timing")) {
            System.err.printf(
                    "[grader] %s: compile %.2f s, tests %.2f s%n",
                    exercise, (compiled - job.started()) / 1e9, (System.nanoTime() - compiled) / 1e9);
        }

        String notGraded = problems.isEmpty() ? null : "not graded: " + problems.getFirst();
        List<TestResult> tests = new ArrayList<>();
        for (ForkedTests.Planned p : inPlanOrder(outcome.plan().values())) {
            ForkedTests.Ended e = outcome.ended().get(p.uniqueId());
            boolean passed = notGraded == null && e != null && e.passed();
            String message = notGraded != null ? notGraded : passed ? "" : e == null ? "did not run" : e.message();
            tests.add(new TestResult(
                    exercise,
                    p.name(),
                    passed ? p.points() : 0,
                    p.points(),
                    passed,
                    message,
                    p.visibility(),
                    testCode(testSources, p),
                    p.method()));
        }
        return new ExerciseResult(exercise, tests, problems, job.notes());
    }

    private static final Pattern LAID_OUT = Pattern.compile("/(exercises/[^/]+/src/(?:main|test)/java(?:/.*)?)$");

    /** The body of a test method, from the course's test source, without its braces (empty when not found). */
    static String testCode(Path testSources, ForkedTests.Planned p) throws IOException {
        Path file = testSources.resolve(p.className().replace('.', '/') + ".java");
        String method = p.method();
        if (!Files.isRegularFile(file) || method.isEmpty()) {
            return "";
        }
        String text = Files.readString(file);
        int at = text.indexOf(" " + method + "(");
        int open = at < 0 ? -1 : text.indexOf('{', at);
        if (open < 0) {
            return "";
        }
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (depth == 0) {
                return text.substring(open + 1, i)
                        .stripTrailing()
                        .replaceFirst("^\\s*\\n", "")
                        .stripIndent();
            }
        }
        return "";
    }

    /**
     * The tests in the order JUnit planned them: each test class declares its order
     * ({@code @TestMethodOrder(MethodOrderer.OrderAnnotation.class)} and {@code @Order} on each test); the
     * learner's tests first, then the trainer's hidden ones.
     */
    private static List<ForkedTests.Planned> inPlanOrder(Collection<ForkedTests.Planned> tests) {
        List<ForkedTests.Planned> sorted = new ArrayList<>(tests);
        sorted.sort(Comparator.comparing((ForkedTests.Planned p) -> TestResult.VISIBLE.equals(p.visibility()) ? 0 : 1)
                .thenComparing(ForkedTests.Planned::className));
        return sorted;
    }

    private boolean runsHidden() {
        return profile == Profile.TRAINER;
    }

    /** The grade of an exercise whose tests, as the course ships them, could not be found. */
    private ExerciseResult refused(String exercise, Pristine.Resolution pristine) {
        List<String> problems = new ArrayList<>();
        for (String file : pristine.unavailable()) {
            problems.add(
                    file + (Files.isRegularFile(root.resolve(file)) ? " differs from the course's copy" : " is missing")
                            + ", and no copy as the course ships it was found (in the grader or in git's"
                            + " history): restore it with `git checkout -- " + file + "` (or from a fresh copy of the"
                            + " course) and grade again. Edited tests are never run.");
        }
        return new ExerciseResult(exercise, List.of(), problems, List.of());
    }

    /** Lists the tests (for their names and points) when the learner's code cannot be tested. */
    private ForkedTests.Outcome listTestsWithStubs(
            String exercise, Path testSources, List<String> testClasses, Path work)
            throws IOException, InterruptedException {
        Path stubSources = work.resolve("course-stubs");
        Pristine.Resolution stubs = Pristine.copy(root, exercise, Pristine.Kind.STUBS, null, stubSources);
        if (!stubs.complete()) {
            return new ForkedTests.Outcome(
                    Map.of(),
                    Map.of(),
                    "the grader found no copy of the course's stubs to list the tests with: " + stubs.unavailable());
        }
        Path stubOut = work.resolve("stub-classes");
        Path testOut = work.resolve("stub-test-classes");
        List<Path> compileCp = Classpaths.compile();
        List<String> errors = JavaCompilation.compile(stubSources, compileCp, stubOut, p -> p.toString());
        List<Path> cp = new ArrayList<>(compileCp);
        cp.addFirst(stubOut);
        if (errors.isEmpty()) {
            errors = JavaCompilation.compile(testSources, cp, testOut, p -> p.toString());
        }
        if (!errors.isEmpty()) {
            return new ForkedTests.Outcome(
                    Map.of(),
                    Map.of(),
                    "the grader's copy of the course's stubs does not compile either: " + errors.getFirst());
        }
        return ForkedTests.run(exercise, List.of(stubOut, testOut), testClasses, only, true, work, null, runsHidden());
    }

    /**
     * One line per test file of the course folder (or {@code learnerTests}) that was not used: edited or
     * missing (the course's own copy was used instead), or not one of the course's tests (not run).
     */
    private List<String> tamperNotes(String exercise, Pristine.Resolution pristine, Path courseTests, Path learnerTests)
            throws IOException {
        Path mine = learnerTests != null
                ? learnerTests
                : root.resolve("exercises").resolve(exercise).resolve(Pristine.Kind.TESTS.folder);
        List<String> notes = new ArrayList<>();
        for (String file : pristine.restored()) {
            String rel = file.substring(("exercises/" + exercise + "/" + Pristine.Kind.TESTS.folder + "/").length());
            Path shown = mine.resolve(rel);
            notes.add(show(shown) + (Files.isRegularFile(shown) ? " differs from the course's copy" : " is missing")
                    + ": graded with the course's own copy (`git checkout -- " + show(shown) + "` restores yours)");
        }
        if (Files.isDirectory(mine)) {
            TreeSet<String> known = new TreeSet<>(Pristine.files(exercise, Pristine.Kind.TESTS));
            for (String rel : relativeJavaFiles(mine)) {
                if (!known.contains(rel)) {
                    notes.add(show(mine.resolve(rel)) + " is not one of the course's tests: not run");
                }
            }
        }
        return notes;
    }

    private static List<String> relativeJavaFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".java"))
                    .map(p -> dir.relativize(p).toString().replace('\\', '/'))
                    .toList();
        }
    }

    private static List<String> testClassNames(Path testSources) throws IOException {
        try (Stream<Path> s = Files.walk(testSources)) {
            return s.filter(p -> p.getFileName().toString().endsWith("Test.java"))
                    .map(p -> testSources.relativize(p).toString().replace('\\', '/'))
                    .map(r -> r.substring(0, r.length() - ".java".length()).replace('/', '.'))
                    .sorted()
                    .toList();
        }
    }

    /** A path as the learner knows it: relative to the course folder when it is inside it. */
    private String show(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        if (abs.startsWith(root)) {
            return root.relativize(abs).toString().replace('\\', '/');
        }
        // A submission laid out elsewhere (see Submission): shown from its exercises/ folder, as the learner knows it.
        String text = abs.toString().replace('\\', '/');
        Matcher m = LAID_OUT.matcher(text);
        return m.find() ? m.group(1) : text;
    }

    private static String courseTest(Path testSources, Path p) {
        Path abs = p.toAbsolutePath().normalize();
        return abs.startsWith(testSources)
                ? "course test " + testSources.relativize(abs).toString().replace('\\', '/')
                : abs.toString();
    }
}
