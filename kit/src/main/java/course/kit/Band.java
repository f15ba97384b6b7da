package course.kit;

import java.util.Locale;

/**
 * The range a timing check accepts: from the prediction {@code lo} up to {@code hi}, the prediction plus the
 * overheads the model leaves out, in {@code unit}, with {@code why} saying where the bounds come from.
 *
 * @param lo   the lowest acceptable figure (usually the prediction itself: a sleep never ends early)
 * @param hi   the highest acceptable figure
 * @param unit the unit of both, for example "ms"
 * @param why  where the bounds come from, shown in the check's line; may be empty
 */
public record Band(double lo, double hi, String unit, String why) {
    public Band {
        if (Double.isNaN(lo) || Double.isNaN(hi) || lo > hi) {
            throw new IllegalArgumentException("a band needs lo <= hi, not " + lo + " … " + hi);
        }
        unit = unit == null ? "" : unit;
        why = why == null ? "" : why;
    }

    /** A band with no explanation. */
    public static Band of(double lo, double hi, String unit) {
        return new Band(lo, hi, unit, "");
    }

    /** Whether {@code measured} lies in {@code [lo, hi]}. */
    public boolean contains(double measured) {
        return measured >= lo && measured <= hi;
    }

    /** "measured 5,012 ms, predicted 5,000 … 5,450 ms (why)". */
    public String describe(double measured) {
        return String.format(
                Locale.ROOT,
                "measured %s, predicted %s … %s%s",
                Format.number(measured, unit),
                Format.number(lo, unit),
                Format.number(hi, unit),
                why.isBlank() ? "" : " (" + why + ")");
    }
}
