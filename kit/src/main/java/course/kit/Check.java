package course.kit;

import java.util.Locale;

/**
 * Measured against predicted. Each check prints one line, starting with {@code ✔} when the measurement is
 * within the stated tolerance of the prediction and {@code ✘} when it is not, and then throws
 * {@link Failed} so that the notebook run fails where the claim fails.
 *
 * <p><b>Two kinds of check.</b> A <em>logic</em> check ({@link #equal}, {@link #that}, {@link #atLeast} …) is
 * about counts, peaks, permits and ordering: no machine can excuse a miss, so it always stops the notebook.
 * A <em>timing</em> check ({@link #timing}) is about elapsed time, which other programs on the same cores can
 * stretch: it runs the experiment again on a miss, and if every try missed while the machine was busy it ends
 * with a {@code ⚠} line that gives the evidence instead of stopping. On a quiet machine a miss is still a
 * {@code ✘}; a measurement <em>below</em> the band is never excused, since a busy machine only adds time,
 * except where the prediction itself came from a calibration that load can skew ({@link #calibrated}).
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

        Failed(String line) {
            super(line);
        }
    }

    /** Marks a check that held. */
    public static final String PASS = "\u2714";
    /** Marks a check that failed. */
    public static final String FAIL = "\u2718";
    /** Marks a timing check that missed while other programs were using the cores. */
    public static final String WARN = "\u26A0";
    /** How many times {@link #timing} runs an experiment before it judges a miss. */
    public static final int TIMING_TRIES = 3;

    /** The experiment a timing check runs (again, on a miss). */
    @FunctionalInterface
    public interface Attempt<T> {
        /** Runs the experiment once. @throws Exception whatever it throws */
        T run() throws Exception;
    }

    /** The band for one try's result, for a prediction that allows for what that try measured about itself. */
    @FunctionalInterface
    public interface BandFor<T> {
        /** The band this result is judged against. */
        Band of(T result);
    }

    /** What to read off an experiment's result, in the band's unit. */
    @FunctionalInterface
    public interface Reading<T> {
        /** The measured figure. */
        double of(T result);
    }

    /**
     * A timing check: runs {@code attempt}, reads its figure and checks it against {@code band}. On a miss it
     * runs the experiment again, up to {@link #TIMING_TRIES} times in all, and returns the result of the first
     * try that landed in the band. If every try missed:
     * <ul>
     *   <li>a figure below the band, or a miss on a quiet machine, prints {@code ✘} and throws {@link Failed};</li>
     *   <li>misses above the band while other programs kept the cores busy in every try print a {@code ⚠} line
     *       with the figures, the band and the load evidence, and return the last result.</li>
     * </ul>
     *
     * @return the result of the try that passed, or of the last try
     */
    public static <T> T timing(String what, Band band, Attempt<T> attempt, Reading<T> reading) throws Exception {
        return timing(what, band, attempt, reading, Machine.system());
    }

    /** {@link #timing(String, Band, Attempt, Reading)} with the given load meter (tests use a fixed one). */
    public static <T> T timing(String what, Band band, Attempt<T> attempt, Reading<T> reading, Machine.Meter meter)
            throws Exception {
        java.util.Objects.requireNonNull(band, "band");
        return timing(what, r -> band, attempt, reading, meter);
    }

    /**
     * {@link #timing(String, Band, Attempt, Reading)} with a band for each try, computed from that try's result:
     * for a prediction that allows for something the run measured about itself, such as the garbage
     * collector's pauses during it ({@link GcPauses}). The lines show the last try's band.
     */
    public static <T> T timing(String what, BandFor<T> bandFor, Attempt<T> attempt, Reading<T> reading)
            throws Exception {
        return timing(what, bandFor, attempt, reading, Machine.system());
    }

    /** {@link #timing(String, BandFor, Attempt, Reading)} with the given load meter (tests use a fixed one). */
    public static <T> T timing(
            String what, BandFor<T> bandFor, Attempt<T> attempt, Reading<T> reading, Machine.Meter meter)
            throws Exception {
        return timing(what, bandFor, attempt, reading, meter, false);
    }

    /**
     * A timing check on a figure that an earlier measurement of this machine set, such as the CPU time of a task
     * sized by {@link Tasks#calibrate}: load during the calibration makes the machine look slower than it is, so
     * the tasks come out shorter, and other programs can push this figure below the band as well as above it. A
     * miss on either side is tried again (each try calibrates afresh); misses while the machine was busy in every
     * try end with a {@code ⚠} line, and a miss on a quiet machine with {@code ✘}, as in {@link #timing}.
     */
    public static <T> T calibrated(String what, Band band, Attempt<T> attempt, Reading<T> reading) throws Exception {
        return calibrated(what, band, attempt, reading, Machine.system());
    }

    /** {@link #calibrated(String, Band, Attempt, Reading)} with the given load meter (tests use a fixed one). */
    public static <T> T calibrated(String what, Band band, Attempt<T> attempt, Reading<T> reading, Machine.Meter meter)
            throws Exception {
        java.util.Objects.requireNonNull(band, "band");
        return timing(what, r -> band, attempt, reading, meter, true);
    }

    private static <T> T timing(
            String what,
            BandFor<T> bandFor,
            Attempt<T> attempt,
            Reading<T> reading,
            Machine.Meter meter,
            boolean loadLowers)
            throws Exception {
        java.util.Objects.requireNonNull(bandFor, "bandFor");
        var figures = new java.util.ArrayList<Double>();
        var loads = new java.util.ArrayList<Machine.Load>();
        T result = null;
        Band band = null;
        for (int i = 1; i <= TIMING_TRIES; i++) {
            var window = meter.begin();
            result = attempt.run();
            var load = window.end();
            band = java.util.Objects.requireNonNull(bandFor.of(result), "bandFor gave no band");
            double m = reading.of(result);
            figures.add(m);
            loads.add(load);
            if (band.contains(m)) {
                String tries = i == 1
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                " [try %d of %d; earlier %s; %s]",
                                i,
                                TIMING_TRIES,
                                joinFigures(figures.subList(0, i - 1), band.unit()),
                                loads.get(i - 2).evidence());
                report(what, true, band.describe(m) + tries);
                return result;
            }
            if (m < band.lo() && !loadLowers) break; // nothing on a machine makes a run faster than predicted
        }
        double last = figures.getLast();
        boolean allBusy = loads.stream().allMatch(Machine.Load::busy);
        String seen = figures.size() == 1
                ? ""
                : String.format(Locale.ROOT, " [%d tries: %s]", figures.size(), joinFigures(figures, band.unit()));
        if ((last >= band.lo() || loadLowers) && allBusy) {
            String line = WARN + " " + what + ": " + band.describe(last) + seen + "; the machine was busy: "
                    + loads.stream()
                            .map(Machine.Load::evidence)
                            .distinct()
                            .reduce((a, b) -> a + "; " + b)
                            .orElse("")
                    + ". Run the cell again on a quiet machine to judge the prediction.";
            System.out.println(line);
            return result;
        }
        String quiet = last < band.lo() && !loadLowers
                ? "; below the band, which no load can cause"
                : "; the machine was quiet: "
                        + loads.stream()
                                .filter(l -> !l.busy())
                                .findFirst()
                                .map(Machine.Load::evidence)
                                .orElse(loads.getLast().evidence());
        report(what, false, band.describe(last) + seen + quiet);
        return result; // not reached: report throws
    }

    private static String joinFigures(java.util.List<Double> figures, String unit) {
        return figures.stream()
                .map(f -> Format.number(f, unit))
                .reduce((a, b) -> a + ", " + b)
                .orElse("");
    }

    private Check() {}

    /** Passes when {@code |measured − predicted| ≤ relTolerance · |predicted|}. */
    public static void near(String what, double measured, double predicted, double relTolerance, String unit) {
        if (relTolerance < 0) throw new IllegalArgumentException("tolerance cannot be negative: " + relTolerance);
        double slack = Math.abs(predicted) * relTolerance;
        report(
                what,
                Math.abs(measured - predicted) <= slack,
                String.format(
                        Locale.ROOT,
                        "measured %s, predicted %s ± %.1f%% (%s … %s)",
                        Format.number(measured, unit),
                        Format.number(predicted, unit),
                        relTolerance * 100,
                        Format.number(predicted - slack, unit),
                        Format.number(predicted + slack, unit)));
    }

    /** Passes when {@code lo ≤ measured ≤ hi}; {@code why} says where the bounds come from. */
    public static void between(String what, double measured, double lo, double hi, String unit, String why) {
        if (lo > hi) throw new IllegalArgumentException("lo > hi: " + lo + " > " + hi);
        report(
                what,
                measured >= lo && measured <= hi,
                String.format(
                        Locale.ROOT,
                        "measured %s, predicted %s … %s%s",
                        Format.number(measured, unit),
                        Format.number(lo, unit),
                        Format.number(hi, unit),
                        why == null || why.isBlank() ? "" : " (" + why + ")"));
    }

    /** Passes when {@code measured ≤ limit}. */
    public static void atMost(String what, double measured, double limit, String unit) {
        report(
                what,
                measured <= limit,
                String.format(
                        Locale.ROOT,
                        "measured %s, predicted at most %s",
                        Format.number(measured, unit),
                        Format.number(limit, unit)));
    }

    /** Passes when {@code measured ≥ limit}. */
    public static void atLeast(String what, double measured, double limit, String unit) {
        report(
                what,
                measured >= limit,
                String.format(
                        Locale.ROOT,
                        "measured %s, predicted at least %s",
                        Format.number(measured, unit),
                        Format.number(limit, unit)));
    }

    /** Passes when {@code measured == predicted} exactly (counts, not times). */
    public static void equal(String what, long measured, long predicted) {
        report(
                what,
                measured == predicted,
                String.format(Locale.ROOT, "measured %,d, predicted %,d", measured, predicted));
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
}
