package course.kit.experiments;

import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Recorder;
import course.kit.Reproduction;
import course.kit.RunResult;
import course.kit.Scale;
import course.kit.models.PoolModel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class PoolMathTest {

    /** n tasks on a fixed pool of p that all wait for one latch: every task starts before any ends. */
    private static RunResult batchOnLatch(String name, int n, int p, boolean virtual) throws Exception {
        var rec = Recorder.start(name, n);
        var go = new CountDownLatch(1);
        var started = new CountDownLatch(Math.min(n, p));
        try (var pool = virtual ? Executors.newVirtualThreadPerTaskExecutor() : Executors.newFixedThreadPool(p)) {
            for (int i = 0; i < n; i++) {
                pool.submit(rec.task(() -> {
                    started.countDown();
                    go.await();
                }));
            }
            started.await();
            go.countDown();
        }
        return rec.stop();
    }

    @Test
    void batchTimeIsCeilOfTasksOverPoolTimesTaskTime() {
        assertEquals(ofSeconds(50), PoolModel.batchTime(10_000, 200, ofSeconds(1)));
        assertEquals(ofSeconds(51), PoolModel.batchTime(10_001, 200, ofSeconds(1)));
        assertEquals(ofSeconds(4), PoolModel.batchTime(10, 3, ofSeconds(1)));
        assertEquals(Duration.ZERO, PoolModel.batchTime(0, 3, ofSeconds(1)));
        assertEquals(3, PoolModel.waves(21, 10));
        assertEquals(1, PoolModel.waves(Integer.MAX_VALUE, Integer.MAX_VALUE));
    }

    @Test
    void rejectsImpossibleArguments() {
        assertThrows(IllegalArgumentException.class, () -> PoolModel.littleThroughput(1, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> PoolModel.littleThroughput(-1, ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> PoolMath.units(ofMillis(1), 1, -1));
        assertThrows(IllegalArgumentException.class, () -> PoolMath.loopBand(0, 1, ofMillis(1), true));
        assertThrows(IllegalArgumentException.class, () -> PoolMath.loopBand(1, 1, Duration.ZERO, false));
        assertThrows(IllegalArgumentException.class, () -> PoolMath.makespanBand(ofMillis(1), 3, 0));
    }

    @Test
    void littlesLaw() {
        assertEquals(200.0, PoolModel.littleThroughput(200, ofSeconds(1)), 1e-9);
        assertEquals(20.0, PoolModel.littleThroughput(10, ofMillis(500)), 1e-9);
        assertEquals(0.0, PoolModel.littleThroughput(0, ofMillis(500)), 1e-9);
    }

    @Test
    void unitsAreMultiplesOfTheUnit() {
        assertEquals(List.of(ofMillis(50), ofMillis(50), ofMillis(200)), PoolMath.units(ofMillis(50), 1, 1, 4));
    }

    @Test
    void aPoolLoopHasTheBandOfItsWaves() {
        // 20 clients × 4 calls on a pool of 20: 4 waves of W, the same band as 80 equal tasks on 20 threads
        var pool = PoolMath.loopBand(20, 4, ofMillis(50), false);
        var waves = PoolModel.band(80, 20, ofMillis(50));
        assertEquals(waves.lo(), pool.lo(), 1e-9);
        assertEquals(waves.hi(), pool.hi(), 1e-9);
        assertEquals(200.0, pool.lo(), 1e-9);
    }

    @Test
    void aVirtualLoopAllowsEveryCallsParkAndWake() {
        var one = PoolMath.loopBand(1_000, 1, ofMillis(50), true);
        var four = PoolMath.loopBand(1_000, 4, ofMillis(50), true);
        assertEquals(50.0, one.lo(), 1e-9);
        assertEquals(200.0, four.lo(), 1e-9);
        double perCall = PoolModel.Allowances.here().perVirtualThread().toNanos() / 1e6;
        double perWave = PoolModel.Allowances.here().perWave().toNanos() / 1e6;
        // three more calls each: three more waves and 3,000 more park-and-wake allowances
        assertEquals(3 * perWave + 3_000 * perCall, (four.hi() - four.lo()) - (one.hi() - one.lo()), 1e-6);
    }

    @Test
    void aMakespanBandStartsAtThePredictionAndAllowsEveryTask() {
        var band = PoolMath.makespanBand(ofMillis(300), 9, 3);
        assertEquals(300.0, band.lo(), 1e-9);
        assertEquals(300.0 + PoolModel.slack(9, 3, 0).toNanos() / 1e6, band.hi(), 1e-9);
        assertTrue(band.contains(300.0));
        assertFalse(band.contains(299.0));
    }

    @Test
    void aBatchKnowsItsWavesAndPrediction() throws Exception {
        RunResult r = batchOnLatch("5 on 2", 5, 2, false);
        var b = new PoolMath.Batch(5, 2, ofMillis(30), r);
        assertEquals(3, b.waves());
        assertEquals(90.0, b.predictedMillis(), 1e-9);
        assertEquals(2, r.threadsUsed());
        assertEquals(2, r.peakConcurrency());
        var chart = PoolMathViews.wavesChart(List.of(b, new PoolMath.Batch(5, 3, ofMillis(30), r)));
        assertEquals(4, chart.getSeriesCollection().size()); // a staircase and the points, per pool size
        assertEquals(2, PoolMathViews.wavesTable(List.of(b, b)).rowCount());
    }

    @Test
    void theWavesChartDrawsAnyModel() throws Exception {
        RunResult r = batchOnLatch("1 on 1", 1, 1, false);
        var chart = PoolMathViews.wavesChart(
                List.of(new PoolMath.Batch(3, 2, ofMillis(10), r)),
                (n, p, t) -> t.multipliedBy(n),
                "your fixedPoolTime");
        var staircase = chart.getSeries("your fixedPoolTime, P = 2");
        // the model is evaluated at N = 1, 2, 3, each a flat step of width 1
        assertEquals(
                List.of(10.0, 10.0, 20.0, 20.0, 30.0, 30.0),
                java.util.Arrays.stream(staircase.getYData()).boxed().toList());
    }

    @Test
    void aLoopTellsPoolsFromVirtualThreads() throws Exception {
        var pool = new PoolMath.Loop("fixed pool of 3", 3, 2, ofMillis(100), batchOnLatch("pool", 6, 3, false));
        var virtual = new PoolMath.Loop("virtual threads", 6, 1, ofMillis(100), batchOnLatch("virtual", 6, 6, true));
        assertFalse(pool.virtual());
        assertTrue(virtual.virtual());
        assertEquals(30.0, pool.predictedPerSecond(), 1e-9);
        assertEquals(60.0, virtual.predictedPerSecond(), 1e-9);
        var chart = PoolMathViews.littleChart(List.of(pool, virtual));
        assertEquals(
                List.of("predicted λ = L / W", "measured, fixed pools", "measured, virtual threads"),
                chart.getSeriesCollection().stream().map(s -> s.getName()).toList());
        assertEquals(2, PoolMathViews.littleTable(List.of(pool, virtual)).rowCount());
    }

    @Test
    void aMakespanIsJudgedAgainstItsBand() throws Exception {
        RunResult r = batchOnLatch("3 on 3", 3, 3, false);
        // the run took far less than 10 s: below a 10 s prediction, so outside its band
        var m = new PoolMath.Makespan("three", PoolMath.units(ofMillis(1), 1, 1, 1), 3, ofSeconds(10), r);
        assertFalse(m.within());
        assertEquals(10_000.0, m.band().lo(), 1e-9);
        var chart = PoolMathViews.makespanChart("t", "list", List.of(m), "by hand");
        assertEquals(3, chart.getSeriesCollection().size());
        assertEquals(1, PoolMathViews.makespanTable("t", List.of(m)).rowCount());
    }

    @Test
    void theArticlesCallsRunOnOneThreadThenAVirtualThreadEach() {
        var calls = List.of(ofMillis(3), ofMillis(4), ofMillis(5));
        RunResult seq = PoolMath.oneAfterAnother(calls);
        RunResult par = PoolMath.onVirtualThreads(calls);
        assertEquals(3, seq.count());
        assertEquals(1, seq.peakConcurrency());
        assertEquals(1, seq.threadsUsed());
        assertEquals(0, seq.virtualTasks());
        assertEquals(3, par.virtualTasks());
        assertEquals(3, par.threadsUsed());
        assertEquals(2, PoolMathViews.callsTable(calls, seq, par).rowCount());
    }

    @Test
    void reproductionRowsNameArticle002() throws Exception {
        // runs the article's calls (1.7 s): the rows must be the two figures the article reported
        List<Reproduction> rows = PoolMath.reproduce(Scale.QUICK);
        assertEquals(2, rows.size());
        assertEquals(1200.0, rows.get(0).predicted(), 1e-9);
        assertEquals(500.0, rows.get(1).predicted(), 1e-9);
        assertTrue(rows.stream().allMatch(r -> r.article().equals("002") && r.measured() > 0));
    }
}
