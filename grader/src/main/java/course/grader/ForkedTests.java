package course.grader;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Runs the course's tests of one exercise in forked JVMs, so that a {@code System.exit}, a crash or an
 * endless loop in learner code costs only the test it happened in.
 *
 * <p>The first JVM lists the tests and runs them in order, reporting each in {@link Wire} lines. If it
 * stops before the end (the code under test called {@code System.exit}, a test timed out and the JVM
 * halted, or the watchdog killed it), the test it was running is marked failed and a fresh JVM resumes
 * with the tests that have not run.
 */
final class ForkedTests {
    /** JUnit's per-test timeout, in seconds, for tests without their own {@code @Timeout}. */
    static final int TEST_TIMEOUT_S = 5;
    /** The per-test timeout once an exercise has timed out: its other tests are likely to loop too. */
    static final int SHORT_TIMEOUT_S = 2;
    /** The watchdog's limit for one test, in case JUnit's timeout cannot end it. */
    private static final long HARD_LIMIT_NS = TimeUnit.SECONDS.toNanos(60);
    /** The most time one exercise may take in all, in seconds. */
    static final long EXERCISE_BUDGET_S = 240;
    /**
     * A shorter budget, for the grader's own tests of code that loops forever (they need not wait 240 s): this
     * property followed by {@code .NN-name} for one exercise, or alone for every exercise.
     */
    static final String BUDGET_PROPERTY = "course.grader.exerciseBudgetSeconds";

    /** The time budget of {@code exercise} (null: none named), in seconds: see {@link #BUDGET_PROPERTY}. */
    static long budgetSeconds(String exercise) {
        long all = Long.getLong(BUDGET_PROPERTY, EXERCISE_BUDGET_S);
        return exercise == null ? all : Long.getLong(BUDGET_PROPERTY + "." + exercise, all);
    }

    /** A test the JVM found. */
    record Planned(String uniqueId, String className, String name, int points, String visibility) {
        private static final Pattern METHOD = Pattern.compile("\\[(?:method|property):([^(\\]]+)\\(");

        /** The test method's name, from its unique id (empty for a test that is not a method). */
        String method() {
            Matcher m = METHOD.matcher(uniqueId);
            return m.find() ? m.group(1) : "";
        }
    }

    /** How a test ended. */
    record Ended(String status, String message) {
        boolean passed() {
            return status.equals("SUCCESSFUL");
        }
    }

    /** What the forked JVMs reported. {@code problem} is set when not even the list of tests came back. */
    record Outcome(Map<String, Planned> plan, Map<String, Ended> ended, String problem) {}

    private ForkedTests() {}

    /**
     * Lists (and, unless {@code discoverOnly}, runs) the tests in {@code testClasses}.
     *
     * @param folders      the compiled exercise and tests, which the forked JVM's class path adds to the grader's
     *                     jars (see {@link #command(List, List, boolean, List)})
     * @param testClasses  the course's test classes
     * @param discoverOnly list the tests without running them
     * @param work         a folder for the results and logs
     */
    static Outcome run(List<Path> folders, List<String> testClasses, boolean discoverOnly, Path work)
            throws IOException, InterruptedException {
        return run(null, folders, testClasses, List.of(), discoverOnly, work, null, false);
    }

    /**
     * Starts a test JVM ahead of time with {@code folders} (which may still be empty): it loads the
     * JUnit engine and waits for its job, which {@link #run} hands it. {@link Prestarted#close()} ends it
     * if it is not needed.
     */
    static Prestarted prestart(List<Path> folders, List<String> testClasses, Path work, boolean hidden)
            throws IOException {
        Path log = work.resolve("fork-1.log");
        Process p = new ProcessBuilder(command(folders, testClasses, hidden, List.of("--stdin")))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new Prestarted(p, folders, log);
    }

    /** A test JVM started by {@link #prestart}, waiting for its job. */
    record Prestarted(Process process, List<Path> folders, Path log) implements AutoCloseable {
        void send(List<String> args) throws IOException {
            try (var in = process.getOutputStream()) {
                in.write((Wire.line(args.toArray(String[]::new)) + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }

        /** Ends the JVM if it never got a job. */
        @Override
        public void close() {
            try {
                process.getOutputStream().close(); // an empty job: it halts
            } catch (IOException ignored) {
                // already gone
            }
            if (!process.isAlive()) {
                return;
            }
            try {
                if (!process.waitFor(2, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * As {@link #run(List, List, boolean, Path)}, for {@code exercise} (its budget: {@link #budgetSeconds}), handing
     * the first job to {@code ready} when it was started
     * with the same folders; {@code hidden} also runs the tests tagged {@code visibility:hidden} or
     * {@code visibility:after_due_date} (the trainer's profile); {@code methods}, unless empty, keeps only the
     * test methods so named.
     */
    static Outcome run(
            String exercise,
            List<Path> folders,
            List<String> testClasses,
            List<String> methods,
            boolean discoverOnly,
            Path work,
            Prestarted ready,
            boolean hidden)
            throws IOException, InterruptedException {
        Map<String, Planned> plan = new LinkedHashMap<>();
        Map<String, Ended> ended = new LinkedHashMap<>();
        Map<String, String> containerFailures = new LinkedHashMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(budgetSeconds(exercise));
        int timeout = TEST_TIMEOUT_S;
        List<String> selection = new ArrayList<>(testClasses);
        methods.forEach(m -> selection.add(TestWorker.METHOD_ITEM + m));
        String mode = discoverOnly ? "discover" : "classes";
        for (int fork = 1; ; fork++) {
            Path results = work.resolve("results-" + fork + ".txt");
            Path log = work.resolve("fork-" + fork + ".log");
            List<String> job = new ArrayList<>(List.of(results.toString(), Integer.toString(timeout), mode));
            job.addAll(selection);
            Fork f;
            if (fork == 1
                    && ready != null
                    && ready.folders().equals(folders)
                    && ready.process().isAlive()) {
                f = new Fork(ready, job, results);
            } else {
                f = new Fork(command(folders, testClasses, hidden, job), results, log);
            }
            f.await(deadline);
            for (List<String> rec : f.records) {
                switch (rec.get(0)) {
                    case Wire.PLAN ->
                        plan.putIfAbsent(
                                rec.get(1),
                                new Planned(
                                        rec.get(1),
                                        rec.get(2),
                                        rec.get(3),
                                        Integer.parseInt(rec.get(4)),
                                        rec.size() > 5 ? rec.get(5) : TestResult.VISIBLE));
                    case Wire.END -> ended.put(rec.get(1), new Ended(rec.get(2), rec.get(3)));
                    case Wire.CONTAINER -> containerFailures.put(rec.get(1), rec.get(2));
                    default -> {}
                }
            }
            if (plan.isEmpty()) {
                String why = f.done
                        ? "no tests were found in " + testClasses
                        : "the test JVM stopped before it listed the tests (exit code " + f.exitCode + ")"
                                + f.logTail();
                return new Outcome(plan, ended, why);
            }
            if (f.current != null && !ended.containsKey(f.current)) {
                ended.put(
                        f.current,
                        f.killed
                                ? new Ended("TIMED_OUT", f.killedBecause)
                                : new Ended(
                                        "FAILED",
                                        "the test JVM stopped during this test with exit code " + f.exitCode
                                                + ": did the code call System.exit(" + f.exitCode + ")?"
                                                + f.logTail()));
            }
            if (ended.values().stream().anyMatch(e -> e.status().equals("TIMED_OUT"))) {
                timeout = SHORT_TIMEOUT_S;
            }
            List<String> remaining =
                    plan.keySet().stream().filter(id -> !ended.containsKey(id)).toList();
            if (discoverOnly || f.done || remaining.isEmpty()) {
                String why = containerFailures.isEmpty()
                        ? "did not run"
                        : "did not run: " + String.join("; ", containerFailures.values());
                remaining.forEach(id -> ended.put(id, new Ended("NOT_RUN", why)));
                return new Outcome(plan, ended, null);
            }
            if (System.nanoTime() > deadline || fork > plan.size() + 2) {
                remaining.forEach(id -> ended.put(
                        id, new Ended("NOT_RUN", "not run: the exercise's time budget was used up by earlier tests")));
                return new Outcome(plan, ended, null);
            }
            mode = "ids";
            selection.clear();
            selection.addAll(remaining);
        }
    }

    /** The test JVMs' options (the training run of their {@link WorkerCache} uses the same). */
    static final List<String> JVM_OPTIONS = List.of(
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-XX:-UsePerfData",
            "-Xmx512m",
            "-ea",
            "--enable-preview",
            "-Djava.awt.headless=true");

    /**
     * A test JVM's command. Its class path is the grader's own jars first (what {@link WorkerCache} covers, and no
     * class in the learner's code replaces one of them), then {@code folders}.
     */
    private static List<String> command(
            List<Path> folders, List<String> testClasses, boolean hidden, List<String> job) {
        List<Path> runtime = Classpaths.runtime();
        List<Path> classpath = new ArrayList<>(runtime);
        if (hidden) {
            classpath.addAll(Classpaths.scheduling()); // the trainer's tests of interleavings (Lincheck)
        }
        classpath.addAll(folders);
        List<String> cache = WorkerCache.forRuntime(runtime, JVM_OPTIONS)
                .map(c -> c.options(trainingCommand(runtime)))
                .orElse(List.of());
        return command(classpath, testClasses, hidden, cache, job);
    }

    /** The command of a {@link WorkerCache} training run on {@code runtime}: {@link WarmUp}'s tests, with the
     *  given extra options (the cache's output) and job. */
    static BiFunction<List<String>, List<String>, List<String>> trainingCommand(List<Path> runtime) {
        return (extra, job) -> command(runtime, List.of(WarmUp.class.getName()), false, extra, job);
    }

    static List<String> command(
            List<Path> classpath, List<String> testClasses, boolean hidden, List<String> extra, List<String> job) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JVM_OPTIONS);
        if (hidden) {
            cmd.add("-XX:+EnableDynamicAgentLoading"); // Lincheck attaches its agent when a hidden test starts it
        }
        cmd.addAll(extra);
        cmd.addAll(List.of(
                "-Dcourse.grader.testClasses=" + String.join(",", testClasses),
                "-D" + TestWorker.HIDDEN_PROPERTY + "=" + hidden,
                "-cp",
                classpath.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator)),
                TestWorker.class.getName()));
        cmd.addAll(job);
        return cmd;
    }

    /** One forked JVM, watched until it ends. */
    private static final class Fork {
        final List<List<String>> records = new ArrayList<>();
        final Path log;
        String current;
        long currentSince;
        boolean done;
        boolean killed;
        String killedBecause;
        int exitCode;

        Fork(List<String> command, Path results, Path log) throws IOException {
            this.log = log;
            Files.deleteIfExists(results);
            Files.createFile(results);
            this.process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
                    .start();
            this.results = results;
        }

        Fork(Prestarted ready, List<String> job, Path results) throws IOException {
            this.log = ready.log();
            Files.deleteIfExists(results);
            Files.createFile(results);
            this.process = ready.process();
            this.results = results;
            ready.send(job);
        }

        private final Process process;
        private final Path results;
        private long offset;
        private final StringBuilder partial = new StringBuilder();

        void await(long deadline) throws IOException, InterruptedException {
            long startedAt = System.nanoTime();
            while (!process.waitFor(20, TimeUnit.MILLISECONDS)) {
                poll();
                long now = System.nanoTime();
                if (current != null && now - currentSince > HARD_LIMIT_NS) {
                    kill("timed out after " + TimeUnit.NANOSECONDS.toSeconds(HARD_LIMIT_NS)
                            + " seconds and the test JVM had to be killed: an endless loop?");
                } else if (current == null && now - startedAt > HARD_LIMIT_NS) {
                    kill("the test JVM did not start a test within " + TimeUnit.NANOSECONDS.toSeconds(HARD_LIMIT_NS)
                            + " seconds");
                } else if (now > deadline) {
                    kill("not finished when the exercise's time budget ran out");
                }
            }
            exitCode = process.exitValue();
            poll();
        }

        private void kill(String why) throws InterruptedException {
            killed = true;
            killedBecause = why;
            process.destroyForcibly();
            process.waitFor();
        }

        private void poll() throws IOException {
            try (InputStream in = Files.newInputStream(results)) {
                in.skipNBytes(offset);
                byte[] bytes = in.readAllBytes();
                offset += bytes.length;
                partial.append(new String(bytes, StandardCharsets.UTF_8));
            }
            int nl;
            while ((nl = partial.indexOf("\n")) >= 0) {
                String line = partial.substring(0, nl);
                partial.delete(0, nl + 1);
                List<String> rec = Wire.fields(line);
                records.add(rec);
                switch (rec.get(0)) {
                    case Wire.START -> {
                        current = rec.get(1);
                        currentSince = System.nanoTime();
                    }
                    case Wire.END -> current = null;
                    case Wire.DONE -> done = true;
                    default -> {}
                }
            }
        }

        String logTail() {
            try {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                        .filter(l -> !l.isBlank())
                        .toList();
                if (lines.isEmpty()) {
                    return "";
                }
                List<String> tail = lines.subList(Math.max(0, lines.size() - 4), lines.size());
                return "\n  last output: " + String.join("\n  ", tail);
            } catch (IOException | UncheckedIOException e) {
                return "";
            }
        }

        private static java.io.File nullDevice() {
            return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
        }
    }
}
