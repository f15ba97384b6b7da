package course.kit.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Prediction;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The notebooks' models: each one's formula and value, and a guess near a likely mistake gets that term's hint. */
class ModelsTest {
    private static Prediction.Outcome guess(double value, String unit, Prediction.Model model, double measured) {
        return Prediction.of("q", value, unit).against(model, measured);
    }

    @Test
    void theCafesPoolIsItsWavesAndAOneWaveGuessIsToldWhy() {
        var model = CafeModel.pool(10_000, 200, Duration.ofSeconds(1), 2);
        assertEquals("⌈N/P⌉ · t", model.formula());
        assertEquals(50_000, model.value(), 1e-9);
        var outcome = Prediction.of("q", Duration.ofSeconds(1)).against(model, Duration.ofMillis(50_070));
        assertEquals(Prediction.Verdict.TERM, outcome.verdict());
        assertTrue(outcome.term().startsWith("one wave"), outcome.term());
    }

    @Test
    void everyModelHasAFormulaAndAPositiveValue() {
        Duration t = Duration.ofMillis(100);
        List<Prediction.Model> all = List.of(
                WelcomeModel.pool(2_000, 100, Duration.ofMillis(200)),
                CreationModel.platform(60, 100, 1),
                CreationModel.virtual(1, 20, 18, 60),
                CreationModel.parked(1024),
                CafeModel.virtual(10_000, 200, t, 2, Duration.ofMillis(30)),
                CafeModel.bigPool(10_000, 1_000, t, 2, Duration.ofMillis(1)),
                FixedPoolModel.waves(11, 10, t),
                FixedPoolModel.little(4_000, Duration.ofMillis(50), 2, 50),
                FixedPoolModel.longLast(t, t.multipliedBy(6)),
                IoCpuModel.cpuBound(12, 2, Duration.ofMillis(50)),
                IoCpuModel.ioBound(100, 2, t),
                IoCpuModel.virtualPool(600, 200, 2, t),
                ThrottleModel.elapsed(1_000, 50, t, 2),
                ThrottleModel.peak(1_000, 50, 2),
                ThrottleModel.rate(50, Duration.ofMillis(5)),
                PinningModel.synchronizedCalls(100, 2, t),
                PinningModel.classInit(100, 2),
                PinningModel.interrupted(t.multipliedBy(5), t),
                ScopeModel.together(List.of(t, t.multipliedBy(2), t.multipliedBy(3))),
                ScopeModel.failure(List.of(t, t.multipliedBy(2), t.multipliedBy(3)), t.dividedBy(3)),
                ScopeModel.formatters(10_000, 200),
                HttpModel.poolThroughput(400, 200, 100, t),
                HttpModel.poolP99(400, 200, 100, t),
                HttpModel.virtualThroughput(400, 200, 100, t),
                HttpModel.shed(400, 100, t, t));
        for (var m : all) {
            assertTrue(!m.formula().isBlank() && m.value() > 0, m.formula() + " = " + m.value());
        }
        assertEquals(
                80_000,
                FixedPoolModel.little(4_000, Duration.ofMillis(50), 2, 50).value(),
                1e-6);
        assertEquals(10_000, ThrottleModel.rate(50, Duration.ofMillis(5)).value(), 1e-6);
        assertEquals(
                "permits / t = 50 / 5 ms",
                ThrottleModel.rate(50, Duration.ofMillis(5)).formula());
        var pinnedOn21 = PinningModel.onJdk21(100, 2, t);
        assertTrue(pinnedOn21.endsWith("= 5 s"), pinnedOn21);
    }

    @Test
    void aGuessOfTheSumInsteadOfTheLongestIsToldSo() {
        var plan = List.of(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(300));
        var outcome = guess(600, "ms", ScopeModel.together(plan), 305);
        assertEquals(Prediction.Verdict.TERM, outcome.verdict());
        assertTrue(outcome.term().startsWith("t₁ + t₂ + t₃"), outcome.term());
    }
}
