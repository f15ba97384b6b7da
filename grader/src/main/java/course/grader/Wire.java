package course.grader;

import java.util.ArrayList;
import java.util.List;

/**
 * The line format a forked test JVM reports in: one record per line, fields separated by tabs, with
 * backslash, tab, carriage return and newline escaped inside fields.
 */
final class Wire {
    /** A test the JVM found: uniqueId, class, display name, points. */
    static final String PLAN = "PLAN";
    /** A test started: uniqueId. */
    static final String START = "START";
    /** A test ended: uniqueId, status (SUCCESSFUL, FAILED, ABORTED, SKIPPED, TIMED_OUT), message. */
    static final String END = "END";
    /** A class or engine failed before its tests could run: uniqueId, message. */
    static final String CONTAINER = "CONTAINER";
    /** Every selected test was run. */
    static final String DONE = "DONE";

    private Wire() {}

    static String line(String... fields) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                sb.append('\t');
            }
            escape(fields[i] == null ? "" : fields[i], sb);
        }
        return sb.toString();
    }

    private static void escape(String s, StringBuilder sb) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\t' -> sb.append("\\t");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                default -> sb.append(c);
            }
        }
    }

    static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\t') {
                out.add(sb.toString());
                sb.setLength(0);
            } else if (c == '\\' && i + 1 < line.length()) {
                char n = line.charAt(++i);
                sb.append(
                        switch (n) {
                            case 't' -> '\t';
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            default -> n;
                        });
            } else {
                sb.append(c);
            }
        }
        out.add(sb.toString());
        return out;
    }
}
