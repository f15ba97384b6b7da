package course.kit;

import java.util.Locale;

/**
 * Measured against predicted. Each check prints one line, starting with {@code ✔} when the measurement is
 * within the stated tolerance of the prediction and {@code ✘} when it is not, and then throws
 * {@link Failed} so that the notebook run fails where the claim fails.
 *
 * <pre>{@code
 * Check.near("fixed pool of 200, elapsed", measured, 50.0, 0.02, "s");
 * // ✔ fixed pool of 200, elapsed: measured 50.04 s, predicted 50.00 s ± 2.0% (49.00 … 51.00)
 * }</pre>
 */
public final class Check {
    /** Thrown by a failed check; its message is the check's {@code ✘} line. */
    public static final class Failed extends AssertionError {
        private static final long serialVersionUID = 1L;

        Failed(String line) { super(line); }
    }

    /** Marks a check that held. */
    public static final String PASS = "\u2714";
    /** Marks a check that failed. */
    public static final String FAIL = "\u2718";

    private Check() {}

    /** Passes when {@code |measured − predicted| ≤ relTolerance · |predicted|}. */
    public static void near(String what, double measured, double predicted, double relTolerance, String unit) {
        if (relTolerance < 0) throw new IllegalArgumentException("tolerance cannot be negative: " + relTolerance);
        double slack = Math.abs(predicted) * relTolerance;
        report(what, Math.abs(measured - predicted) <= slack, String.format(Locale.ROOT,
                "measured %s, predicted %s ± %.1f%% (%s … %s)", fmt(measured, unit), fmt(predicted, unit),
                relTolerance * 100, fmt(predicted - slack, unit), fmt(predicted + slack, unit)));
    }

    /** Passes when {@code lo ≤ measured ≤ hi}; {@code why} says where the bounds come from. */
    public static void between(String what, double measured, double lo, double hi, String unit, String why) {
        if (lo > hi) throw new IllegalArgumentException("lo > hi: " + lo + " > " + hi);
        report(what, measured >= lo && measured <= hi, String.format(Locale.ROOT, "measured %s, predicted %s … %s%s",
                fmt(measured, unit), fmt(lo, unit), fmt(hi, unit), why == null || why.isBlank() ? "" : " (" + why + ")"));
    }

    /** Passes when {@code measured ≤ limit}. */
    public static void atMost(String what, double measured, double limit, String unit) {
        report(what, measured <= limit, String.format(Locale.ROOT, "measured %s, predicted at most %s",
                fmt(measured, unit), fmt(limit, unit)));
    }

    /** Passes when {@code measured ≥ limit}. */
    public static void atLeast(String what, double measured, double limit, String unit) {
        report(what, measured >= limit, String.format(Locale.ROOT, "measured %s, predicted at least %s",
                fmt(measured, unit), fmt(limit, unit)));
    }

    /** Passes when {@code measured == predicted} exactly (counts, not times). */
    public static void equal(String what, long measured, long predicted) {
        report(what, measured == predicted, String.format(Locale.ROOT, "measured %,d, predicted %,d", measured, predicted));
    }

    /** Passes when {@code condition} holds; {@code detail} states the evidence. */
    public static void that(String what, boolean condition, String detail) {
        report(what, condition, detail);
    }

    private static void report(String what, boolean ok, String detail) {
        String line = (ok ? PASS : FAIL) + " " + what + ": " + detail;
        System.out.println(line);
        if (!ok) throw new Failed(line);
    }

    static String fmt(double v, String unit) {
        String u = unit == null || unit.isBlank() ? "" : " " + unit;
        double a = Math.abs(v);
        String num = a == Math.rint(a) && a < 1e15 ? String.format(Locale.ROOT, "%,.0f", v)
                : a >= 100 ? String.format(Locale.ROOT, "%,.1f", v)
                : a >= 1 ? String.format(Locale.ROOT, "%.2f", v)
                : String.format(Locale.ROOT, "%.3f", v);
        return num + u;
    }
}
