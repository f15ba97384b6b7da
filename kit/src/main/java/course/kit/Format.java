package course.kit;

import java.time.Duration;
import java.util.Locale;

/**
 * How the kit writes a number for a person: the one formatter of the checks' lines, the predictions, the charts'
 * titles, the tables and the notebooks' own {@code println}s, so that a figure reads the same wherever it shows.
 *
 * <ul>
 *   <li>{@link #duration}: a duration as given, exactly: "1 s", "50 ms", "250 µs" (the lessons' parameters);
 *   <li>{@link #millis}: a measured time in milliseconds, to three significant digits: "1.19 s", "250 ms";
 *   <li>{@link #number}: a measurement with its unit: "1,000 calls", "49.00 s", "0.125 ms".
 * </ul>
 */
public final class Format {
    private Format() {}

    /** A duration as a person writes it: "1 s", "50 ms", "250 µs". */
    public static String duration(Duration d) {
        long n = d.toNanos();
        if (n % 1_000_000_000L == 0) return (n / 1_000_000_000L) + " s";
        if (n % 1_000_000L == 0) return (n / 1_000_000L) + " ms";
        if (n >= 1_000_000L) return String.format(Locale.ROOT, "%.1f ms", n / 1e6);
        if (n % 1_000L == 0) return (n / 1_000L) + " µs";
        return n + " ns";
    }

    /** Milliseconds as a person writes them: "50 s", "1.19 s", "250 ms", "450 µs". */
    public static String millis(double ms) {
        double a = Math.abs(ms);
        if (!Double.isFinite(ms)) return "–";
        if (a >= 1000) return sig(ms / 1000) + " s";
        if (a >= 1 || a == 0) return sig(ms) + " ms";
        if (a >= 1e-3) return sig(ms * 1000) + " µs";
        return sig(ms * 1e6) + " ns";
    }

    /** Three significant digits, no trailing zeros, thousands separated. */
    private static String sig(double v) {
        double a = Math.abs(v);
        String s = a >= 100
                ? String.format(Locale.ROOT, "%,.0f", v)
                : a >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
        if (s.contains(".")) s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        return s;
    }

    /** A measurement and its unit: whole numbers with thousands separated, else two or three decimals. */
    public static String number(double v, String unit) {
        String u = unit == null || unit.isBlank() ? "" : " " + unit;
        double a = Math.abs(v);
        String num = a == Math.rint(a) && a < 1e15
                ? String.format(Locale.ROOT, "%,.0f", v)
                : a >= 100
                        ? String.format(Locale.ROOT, "%,.1f", v)
                        : a >= 1 ? String.format(Locale.ROOT, "%.2f", v) : String.format(Locale.ROOT, "%.3f", v);
        return num + u;
    }
}
