package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a timing check does with a miss: the figures come from a counter, not a clock, and the machine's load
 * from a fixed meter, so each case is exact.
 */
class TimingCheckTest {
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private PrintStream original;
    private static final Band BAND = new Band(100, 110, "ms", "10 waves × 10 ms");

    @BeforeEach
    void capture() {
        original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(original);
    }

    private String printed() {
        return captured.toString(StandardCharsets.UTF_8);
    }

    /** An experiment whose n-th run measures figures[n]. */
    private static Check.Attempt<Double> runs(AtomicInteger count, double... figures) {
        return () -> figures[Math.min(count.getAndIncrement(), figures.length - 1)];
    }

    @Test
    void aWrongPredictionOnAQuietMachineStopsTheNotebook() {
        var count = new AtomicInteger();
        var e = assertThrows(
                Check.Failed.class,
                () -> Check.timing("pool", BAND, runs(count, 150, 151, 149), x -> x, Machine.fixed(0.02)));
        assertEquals(Check.TIMING_TRIES, count.get(), "a miss is tried again before it is judged");
        assertTrue(
                e.getMessage().startsWith(Check.FAIL + " pool: measured 149 ms, predicted 100 ms … 110 ms"),
                e.getMessage());
        assertTrue(
                e.getMessage().contains("the machine was quiet: other programs used 0.02 of 2 cores"), e.getMessage());
        assertTrue(e.getMessage().contains("150 ms, 151 ms, 149 ms"), "every try's figure is shown: " + e.getMessage());
    }

    @Test
    void missesOnABusyMachineEndWithAWarningAndTheEvidence() throws Exception {
        var count = new AtomicInteger();
        double result = Check.timing("pool", BAND, runs(count, 150, 151, 149), x -> x, Machine.fixed(0.9));
        assertEquals(149, result);
        assertEquals(Check.TIMING_TRIES, count.get());
        String out = printed();
        assertTrue(out.startsWith(Check.WARN + " pool: measured 149 ms, predicted 100 ms … 110 ms"), out);
        assertTrue(out.contains("the machine was busy: other programs used 0.90 of 2 cores"), out);
        assertFalse(out.contains(Check.FAIL), out);
    }

    @Test
    void aRunBelowTheBandIsNeverExcusedByLoad() {
        var count = new AtomicInteger();
        var e = assertThrows(
                Check.Failed.class, () -> Check.timing("pool", BAND, runs(count, 60), x -> x, Machine.fixed(1.5)));
        assertEquals(1, count.get(), "a run faster than the prediction allows is not retried");
        assertTrue(e.getMessage().contains("below the band"), e.getMessage());
    }

    @Test
    void aCalibratedFigureBelowTheBandIsTriedAgain() throws Exception {
        // a calibration made under load sizes the task too short: the next try calibrates afresh
        var count = new AtomicInteger();
        double result = Check.calibrated("burn", BAND, runs(count, 60, 104), x -> x, Machine.fixed(0.9));
        assertEquals(104, result);
        assertEquals(2, count.get());
        assertTrue(printed().startsWith(Check.PASS + " burn: measured 104 ms"), printed());
    }

    @Test
    void aCalibratedFigureBelowTheBandOnABusyMachineEndsWithAWarning() throws Exception {
        var count = new AtomicInteger();
        double result = Check.calibrated("burn", BAND, runs(count, 60, 61, 62), x -> x, Machine.fixed(0.9));
        assertEquals(62, result);
        assertEquals(Check.TIMING_TRIES, count.get());
        assertTrue(printed().startsWith(Check.WARN + " burn: measured 62 ms"), printed());
        assertTrue(printed().contains("the machine was busy"), printed());
    }

    @Test
    void aCalibratedFigureBelowTheBandOnAQuietMachineFails() {
        var count = new AtomicInteger();
        var e = assertThrows(
                Check.Failed.class,
                () -> Check.calibrated("burn", BAND, runs(count, 60, 61, 62), x -> x, Machine.fixed(0.02)));
        assertEquals(Check.TIMING_TRIES, count.get());
        assertTrue(e.getMessage().contains("the machine was quiet"), e.getMessage());
    }

    @Test
    void aHitOnALaterTryPassesAndSaysSo() throws Exception {
        var count = new AtomicInteger();
        double result = Check.timing("pool", BAND, runs(count, 180, 104), x -> x, Machine.fixed(0.9));
        assertEquals(104, result);
        assertEquals(2, count.get());
        String out = printed();
        assertTrue(out.startsWith(Check.PASS + " pool: measured 104 ms"), out);
        assertTrue(out.contains("try 2 of 3; earlier 180 ms"), out);
    }

    @Test
    void aHitOnTheFirstTryRunsOnce() throws Exception {
        var count = new AtomicInteger();
        Check.timing("pool", BAND, runs(count, 101), x -> x, Machine.fixed(0));
        assertEquals(1, count.get());
        assertEquals(
                Check.PASS + " pool: measured 101 ms, predicted 100 ms … 110 ms (10 waves × 10 ms)",
                printed().strip());
    }

    @Test
    void oneQuietTryIsEnoughToJudgeAMiss() {
        // the meter reads busy, busy, quiet: the quiet miss is evidence that the prediction is wrong
        var reads = new AtomicInteger();
        double[] loads = {0.9, 0.9, 0.0};
        Machine.Meter meter = () -> () -> new Machine.Load(0.1, loads[reads.getAndIncrement()], 2, "fixed");
        var count = new AtomicInteger();
        assertThrows(Check.Failed.class, () -> Check.timing("pool", BAND, runs(count, 150), x -> x, meter));
    }

    @Test
    void aMachineWhoseLoadCannotBeReadGetsNoExcuse() {
        Machine.Meter unknown = () -> () -> Machine.Load.unknown(0.1);
        assertThrows(
                Check.Failed.class, () -> Check.timing("pool", BAND, runs(new AtomicInteger(), 150), x -> x, unknown));
    }

    @Test
    void theSystemMeterSeesThisJvmsOwnWorkAsItsOwn() throws Exception {
        // Spinning in this JVM is not "other programs": what the reading attributes to others stays below what
        // this JVM burned, whatever the rest of the machine does.
        var w = Machine.system().begin();
        long until = System.nanoTime() + 300_000_000L;
        long x = 0;
        while (System.nanoTime() < until) x += x * 31 + 7;
        var load = w.end();
        assertTrue(load.known(), load.toString());
        assertTrue(load.seconds() >= 0.3, load.toString());
        assertTrue(x != 1, "keeps the loop");
    }

    @Test
    void procStatsAggregateLineIsParsed() {
        assertEquals(
                10 + 2 + 30 + 4 + 5 + 6,
                Machine.parseBusy("cpu  10 2 30 1000 7 4 5 6 0 0"),
                "user nice system irq softirq steal; idle and iowait left out");
        assertThrows(IllegalArgumentException.class, () -> Machine.parseBusy("cpu0 1 2 3 4 5 6 7 8"));
    }

    @Test
    void bandsRefuseAnUpsideDownRange() {
        assertThrows(IllegalArgumentException.class, () -> Band.of(2, 1, "ms"));
        assertTrue(Band.of(1, 2, "ms").contains(1));
        assertTrue(Band.of(1, 2, "ms").contains(2));
        assertFalse(Band.of(1, 2, "ms").contains(2.001));
    }

    /** Each try judged against a band computed from its own result: here the figure's tenth allows for itself. */
    @Test
    void aBandForEachTryJudgesEachTryByWhatItMeasured() throws Exception {
        var count = new AtomicInteger();
        Check.BandFor<Double> band =
                x -> new Band(100, 110 + (x >= 130 ? 30 : 0), "ms", "allows " + (x >= 130 ? 30 : 0));
        double passed = Check.timing("gc", band, runs(count, 120, 135), x -> x, Machine.fixed(0.02));
        assertEquals(135, passed, "the second try's own band held it");
        assertEquals(2, count.get());
        assertTrue(
                printed().contains(Check.PASS + " gc: measured 135 ms, predicted 100 ms … 140 ms (allows 30)"),
                printed());
    }

    @Test
    void aBandForEachTryStillFailsOnAQuietMachine() {
        var count = new AtomicInteger();
        Check.BandFor<Double> band = x -> new Band(100, 110 + 30, "ms", "GC pauses 30 ms");
        var e = assertThrows(
                Check.Failed.class,
                () -> Check.timing("gc", band, runs(count, 150, 160, 170), x -> x, Machine.fixed(0.02)));
        assertEquals(Check.TIMING_TRIES, count.get());
        assertTrue(
                e.getMessage()
                        .startsWith(Check.FAIL + " gc: measured 170 ms, predicted 100 ms … 140 ms (GC pauses 30 ms)"),
                e.getMessage());
        assertTrue(e.getMessage().contains("the machine was quiet"), e.getMessage());
    }
}
