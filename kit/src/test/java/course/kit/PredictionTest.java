package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Prediction.Model;
import course.kit.Prediction.Verdict;
import course.kit.models.PoolModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PredictionTest {
    /** The café of notebook 02: 10,000 customers × 1 s on a pool of 200. */
    private static Model cafe() {
        return Model.of("⌈N/P⌉ · t", PoolModel.batchTime(10_000, 200, Duration.ofSeconds(1)))
                .ifNear(Duration.ofSeconds(1), "one wave, t: the pool brews 200 at once")
                .ifNear(Duration.ofSeconds(10_000), "N · t, one customer at a time: 200 baristas brew at once");
    }

    private static final Duration MEASURED = Duration.ofMillis(50_200);

    private static Prediction.Outcome judge(Duration guess) {
        return quietly(() -> Prediction.of("10,000 customers × 1 s on a pool of 200", guess))
                .judge(cafe(), MEASURED.toNanos() / 1e6);
    }

    /** Runs {@code f} with System.out captured; returns its value. */
    private static <T> T quietly(java.util.function.Supplier<T> f) {
        PrintStream original = System.out;
        System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try {
            return f.get();
        } finally {
            System.setOut(original);
        }
    }

    @Test
    void aPlaceholderIsNoPredictionAndNeverAnError() {
        for (Duration none : new Duration[] {Duration.ZERO, Duration.ofSeconds(-3), null}) {
            var o = judge(none);
            assertEquals(Verdict.NONE, o.verdict(), String.valueOf(none));
            assertFalse(o.given());
            assertTrue(o.feedback().startsWith("no prediction given"), o.feedback());
            assertFalse(o.toString().contains("✘"), o.toString());
            assertTrue(Double.isNaN(o.ratio()));
            assertNull(o.json().get("guess"));
            assertNull(o.json().get("ratio"));
            assertEquals("none", o.json().get("verdict"));
        }
        var nan = quietly(() -> Prediction.of("a number", Double.NaN, "µs")).judge(Model.of("c", 5, "µs"), 5);
        assertEquals(Verdict.NONE, nan.verdict());
    }

    @Test
    void withinAQuarterOfTheMeasurementIsCloseBothWays() {
        var above = judge(Duration.ofSeconds(60)); // 60 / 50.2 = 1.195
        assertEquals(Verdict.CLOSE, above.verdict());
        assertEquals("close: your guess is 20% above the measurement", above.feedback());
        var below = judge(Duration.ofSeconds(41)); // 41 / 50.2 = 0.817
        assertEquals(Verdict.CLOSE, below.verdict());
        assertTrue(below.feedback().contains("18% below"), below.feedback());
        assertEquals(Verdict.CLOSE, judge(Duration.ofMillis(50_200)).verdict());
        assertTrue(judge(Duration.ofMillis(50_200)).feedback().contains("within 1%"));
        // the edges: a ratio of 1.25 is close, a little more is not; 0.8 likewise
        assertEquals(Verdict.CLOSE, judge(Duration.ofMillis(62_750)).verdict());
        assertEquals(Verdict.OFF, judge(Duration.ofMillis(63_000)).verdict());
        assertEquals(Verdict.CLOSE, judge(Duration.ofMillis(40_160)).verdict());
        assertEquals(Verdict.OFF, judge(Duration.ofMillis(39_900)).verdict()); // below both 0.8 × 50.2 s and 0.8 × 50 s
    }

    @Test
    void theModelsOwnFigureIsCloseWhereTheMeasurementAddsWhatTheModelLeavesOut() {
        // Notebook 08's handler: t + maxWait = 500 ms, measured 633 ms with 130 ms of GC pauses in the run.
        var m = Model.of("t + maxWait", 500, "ms").ifNear(400, "t alone: the wait for a permit forgotten");
        var right =
                quietly(() -> Prediction.of("p99 in the handler", 500, "ms")).judge(m, 633);
        assertEquals(Verdict.CLOSE, right.verdict(), right.feedback());
        assertEquals(
                "close: your guess is the model's t + maxWait = 500 ms; the measurement is 27% above it, by what the"
                        + " model leaves out",
                right.feedback());
        assertEquals(
                Verdict.TERM,
                quietly(() -> Prediction.of("p99", 400, "ms")).judge(m, 633).verdict());
        assertEquals(
                Verdict.OFF,
                quietly(() -> Prediction.of("p99", 300, "ms")).judge(m, 633).verdict());
    }

    @Test
    void aGuessNearALikelyMistakeNamesTheMissedTerm() {
        var oneWave = judge(Duration.ofMillis(1_100));
        assertEquals(Verdict.TERM, oneWave.verdict());
        assertEquals("one wave, t: the pool brews 200 at once", oneWave.term());
        assertEquals("your guess looks like one wave, t: the pool brews 200 at once", oneWave.feedback());
        var serial = judge(Duration.ofSeconds(9_000));
        assertEquals(Verdict.TERM, serial.verdict());
        assertTrue(serial.term().startsWith("N · t"), serial.term());
        assertEquals("term", serial.json().get("verdict"));
        assertEquals(serial.term(), serial.json().get("term"));
    }

    @Test
    void theNearestAlternativeWins() {
        var m = Model.of("f", 100, "ms").ifNear(10, "ten").ifNear(12, "twelve");
        var p = quietly(() -> Prediction.of("q", 11.5, "ms"));
        assertEquals("twelve", p.judge(m, 100).term());
        assertEquals(
                "ten",
                quietly(() -> Prediction.of("q", 10.5, "ms")).judge(m, 100).term());
    }

    @Test
    void otherwiseHowManyTimesOffAndTheFormulaToReworkItWith() {
        var low = judge(Duration.ofSeconds(5));
        assertEquals(Verdict.OFF, low.verdict());
        assertEquals("10× too low; rework it with the model: ⌈N/P⌉ · t = 50 s", low.feedback());
        assertNull(low.term());
        var high = judge(Duration.ofSeconds(150));
        assertEquals(Verdict.OFF, high.verdict());
        assertTrue(
                high.feedback().startsWith("3.0× too high; rework it with the model: ⌈N/P⌉ · t = 50 s"),
                high.feedback());
        assertEquals(150_000 / 50_200.0, (double) high.json().get("ratio"), 1e-9);
    }

    @Test
    void noGuessMakesItThrow() {
        for (double g : new double[] {Double.POSITIVE_INFINITY, 1e300, 1e-300, Double.MIN_VALUE}) {
            var o = quietly(() -> Prediction.of("q", g, "µs")).judge(Model.of("f", 5, "µs"), 5);
            assertTrue(o.verdict() == Verdict.OFF || o.verdict() == Verdict.NONE, g + ": " + o.verdict());
            assertFalse(o.toString().isBlank());
        }
        var zeroMeasured = quietly(() -> Prediction.of("q", 3, "µs")).judge(Model.of("f", 5, "µs"), 0);
        assertEquals(Verdict.OFF, zeroMeasured.verdict());
        assertTrue(zeroMeasured.feedback().contains("no ratio"), zeroMeasured.feedback());
    }

    @Test
    void timeUnitsConvertAndOtherUnitsMustMatch() {
        var p = quietly(() -> Prediction.of("one platform thread", 60, "µs"));
        assertEquals(Verdict.CLOSE, p.judge(Model.of("c", 0.05, "ms"), 55).verdict());
        var d = quietly(() -> Prediction.of("café", Duration.ofSeconds(50)));
        assertEquals(50_000, d.judge(Model.of("⌈N/P⌉ · t", 50, "s"), 50_100).model(), 1e-9);
        var mb = quietly(() -> Prediction.of("heap", 800, "MB"));
        var e = assertThrows(IllegalArgumentException.class, () -> mb.judge(Model.of("n · s", 0.8, "GB"), 850));
        assertTrue(e.getMessage().contains("same unit"), e.getMessage());
    }

    @Test
    void theOutcomeShowsTheThreeFiguresAndItsJson() {
        var o = judge(Duration.ofSeconds(5));
        String text = o.toString();
        assertTrue(
                text.contains("yours 5 s")
                        && text.contains("model ⌈N/P⌉ · t = 50 s")
                        && text.contains("measured 50.2 s"),
                text);
        String html = o.html();
        assertTrue(html.contains("<table") && html.contains("your prediction") && html.contains("50.2 s"), html);
        var json = o.json();
        assertEquals(
                java.util.List.of(
                        "question",
                        "given",
                        "guess",
                        "model",
                        "formula",
                        "measured",
                        "unit",
                        "ratio",
                        "verdict",
                        "term"),
                java.util.List.copyOf(json.keySet()));
        assertEquals(true, json.get("given"));
        assertEquals(5_000.0, json.get("guess"));
        assertEquals(50_000.0, json.get("model"));
        assertEquals(50_200.0, json.get("measured"));
        assertEquals("ms", json.get("unit"));
        assertEquals("off", json.get("verdict"));
    }

    @Test
    void outsideTheKernelOfAndAgainstPrintTheirText() {
        PrintStream original = System.out;
        var out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            var guess = Prediction.of("µs to start one platform thread", 0, "µs");
            guess.against(Model.of("calibration", 60, "µs"), 58);
            var mine = Prediction.of("café", Duration.ofSeconds(3));
            var outcome = mine.against(cafe(), MEASURED);
            assertEquals(Verdict.OFF, outcome.verdict());
            assertTrue(Notebook.shown(outcome), "shown once, so the kernel does not show it again as the cell's value");
        } finally {
            System.setOut(original);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("no prediction yet: µs to start one platform thread"), text);
        assertTrue(text.contains("→ no prediction given"), text);
        assertTrue(text.contains("your prediction: 3 s · café"), text);
        assertTrue(text.contains("17× too low"), text);
    }

    @Test
    void durationsReadAsPeopleWriteThem() {
        assertEquals("50 s", Format.millis(50_000));
        assertEquals("1.19 s", Format.millis(1_188));
        assertEquals("250 ms", Format.millis(250));
        assertEquals("12.5 ms", Format.millis(12.5));
        assertEquals("450 µs", Format.millis(0.45));
        assertEquals("80 ns", Format.millis(0.00008));
        assertEquals("1,250 s", Format.millis(1_250_000));
    }
}
