package course.kit;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * The course's two sizes. {@link #FULL} (the default) runs the articles' exact parameters; {@link #QUICK}
 * shrinks durations and counts so that every notebook runs in seconds, for CI and short workshops.
 *
 * <p>The scale comes from the environment variable {@code COURSE_SCALE} ({@code full} or {@code quick},
 * case-insensitive), read once by {@link #current()}; code that is handed a scale takes it as a value. Every
 * experiment picks its parameters through {@link #pick(Object, Object)} so that a prediction computed from the
 * picked values holds at both sizes. The names and the default (the first) are written here only: {@code ./course}
 * asks {@link #main} to check a scale's name.
 */
public enum Scale {
    /** The articles' exact parameters. */
    FULL,
    /** Shorter durations and smaller counts, with the same shape. */
    QUICK;

    /** The environment variable that sets the scale of a process and of the processes it starts. */
    public static final String ENV = "COURSE_SCALE";

    private static volatile Scale current;

    /**
     * The scale this JVM runs at: {@code COURSE_SCALE}, read and parsed once (the first call).
     *
     * @throws IllegalArgumentException if COURSE_SCALE names no scale
     */
    public static Scale current() {
        Scale s = current;
        if (s == null) {
            current = s = parse(System.getenv(ENV));
        }
        return s;
    }

    /** Parses {@code full} or {@code quick}; null or blank means the default, the first ({@link #FULL}). */
    public static Scale parse(String raw) {
        if (raw == null || raw.isBlank()) return values()[0];
        for (Scale s : values()) {
            if (s.toString().equals(raw.strip().toLowerCase(Locale.ROOT))) return s;
        }
        throw new IllegalArgumentException(ENV + " must be '"
                + String.join(
                        "' or '", Arrays.stream(values()).map(Scale::toString).toList()) + "', not '" + raw
                + "'");
    }

    /**
     * {@code java -cp … course.kit.Scale [NAME]}: the one check of a scale's name, for {@code ./course}. Prints the
     * scale NAME names, or without NAME the one COURSE_SCALE names ({@link #current()}); a name that is no scale
     * is refused on stderr, with exit code 2.
     */
    public static void main(String[] args) {
        try {
            System.out.println(args.length > 0 ? parse(args[0]) : current());
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
        }
    }

    /** {@code full} at the full scale, {@code quick} at the quick one. */
    public <T> T pick(T full, T quick) {
        return this == FULL ? Objects.requireNonNull(full) : Objects.requireNonNull(quick);
    }

    /** {@code full} at the full scale, {@code quick} at the quick one. */
    public int pick(int full, int quick) {
        return this == FULL ? full : quick;
    }

    /** {@code full} at the full scale, {@code quick} at the quick one. */
    public long pick(long full, long quick) {
        return this == FULL ? full : quick;
    }

    /** A duration: {@code full} as given, or divided by {@code quickDivisor} at the quick scale. */
    public Duration shrink(Duration full, int quickDivisor) {
        if (quickDivisor < 1) throw new IllegalArgumentException("quickDivisor must be >= 1: " + quickDivisor);
        return this == FULL ? full : full.dividedBy(quickDivisor);
    }

    /** A count: {@code full} as given, or divided by {@code quickDivisor} (at least 1) at the quick scale. */
    public int shrink(int full, int quickDivisor) {
        if (quickDivisor < 1) throw new IllegalArgumentException("quickDivisor must be >= 1: " + quickDivisor);
        return this == FULL ? full : Math.max(1, full / quickDivisor);
    }

    /** Lower-case name, as COURSE_SCALE spells it. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
