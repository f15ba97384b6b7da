package course.kit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jsoup.nodes.Entities;

/**
 * The learner's own prediction, written down before the experiment runs, then set beside the model and the
 * measurement. In the cell before the experiment, one line; the guess is the learner's to fill in:
 *
 * <pre>{@code
 * var guess = Prediction.of("10,000 customers × 1 s on a pool of 200", Duration.ofSeconds(0));  // your guess
 * var perThread = Prediction.of("µs to start one platform thread", 0, "µs");                    // your guess
 * }</pre>
 *
 * After the experiment, one line in the experiment's cell, with the model from {@code course.kit.models} (one class
 * per notebook), so that neither the formula nor the hints are on screen while the learner guesses:
 *
 * <pre>{@code
 * guess.against(CafeModel.pool(customers, baristas, brew, cores), pool.elapsed());
 * }</pre>
 *
 * where the kit builds the model as
 *
 * <pre>{@code
 * Prediction.Model.of("⌈N/P⌉ · t", PoolModel.batchTime(customers, baristas, brew))
 *         .ifNear(brew, "one wave, t: the pool brews 200 at once, so 10,000 customers need 50 waves")
 *         .ifNear(brew.multipliedBy(customers), "N · t, one customer at a time: 200 baristas brew at once");
 * }</pre>
 *
 * <p>It shows the three figures side by side (your prediction, the model's with its formula, the measurement)
 * and one line of feedback, the {@link Verdict}:
 * <ul>
 *   <li>{@link Verdict#NONE}: the guess was left at its placeholder (zero or less): "no prediction given". A
 *       prediction never stops a notebook, so headless runs pass without one;</li>
 *   <li>{@link Verdict#CLOSE}: within {@value #NEAR_PERCENT}% of the measurement, either way (a ratio from 0.8 to
 *       1.25), and how far; or within 10% of the model's own figure, which answers the question even where what
 *       the model leaves out (start-up, GC pauses, a busy machine) puts the measurement further off;</li>
 *   <li>{@link Verdict#TERM}: otherwise, the nearest {@link Model#ifNear} alternative within
 *       {@value #NEAR_PERCENT}% of the guess: its text says which term of the model the guess missed;</li>
 *   <li>{@link Verdict#OFF}: otherwise, how many times too high or too low, and the model's formula to rework it
 *       with.</li>
 * </ul>
 * No guess makes it throw. In the notebook the result shows as a table (and as
 * {@value #MIME}, which {@code ./course progress} reads); outside the kernel its text is printed.
 *
 * <p>Under a JupyterHub with a class view, a given guess and each outcome also go to the trainer's screen
 * ({@link ClassView}, which the learner can turn off); a cell never waits for it.
 */
public final class Prediction {
    /** How far, in percent, a guess may be from the measurement (or from an alternative) and still be near it. */
    public static final int NEAR_PERCENT = 25;
    /** The JSON MIME type of an {@link Outcome} in a notebook's outputs. */
    public static final String MIME = "application/vnd.vthreads-course.prediction+json";

    private static final double NEAR = 1 + NEAR_PERCENT / 100.0;
    /** How near the model's own figure a guess counts as close: the model is the answer to the question. */
    static final double NEAR_MODEL = 1.1;

    private final String question;
    private final double guess;
    private final String unit;
    private final boolean duration;

    private Prediction(String question, double guess, String unit, boolean duration) {
        this.question = Objects.requireNonNull(question, "question");
        this.guess = guess;
        this.unit = unit == null ? "" : unit.strip();
        this.duration = duration;
    }

    /**
     * A guess of a duration, and shows it. {@link Duration#ZERO} (or less) is the placeholder: no prediction yet.
     *
     * @param question what is predicted, as the notebook asks it
     * @param guess    the learner's guess; null counts as no prediction
     */
    public static Prediction of(String question, Duration guess) {
        double ms = guess == null ? 0 : guess.toNanos() / 1e6;
        return shown(new Prediction(question, ms, "ms", true));
    }

    /**
     * A guess of a number in {@code unit}, and shows it. Zero (or less) is the placeholder: no prediction yet.
     *
     * @param question what is predicted, as the notebook asks it
     * @param guess    the learner's guess
     * @param unit     its unit, for example {@code "µs"}, {@code "MB"} or {@code ""}
     */
    public static Prediction of(String question, double guess, String unit) {
        return shown(new Prediction(question, guess, unit, false));
    }

    private static Prediction shown(Prediction p) {
        Notebook.showOnce(p);
        if (p.given()) ClassView.guess(p.question(), p.guess(), p.unit());
        return p;
    }

    /** The question, as given. */
    public String question() {
        return question;
    }

    /** Whether a guess was given: a finite number above zero. */
    public boolean given() {
        return guess > 0 && Double.isFinite(guess);
    }

    /** The guess, in {@link #unit()} (milliseconds for a duration). */
    public double guess() {
        return guess;
    }

    /** The guess's unit: {@code "ms"} for a duration. */
    public String unit() {
        return unit;
    }

    /** The prediction against the model and a measured duration; shows the result and returns it. */
    public Outcome against(Model model, Duration measured) {
        Objects.requireNonNull(measured, "measured");
        return against(model, toUnit(measured.toNanos() / 1e6, "ms", "measured"));
    }

    /**
     * The prediction against the model and a measurement in the prediction's unit (milliseconds for a
     * duration); shows the result and returns it.
     *
     * @throws IllegalArgumentException if the model's unit cannot be converted to the prediction's (a mistake in
     *     the cell, not in the guess)
     */
    public Outcome against(Model model, double measured) {
        Objects.requireNonNull(model, "model");
        Outcome o = judge(model, measured);
        Notebook.showOnce(o);
        ClassView.outcome(o.json());
        return o;
    }

    /** The outcome, without showing it. */
    Outcome judge(Model model, double measured) {
        double modelValue = toUnit(model.value, model.unit, "the model");
        if (!given()) {
            return new Outcome(
                    question,
                    false,
                    Double.NaN,
                    modelValue,
                    model.formula,
                    measured,
                    unit,
                    duration,
                    Verdict.NONE,
                    null,
                    "no prediction given: write your guess in the prediction cell and run it again, then this one");
        }
        double ratio = measured > 0 ? guess / measured : Double.NaN;
        if (near(ratio)) {
            long pct = Math.round(Math.abs(ratio - 1) * 100);
            String how = pct == 0
                    ? "within 1% of the measurement"
                    : pct + "% " + (ratio > 1 ? "above" : "below") + " the measurement";
            return outcome(model, modelValue, measured, Verdict.CLOSE, null, "close: your guess is " + how);
        }
        double toModel = modelValue > 0 ? guess / modelValue : Double.NaN;
        if (toModel >= 1 / NEAR_MODEL && toModel <= NEAR_MODEL) {
            // The model's own figure is the right answer to the question, even where what it leaves out (start-up,
            // wake-ups, GC pauses, a busy machine) puts the measurement further off.
            long off = Math.round(Math.abs(measured / modelValue - 1) * 100);
            return outcome(
                    model,
                    modelValue,
                    measured,
                    Verdict.CLOSE,
                    null,
                    "close: your guess is the model's " + model.formula + " = " + show(modelValue)
                            + "; the measurement is " + off + "% " + (measured >= modelValue ? "above" : "below")
                            + " it, by what the model leaves out");
        }
        Model.Alternative best = null;
        double bestDistance = Double.POSITIVE_INFINITY;
        for (Model.Alternative a : model.alternatives) {
            double v = toUnit(a.value(), a.unit(), "an alternative");
            double r = guess / v;
            if (v > 0 && near(r) && Math.abs(Math.log(r)) < bestDistance) {
                best = a;
                bestDistance = Math.abs(Math.log(r));
            }
        }
        if (best != null) {
            return outcome(
                    model, modelValue, measured, Verdict.TERM, best.text(), "your guess looks like " + best.text());
        }
        String rework = "rework it with the model: " + model.formula + " = " + show(modelValue);
        String feedback = !(ratio > 0)
                ? "the measurement is " + show(measured) + ", so there is no ratio to give; " + rework
                : (ratio > 1 ? times(ratio) + " too high" : times(1 / ratio) + " too low") + "; " + rework;
        return outcome(model, modelValue, measured, Verdict.OFF, null, feedback);
    }

    private Outcome outcome(
            Model model, double modelValue, double measured, Verdict verdict, String term, String feedback) {
        return new Outcome(
                question, true, guess, modelValue, model.formula, measured, unit, duration, verdict, term, feedback);
    }

    private static boolean near(double ratio) {
        return ratio >= 1 / NEAR && ratio <= NEAR;
    }

    private static String times(double r) {
        return r >= 10 ? String.format(Locale.ROOT, "%,.0f×", r) : String.format(Locale.ROOT, "%.1f×", r);
    }

    /** {@code value} in {@code from} converted to this prediction's unit: time units convert, others must match. */
    private double toUnit(double value, String from, String what) {
        String f = from == null ? "" : from.strip();
        if (f.equals(unit)) return value;
        Double a = SECONDS_PER.get(f), b = SECONDS_PER.get(unit);
        if (a != null && b != null) return value * a / b;
        throw new IllegalArgumentException(String.format(
                "%s is in '%s' and the prediction \"%s\" in '%s': give them the same unit", what, f, question, unit));
    }

    private static final Map<String, Double> SECONDS_PER =
            Map.of("ns", 1e-9, "µs", 1e-6, "us", 1e-6, "ms", 1e-3, "s", 1.0, "min", 60.0);

    private String show(double v) {
        return duration ? Format.millis(v) : Format.number(v, unit);
    }

    /** One line: the guess, or that there is none yet. */
    @Override
    public String toString() {
        return given()
                ? "your prediction: " + show(guess) + " · " + question
                : "no prediction yet: " + question + " (write your guess in place of the 0, then run the cell)";
    }

    /** The same line as HTML. */
    public String html() {
        return "<div style='font-family:sans-serif'>" + (given() ? "🔮 " : "✎ ") + Entities.escape(toString())
                + "</div>";
    }

    /** What the learner's guess is compared with: a formula, its value, and the values of likely mistakes. */
    public static final class Model {
        private final String formula;
        private final double value;
        private final String unit;
        private final List<Alternative> alternatives;

        private record Alternative(double value, String unit, String text) {}

        private Model(String formula, double value, String unit, List<Alternative> alternatives) {
            this.formula = Objects.requireNonNull(formula, "formula");
            this.value = value;
            this.unit = unit == null ? "" : unit.strip();
            this.alternatives = List.copyOf(alternatives);
        }

        /** The model's duration, for example {@code Model.of("⌈N/P⌉ · t", PoolModel.batchTime(n, p, t))}. */
        public static Model of(String formula, Duration value) {
            return new Model(formula, Objects.requireNonNull(value, "value").toNanos() / 1e6, "ms", List.of());
        }

        /** The model's number in {@code unit}, for example {@code Model.of("N · c", 10_000 * 0.02, "ms")}. */
        public static Model of(String formula, double value, String unit) {
            return new Model(formula, value, unit, List.of());
        }

        /**
         * A likely mistake: a guess within {@value Prediction#NEAR_PERCENT}% of {@code value} (and not close to the
         * measurement) gets {@code text}, which should say which term of the model the guess missed.
         */
        public Model ifNear(Duration value, String text) {
            return ifNear(Objects.requireNonNull(value, "value").toNanos() / 1e6, "ms", text);
        }

        /** {@link #ifNear(Duration, String)} for a number in the model's unit. */
        public Model ifNear(double value, String text) {
            return ifNear(value, unit, text);
        }

        private Model ifNear(double value, String unit, String text) {
            var all = new ArrayList<>(alternatives);
            all.add(new Alternative(value, unit, Objects.requireNonNull(text, "text")));
            return new Model(formula, this.value, this.unit, all);
        }

        /** The formula, as shown. */
        public String formula() {
            return formula;
        }

        /** The model's value, in {@link #unit()}. */
        public double value() {
            return value;
        }

        /** The unit of {@link #value()}: {@code "ms"} for a duration. */
        public String unit() {
            return unit;
        }
    }

    /** How a guess compares; {@link #json()} is its name in the MIME entry. */
    public enum Verdict {
        /** No guess was given. */
        NONE,
        /** Within {@value Prediction#NEAR_PERCENT}% of the measurement. */
        CLOSE,
        /** Near a likely mistake that the model names: a term missed. */
        TERM,
        /** Neither: so many times too high or too low. */
        OFF;

        /** "none", "close", "term" or "off". */
        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A prediction set beside the model and the measurement.
     *
     * @param question the question
     * @param given    whether a guess was given
     * @param guess    the guess (NaN when none), in {@code unit}
     * @param model    the model's value, in {@code unit}
     * @param formula  the model's formula
     * @param measured the measurement, in {@code unit}
     * @param unit     {@code "ms"} for durations, else the prediction's unit
     * @param duration whether the figures are durations (shown as "50 s", "250 ms")
     * @param verdict  how the guess compares
     * @param term     the text of the alternative the guess was near ({@link Verdict#TERM}), else null
     * @param feedback the one line of feedback shown
     */
    public record Outcome(
            String question,
            boolean given,
            double guess,
            double model,
            String formula,
            double measured,
            String unit,
            boolean duration,
            Verdict verdict,
            String term,
            String feedback) {

        /** guess / measured, or NaN when there is no guess or no positive measurement. */
        public double ratio() {
            return given && measured > 0 ? guess / measured : Double.NaN;
        }

        private String show(double v) {
            if (Double.isNaN(v)) return "–";
            return duration ? Format.millis(v) : Format.number(v, unit);
        }

        /** Three lines: the question, the three figures, the feedback. */
        @Override
        public String toString() {
            return "prediction · " + question + "\n  yours " + (given ? show(guess) : "–") + " · model " + formula
                    + " = " + show(model) + " · measured " + show(measured) + "\n  → " + feedback;
        }

        /** The three figures side by side, and the feedback under them. */
        public String html() {
            String td = "<td style='padding:2px 14px;text-align:right'>";
            String th = "<th style='padding:2px 14px;text-align:right'>";
            return "<div style='font-family:sans-serif'><div><b>Prediction</b> · " + Entities.escape(question)
                    + "</div><table><tr>" + th + "your prediction</th>" + th + "the model: "
                    + Entities.escape(formula) + "</th>" + th + "measured</th></tr><tr>" + td
                    + (given ? Entities.escape(show(guess)) : "<i>none</i>") + "</td>" + td
                    + Entities.escape(show(model)) + "</td>" + td + Entities.escape(show(measured))
                    + "</td></tr></table><div>" + (verdict == Verdict.CLOSE ? "✔ " : "→ ")
                    + Entities.escape(feedback) + "</div></div>";
        }

        /**
         * The {@link #MIME} entry: {@code question, given, guess, model, formula, measured, unit, ratio, verdict,
         * term}; durations in ms; guess, ratio and term null when they do not apply (a JSON writer may leave a
         * null out).
         */
        public Map<String, Object> json() {
            var m = new LinkedHashMap<String, Object>();
            m.put("question", question);
            m.put("given", given);
            m.put("guess", given ? guess : null);
            m.put("model", model);
            m.put("formula", formula);
            m.put("measured", measured);
            m.put("unit", unit);
            m.put("ratio", Double.isNaN(ratio()) ? null : ratio());
            m.put("verdict", verdict.json());
            m.put("term", term);
            return m;
        }
    }
}
