package course.grader;

import course.base.TestOrder;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * What the grader does for the exercises' properties, which run on jqwik's engine beside Jupiter's: a fixed
 * configuration (the seed is the test's own, no memory of earlier runs), the tests of both engines in the order
 * their classes declare, a time limit for a property (Jupiter's timeout does not reach jqwik), and the simplest
 * failing input jqwik found, as "for example: …".
 */
final class PropertyTests {
    /** A property (all its tries and its shrinking) may take this many times the per-test timeout. */
    static final int LIMIT_FACTOR = 6;
    /** How long jqwik may spend shrinking a failing input, in seconds. */
    static final int SHRINKING_SECONDS = 4;

    private static final String ENGINE = "[engine:jqwik]";
    /** A sample in jqwik's report: "Shrunk Sample (3 steps)" or "Sample", then a rule, then "  name: value" lines. */
    private static final Pattern SAMPLE =
            Pattern.compile("(?m)^(?:Shrunk Sample|Sample)\\b[^\\n]*\\n-+\\n((?:  [^\\n]*\\n?)+)");

    private static final Pattern ARGUMENT = Pattern.compile("^  (\\w+): (.*)$");

    private PropertyTests() {}

    /**
     * jqwik's settings for a test JVM: its report goes to the listener, not to standard output; its database of
     * earlier failures lives in {@code work}, which is new for each grading, so a grade never depends on a
     * previous one; shrinking is bounded. A grade of some tests only ({@link Grader#only}: the grader's own check
     * that a mutant fails one of a sentence's tests) does not shrink at all: shrinking starts after a property has
     * failed, so it changes the example a message gives, never whether the test fails, and a property that sleeps
     * spent most of such a grade's time on it (MutantsIT: 131 s with shrinking, 91 s without).
     */
    static Map<String, String> configuration(Path work, boolean shrinking) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("jqwik.reporting.usejunitplatform", "true");
        c.put("jqwik.reporting.onlyfailures", "true");
        c.put("jqwik.database", work.resolve("jqwik-database").toString());
        c.put("jqwik.failures.runfirst", "false");
        c.put("jqwik.failures.after.default", "PREVIOUS_SEED"); // the property's own seed, not a replayed sample
        c.put("jqwik.shrinking.bounded.seconds", Integer.toString(SHRINKING_SECONDS));
        if (!shrinking) {
            c.put("jqwik.shrinking.default", "OFF");
        }
        return c;
    }

    /** Whether {@code id} is one of jqwik's tests. */
    static boolean isProperty(TestIdentifier id) {
        return id.getUniqueId().startsWith(ENGINE);
    }

    /**
     * The tests of {@code plan}, class by class in the order they were found, and within a class by their
     * {@link Order} or {@link TestOrder} (jqwik ignores Jupiter's {@code @TestMethodOrder}, so the plan alone would
     * list a class's properties after its Jupiter tests).
     */
    static List<TestIdentifier> inDeclaredOrder(TestPlan plan) {
        List<TestIdentifier> tests = new ArrayList<>();
        for (TestIdentifier root : plan.getRoots()) {
            plan.getDescendants(root).stream().filter(TestIdentifier::isTest).forEach(tests::add);
        }
        List<String> classes =
                tests.stream().map(PropertyTests::className).distinct().toList();
        tests.sort(Comparator.comparingInt((TestIdentifier t) -> classes.indexOf(className(t)))
                .thenComparingInt(PropertyTests::order));
        return tests;
    }

    private static String className(TestIdentifier id) {
        return id.getSource()
                .filter(MethodSource.class::isInstance)
                .map(s -> ((MethodSource) s).getClassName())
                .orElse("");
    }

    /** A test's {@code @Order} or {@link TestOrder}, or {@link Order#DEFAULT} when it has none or its method cannot be found. */
    private static int order(TestIdentifier id) {
        Optional<Method> method =
                id.getSource().filter(MethodSource.class::isInstance).map(s -> javaMethod((MethodSource) s));
        return method.map(m -> m.isAnnotationPresent(TestOrder.class)
                        ? m.getAnnotation(TestOrder.class).value()
                        : m.isAnnotationPresent(Order.class)
                                ? m.getAnnotation(Order.class).value()
                                : Order.DEFAULT)
                .orElse(Order.DEFAULT);
    }

    private static Method javaMethod(MethodSource source) {
        try {
            return source.getJavaMethod();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The simplest failing input in jqwik's {@code report} of a property, as {@code name = value, …}, or null
     * when the report has none.
     */
    static String example(String report) {
        if (report == null) {
            return null;
        }
        Matcher m = SAMPLE.matcher(report);
        if (!m.find()) {
            return null;
        }
        List<String> arguments = new ArrayList<>();
        for (String line : m.group(1).split("\n")) {
            Matcher a = ARGUMENT.matcher(line);
            if (a.matches()) {
                arguments.add(a.group(1) + " = " + a.group(2).strip());
            }
        }
        return arguments.isEmpty() ? null : String.join(", ", arguments);
    }

    /** The message of a property that the watchdog stopped after {@code seconds}. */
    static String timedOut(long seconds) {
        return "the property timed out after " + seconds + " s: the code did not finish (an endless loop, a"
                + " deadlock, or a thread that is never joined?)";
    }
}
