package course.grader;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.MultipleFailuresError;

/**
 * Turns a test's failure into a short message for a learner: what was expected against what the code did,
 * where in the learner's code an exception came from, and never a wall of stack frames.
 */
final class Failures {
    private static final int MAX = 700;
    /** The most of a property's failing input that a message shows. */
    private static final int EXAMPLE_MAX = 300;

    private static final List<String> NOT_LEARNER = List.of(
            "java.",
            "javax.",
            "jdk.",
            "sun.",
            "com.sun.",
            "org.junit.",
            "org.opentest4j.",
            "course.kit.",
            "course.grader.");

    private Failures() {}

    /** True when {@code t} is JUnit's per-test timeout. */
    static boolean isTimeout(Throwable t) {
        return t instanceof TimeoutException && String.valueOf(t.getMessage()).contains("timed out after");
    }

    /**
     * Describes {@code t} for a learner.
     *
     * @param t           the failure
     * @param testClasses the course's test classes: their frames are not the learner's code
     * @return one short paragraph
     */
    static String describe(Throwable t, Set<String> testClasses) {
        String text;
        if (isTimeout(t)) {
            text = t.getMessage() + ": the code did not finish (an endless loop, a deadlock, or a thread that"
                    + " is never joined?)";
        } else if (t instanceof MultipleFailuresError m) {
            // The same failure several times over (every check hit the same stub) is said once.
            java.util.Map<String, Integer> seen = new java.util.LinkedHashMap<>();
            for (Throwable f : m.getFailures()) {
                seen.merge(describe(f, testClasses), 1, Integer::sum);
            }
            StringBuilder sb = new StringBuilder();
            seen.forEach((msg, n) -> {
                if (!sb.isEmpty()) {
                    sb.append('\n');
                }
                sb.append(seen.size() > 1 ? "• " : "").append(msg).append(n > 1 ? " (×" + n + ")" : "");
            });
            text = sb.toString();
        } else if (t instanceof AssertionError) {
            text = String.valueOf(t.getMessage());
            if (t instanceof AssertionFailedError && t.getCause() != null) {
                text += "\n  it threw " + thrown(t.getCause(), testClasses);
            } else if (t.getCause() != null) {
                text += ": " + thrown(t.getCause(), testClasses);
            }
        } else {
            text = "threw " + thrown(t, testClasses);
        }
        return text.length() <= MAX ? text : text.substring(0, MAX - 1) + "…";
    }

    /** {@code message} followed by the simplest input that a property found failing. */
    static String withExample(String message, String example) {
        String shown = example.length() <= EXAMPLE_MAX ? example : example.substring(0, EXAMPLE_MAX - 1) + "…";
        return message + "\n  for example: " + shown;
    }

    private static String thrown(Throwable t, Set<String> testClasses) {
        StringBuilder sb = new StringBuilder(typeName(t));
        if (t.getMessage() != null) {
            sb.append(": ").append(t.getMessage());
        }
        String where = learnerFrame(t, testClasses);
        if (where != null) {
            sb.append(" (at ").append(where).append(')');
        }
        Throwable cause = t.getCause();
        if (cause != null && cause != t) {
            sb.append("; caused by ").append(typeName(cause));
            if (cause.getMessage() != null) {
                sb.append(": ").append(cause.getMessage());
            }
            String causeWhere = learnerFrame(cause, testClasses);
            if (causeWhere != null) {
                sb.append(" (at ").append(causeWhere).append(')');
            }
        }
        return sb.toString();
    }

    /** The JDK's exceptions by simple name (IllegalStateException), others in full. */
    private static String typeName(Throwable t) {
        String name = t.getClass().getName();
        return name.startsWith("java.") ? t.getClass().getSimpleName() : name;
    }

    private static String learnerFrame(Throwable t, Set<String> testClasses) {
        for (StackTraceElement e : t.getStackTrace()) {
            String cls = e.getClassName();
            String outer = cls.contains("$") ? cls.substring(0, cls.indexOf('$')) : cls;
            if (testClasses.contains(outer) || NOT_LEARNER.stream().anyMatch(cls::startsWith)) {
                continue;
            }
            if (e.getFileName() == null) {
                continue;
            }
            return e.getFileName() + ":" + e.getLineNumber();
        }
        return null;
    }
}
