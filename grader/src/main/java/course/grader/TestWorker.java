package course.grader;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The main class of a forked test JVM: runs the selected tests of one exercise with the JUnit Platform
 * Launcher and reports each one, as it happens, in {@link Wire} lines to a results file.
 *
 * <p>Arguments: {@code RESULTS TIMEOUT_SECONDS MODE ITEM...} (or {@code --stdin}: the same arguments as
 * one {@link Wire} line on standard input, so that the JVM can start while the grader still compiles), where MODE is {@code classes} (ITEMs are test
 * classes), {@code ids} (ITEMs are test unique ids, to resume after an earlier JVM stopped) or
 * {@code discover} (list the tests of the ITEM classes, run nothing); an ITEM {@code #name} keeps only the test
 * methods so named. The system property
 * {@code course.grader.testClasses} names the course's test classes, so that messages point at the
 * learner's code. After a test times out the JVM halts at once: the test's thread may still be spinning,
 * and the grader resumes the remaining tests in a fresh JVM.
 */
public final class TestWorker {
    /** The system property that, when {@code true}, also runs the tests a learner does not see. */
    static final String HIDDEN_PROPERTY = "course.grader.hidden";
    /** The tag prefix that sets a test's visibility: {@code visibility:hidden} or {@code visibility:after_due_date}. */
    static final String VISIBILITY = "visibility:";
    /** An ITEM that names a test method ({@code #name}): only the tests named so run (see {@link Grader#only}). */
    static final String METHOD_ITEM = "#";
    /** The visibilities of the tests that only the trainer's profile runs. */
    static final List<String> HIDDEN = List.of("hidden", "after_due_date");

    private TestWorker() {}

    /**
     * Runs the tests.
     *
     * @param args {@code RESULTS TIMEOUT_SECONDS MODE ITEM...}
     * @throws IOException if the results file cannot be written
     */
    public static void main(String[] args) throws IOException {
        // One launcher session for this JVM: its launcher discovers and runs the tests (JUnit's public API).
        LauncherSession session = LauncherFactory.openSession();
        if (args.length == 1 && args[0].equals("--stdin")) {
            // Started ahead of time, while the grader compiles: the engine is loaded; now wait for the job.
            String job = new java.io.BufferedReader(new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8))
                    .readLine();
            if (job == null || job.isEmpty()) {
                Runtime.getRuntime().halt(0); // not needed after all (the code did not compile)
            }
            args = Wire.fields(job).toArray(String[]::new);
        }
        Path results = Path.of(args[0]);
        String timeout = args[1];
        String mode = args[2];
        List<String> items = Arrays.asList(args).subList(3, args.length);
        Set<String> testClasses =
                Set.of(System.getProperty("course.grader.testClasses", "").split(","));

        PrintWriter out = new PrintWriter(Files.newBufferedWriter(results, StandardCharsets.UTF_8), true);
        Set<String> methods = items.stream()
                .filter(i -> i.startsWith(METHOD_ITEM))
                .map(i -> i.substring(METHOD_ITEM.length()))
                .collect(java.util.stream.Collectors.toSet());
        List<DiscoverySelector> selectors = items.stream()
                .filter(i -> !i.startsWith(METHOD_ITEM))
                .map(i -> mode.equals("ids") ? (DiscoverySelector) selectUniqueId(i) : selectClass(i))
                .toList();
        LauncherDiscoveryRequestBuilder builder = LauncherDiscoveryRequestBuilder.request();
        if (!Boolean.getBoolean(HIDDEN_PROPERTY)) {
            builder.filters(TagFilter.excludeTags(
                    HIDDEN.stream().map(v -> VISIBILITY + v).toList()));
        }
        if (!methods.isEmpty()) {
            builder.filters((PostDiscoveryFilter) d -> d.getSource()
                    .filter(MethodSource.class::isInstance)
                    .map(source -> methods.contains(((MethodSource) source).getMethodName())
                            ? FilterResult.included("named")
                            : FilterResult.excluded("not named"))
                    .orElse(FilterResult.included("a container")));
        }
        LauncherDiscoveryRequest request = builder.selectors(selectors)
                .configurationParameter("junit.jupiter.execution.timeout.default", timeout + " s")
                .configurationParameter("junit.jupiter.execution.timeout.thread.mode.default", "SEPARATE_THREAD")
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "false")
                .configurationParameter("junit.platform.stacktrace.pruning.enabled", "true")
                .configurationParameters(
                        PropertyTests.configuration(results.toAbsolutePath().getParent(), methods.isEmpty()))
                .build();
        Launcher launcher = session.getLauncher();
        TestPlan plan = launcher.discover(request);
        for (TestIdentifier id : PropertyTests.inDeclaredOrder(plan)) { // @Order, for Jupiter's tests and jqwik's
            out.println(Wire.line(
                    Wire.PLAN,
                    id.getUniqueId(),
                    className(id),
                    id.getDisplayName(),
                    Integer.toString(points(id)),
                    visibility(id)));
        }
        if (!mode.equals("discover")) {
            Listener listener = new Listener(out, testClasses);
            Thread watchdog = Thread.ofPlatform()
                    .daemon()
                    .name("grader-watchdog")
                    .start(() -> listener.watch(
                            TimeUnit.SECONDS.toNanos(PropertyTests.LIMIT_FACTOR * Long.parseLong(timeout))));
            launcher.execute(plan, listener);
            watchdog.interrupt();
        }
        out.println(Wire.line(Wire.DONE));
        out.flush();
        session.close();
        Runtime.getRuntime().halt(0); // threads the learner's code left behind must not keep this JVM alive
    }

    /** The points a test is worth: its {@code points:N} tag, or 1. */
    static int points(TestIdentifier id) {
        for (TestTag tag : id.getTags()) {
            String name = tag.getName();
            if (name.startsWith("points:")) {
                try {
                    return Integer.parseInt(name.substring("points:".length()).trim());
                } catch (NumberFormatException e) {
                    return 1;
                }
            }
        }
        return 1;
    }

    /** Who sees a test on Gradescope: its {@code visibility:...} tag, or {@code visible}. */
    static String visibility(TestIdentifier id) {
        for (TestTag tag : id.getTags()) {
            if (tag.getName().startsWith(VISIBILITY)) {
                return tag.getName().substring(VISIBILITY.length()).trim();
            }
        }
        return TestResult.VISIBLE;
    }

    private static String className(TestIdentifier id) {
        Optional<TestSource> source = id.getSource();
        return source.filter(MethodSource.class::isInstance)
                .map(s -> ((MethodSource) s).getClassName())
                .orElse("");
    }

    /**
     * Reports each test as it ends. Jupiter's timeout ends a Jupiter test; a jqwik property, which has none,
     * is ended by {@link #watch}. A property's failure also says "for example: …", from jqwik's report of it.
     */
    private static final class Listener implements TestExecutionListener {
        private final PrintWriter out;
        private final Set<String> testClasses;
        private final Map<String, String> reports = new ConcurrentHashMap<>();
        private volatile String runningProperty;
        private volatile long startedAt;

        Listener(PrintWriter out, Set<String> testClasses) {
            this.out = out;
            this.testClasses = testClasses;
        }

        /** Ends the JVM when a property runs longer than {@code limitNanos}; returns when interrupted. */
        void watch(long limitNanos) {
            try {
                while (true) {
                    Thread.sleep(100);
                    String id = runningProperty;
                    if (id != null && System.nanoTime() - startedAt > limitNanos) {
                        endTimedOut(id, PropertyTests.timedOut(TimeUnit.NANOSECONDS.toSeconds(limitNanos)));
                    }
                }
            } catch (InterruptedException e) {
                // the tests are over
            }
        }

        /**
         * Reports {@code id} as timed out and halts the JVM at once: the test's thread may still be spinning, and the
         * grader resumes the remaining tests in a fresh JVM. (Each println is atomic: PrintWriter locks per line.)
         */
        private void endTimedOut(String id, String message) {
            out.println(Wire.line(Wire.END, id, "TIMED_OUT", message));
            out.flush();
            Runtime.getRuntime().halt(3);
        }

        @Override
        public void executionStarted(TestIdentifier id) {
            if (id.isTest()) {
                if (PropertyTests.isProperty(id)) {
                    startedAt = System.nanoTime();
                    runningProperty = id.getUniqueId();
                }
                out.println(Wire.line(Wire.START, id.getUniqueId()));
            }
        }

        @Override
        public void reportingEntryPublished(TestIdentifier id, ReportEntry entry) {
            entry.getKeyValuePairs().values().forEach(v -> reports.merge(id.getUniqueId(), v, (a, b) -> a + "\n" + b));
        }

        @Override
        public void executionSkipped(TestIdentifier id, String reason) {
            if (id.isTest()) {
                out.println(Wire.line(Wire.END, id.getUniqueId(), "SKIPPED", "skipped: " + reason));
            }
        }

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            Throwable t = result.getThrowable().orElse(null);
            String message = t == null ? "" : Failures.describe(t, testClasses);
            if (id.isTest()) {
                runningProperty = null;
                String example = PropertyTests.example(reports.remove(id.getUniqueId()));
                if (t != null && example != null) {
                    message = Failures.withExample(message, example);
                }
                if (t != null && Failures.isTimeout(t)) {
                    endTimedOut(id.getUniqueId(), message);
                }
                out.println(
                        Wire.line(Wire.END, id.getUniqueId(), result.getStatus().name(), message));
            } else if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                out.println(Wire.line(Wire.CONTAINER, id.getUniqueId(), message));
            }
        }
    }
}
