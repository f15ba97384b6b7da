package course.kit.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Charts;
import course.kit.PoolModel;
import course.kit.RunResult;
import course.kit.Scale;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Notebook 02's experiments: counts, peaks, thread kinds, arithmetic and validation; no timing assertions. */
@Timeout(60)
class CafeTest {

    @Test
    void wavesAreTheCeilingOfCustomersOverWorkers() {
        assertEquals(50, PoolModel.waves(10_000, 200));
        assertEquals(100, PoolModel.waves(10_000, 100));
        assertEquals(1, PoolModel.waves(10_000, 10_000));
        assertEquals(1, PoolModel.waves(1, 200));
        assertEquals(0, PoolModel.waves(0, 200));
        assertEquals(51, PoolModel.waves(10_001, 200), "one customer more adds a whole wave");
    }

    @Test
    void thePoolsPredictionIsWavesTimesTheBrew() {
        assertEquals(Duration.ofSeconds(50), PoolModel.batchTime(10_000, 200, Duration.ofSeconds(1)));
        assertEquals(Duration.ofSeconds(100), PoolModel.batchTime(10_000, 100, Duration.ofSeconds(1)));
        assertEquals(Duration.ofMillis(5_000), PoolModel.batchTime(10_000, 100, Duration.ofMillis(50)));
    }

    @Test
    void theSetupIsArticle000AtFullScaleAndShortensOnlyTheBrewAtQuickScale() {
        var full = Cafe.Setup.at(Scale.FULL);
        assertEquals(new Cafe.Setup(10_000, 200, Duration.ofSeconds(1)), full);
        assertEquals(Duration.ofSeconds(50), full.predictedPool());
        var quick = Cafe.Setup.at(Scale.QUICK);
        assertEquals(new Cafe.Setup(10_000, 200, Duration.ofMillis(100)), quick);
        assertEquals(full.waves(), quick.waves(), "the staircase keeps its 50 steps");
    }

    @Test
    void theQuickSweepLeavesOutOnlyThePoolOf10000AndShortensTheTask() {
        assertEquals(List.of(100, 200, 1_000, 10_000), java.util.Arrays.stream(Cafe.sweepPools(Scale.FULL)).boxed().toList());
        assertEquals(List.of(100, 200, 1_000), java.util.Arrays.stream(Cafe.sweepPools(Scale.QUICK)).boxed().toList());
        assertEquals(Duration.ofMillis(50), Cafe.sweepTask(Scale.FULL), "article 004's task");
        assertEquals(Duration.ofMillis(10), Cafe.sweepTask(Scale.QUICK));
    }

    @Test
    void theSlackCountsWavesAndThreads() {
        var vm = PoolModel.Allowances.TWO_CORE_VM;
        assertEquals(Duration.ofMillis(450), PoolModel.slackFor(10_000, 200, vm), "50 + 50 × 4 + 200 × 1 ms");
        assertEquals(Duration.ofMillis(200), PoolModel.slackFor(10_000, 0, vm), "50 ms + 10,000 × 15 µs");
        assertEquals(Duration.ofMillis(50 + 4 + 10_000), PoolModel.slackFor(10_000, 10_000, vm));
        assertEquals(Duration.ofMillis(50 + 4 + 10), PoolModel.slackFor(10, 10_000, vm), "only the threads a pool creates count");
        var calibrated = PoolModel.Allowances.from(new course.kit.Calibration(Duration.ofNanos(100_000), Duration.ofNanos(2_000), 0));
        assertEquals(Duration.ofNanos(100_000L * PoolModel.PLATFORM_FACTOR), calibrated.perPlatformThread());
        assertEquals(Duration.ofNanos(2_000 * PoolModel.VIRTUAL_FACTOR), calibrated.perVirtualThread());
        assertEquals(Duration.ofMillis(50 + 50 * 4).plus(Duration.ofNanos(200 * 100_000L * PoolModel.PLATFORM_FACTOR)),
                PoolModel.slackFor(10_000, 200, calibrated), "the per-thread allowance follows this machine's calibration");
        assertThrows(IllegalArgumentException.class, () -> PoolModel.slack(-1, 0, 0));
    }

    @Test
    void aFixedPoolServesAtMostItsSizeAtOnceOnPlatformThreads() throws InterruptedException {
        RunResult r = Cafe.pooled(12, 3, Duration.ofMillis(20));
        assertEquals(12, r.count());
        assertEquals(0, r.failed());
        assertEquals(3, r.peakConcurrency());
        assertEquals(3, r.threadsUsed());
        assertEquals(0, r.virtualTasks());
        assertEquals("fixed pool of 3", r.name());
    }

    @Test
    void virtualThreadsServeEveryCustomerOnItsOwnThread() throws InterruptedException {
        RunResult r = Cafe.virtual(50, Duration.ofMillis(300));
        assertEquals(50, r.count());
        assertEquals(50, r.virtualTasks());
        assertEquals(50, r.threadsUsed());
        assertEquals(50, r.peakConcurrency(), "50 threads start well within one 300 ms brew");
    }

    @Test
    void aZeroBrewIsAllowed() throws InterruptedException {
        assertEquals(20, Cafe.pooled(20, 4, Duration.ZERO).count());
        assertEquals(20, Cafe.virtual(20, Duration.ZERO).virtualTasks());
    }

    @Test
    void badParametersAreRefusedWithAReason() {
        var e = assertThrows(IllegalArgumentException.class, () -> Cafe.pooled(-1, 2, Duration.ofMillis(1)));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Cafe.pooled(10, 0, Duration.ofMillis(1)));
        assertTrue(e.getMessage().contains("at least 1 worker"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Cafe.virtual(10, Duration.ofMillis(-1)));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
        assertThrows(NullPointerException.class, () -> Cafe.virtual(10, null));
        e = assertThrows(IllegalArgumentException.class, () -> Cafe.pooled(1_000_000, 1, Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("minutes"), "a run of 11 days is refused before it starts: " + e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Cafe.sweep(10, Duration.ofMillis(1), 0));
        assertTrue(e.getMessage().contains("at least 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Cafe.rounds("here", 10, 1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> Cafe.rounds("here", 10, 1, -1, 1));
    }

    @Test
    void aPoolTooBigForTheOsIsRefusedBeforeAnyThreadStarts() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> Cafe.pooled(50_000_000, 50_000_000, Duration.ZERO));
        assertTrue(e.getMessage().contains("platform threads"), e.getMessage());
    }

    @Test
    void theSweepRunsEveryPoolThenVirtualThreadsWithTheirPredictions() throws InterruptedException {
        List<Cafe.SweepRow> rows = Cafe.sweep(40, Duration.ofMillis(5), 4, 40);
        assertEquals(3, rows.size());
        var four = rows.get(0);
        assertEquals("fixed pool of 4", four.executor());
        assertEquals(40, four.tasks());
        assertEquals(10, four.waves());
        assertEquals(50.0, four.predictedMs());
        assertEquals(4, four.peak());
        assertEquals(4, four.threads());
        assertEquals(Cafe.slackFor(40, 4).toNanos() / 1e6, four.slackMs());
        var forty = rows.get(1);
        assertEquals(1, forty.waves());
        assertEquals(40, forty.threads());
        var virt = rows.get(2);
        assertEquals("virtual thread per task", virt.executor());
        assertEquals(0, virt.workers());
        assertEquals(1, virt.waves());
        assertEquals(5.0, virt.predictedMs());
        assertEquals(40, virt.threads());
        assertTrue(four.measuredMs() >= four.predictedMs(), "ten sleeps of 5 ms in a row cannot end before 50 ms");
    }

    @Test
    void roundsRecordEveryRoundAndSplitFirstWarmUpAndWarm() throws InterruptedException {
        var r = Cafe.rounds("here", 30, 5, 1, 2);
        assertEquals("here", r.where());
        assertEquals(4, r.millis().length);
        assertEquals(4, r.lastStartMs().length);
        assertEquals(4, r.jitMs().length);
        assertEquals(4, r.gcMs().length);
        assertEquals(r.millis()[0], r.first());
        assertEquals(2, r.warm().length);
        assertEquals(r.millis()[2], r.warm()[0]);
        assertEquals((r.millis()[2] + r.millis()[3]) / 2, r.warmMedian(), 1e-9);
        for (double ms : r.millis()) assertTrue(ms >= 5, "every round lasts at least one brew: " + ms);
    }

    @Test
    void theChildJvmRunsTheSameRoundsWithTheSameHeapAndGcFlags() throws InterruptedException {
        var r = Cafe.roundsInChildJvm(20, 2, 0, 1);
        assertEquals("child JVM", r.where());
        assertEquals(20, r.customers());
        assertEquals(2, r.brewMs());
        assertEquals(2, r.millis().length);
        assertEquals(1, r.warm().length);
    }

    @Test
    void sameJvmOptionsKeepOnlyTheFlagsThatShapeTiming() {
        var opts = Cafe.sameJvmOptions();
        for (String o : opts) {
            assertTrue(o.startsWith("-Xm") || o.matches("-XX:\\+Use\\w*GC") || o.equals("-ea") || o.equals("--enable-preview"), o);
        }
        assertFalse(opts.stream().anyMatch(o -> o.startsWith("-D") || o.startsWith("-javaagent")));
        var child = Cafe.childJvmOptions();
        assertTrue(child.containsAll(opts), "the child gets every flag that shapes timing");
        assertEquals(1, child.stream().filter(o -> o.startsWith("-Xms")).count(), "and exactly one initial heap size: " + child);
    }

    @Test
    void anInterruptedCafeStopsAndThrows() throws Exception {
        var caught = new AtomicReference<Throwable>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                Cafe.pooled(1_000, 2, Duration.ofSeconds(1));
            } catch (Throwable e) {
                caught.set(e);
            }
        });
        Thread.sleep(200);
        t.interrupt();
        t.join(Duration.ofSeconds(20));
        assertFalse(t.isAlive(), "the café stopped within 20 s of the interrupt instead of serving 500 s");
        assertTrue(caught.get() instanceof InterruptedException, String.valueOf(caught.get()));
    }

    @Test
    void viewsBuildFromTheResults() throws InterruptedException {
        var setup = new Cafe.Setup(20, 5, Duration.ofMillis(2));
        var pool = Cafe.pooled(20, 5, Duration.ofMillis(2));
        var virt = Cafe.virtual(20, Duration.ofMillis(2));
        var table = CafeViews.cafeTable(setup, pool, virt);
        assertEquals(2, table.rowCount());
        var rows = Cafe.sweep(20, Duration.ofMillis(1), 5);
        assertEquals(2, CafeViews.sweepTable(rows, Duration.ofMillis(1)).rowCount());
        assertEquals(2, CafeViews.sweepChart(rows, Duration.ofMillis(1)).getSeriesCollection().size());
        assertTrue(Charts.image(CafeViews.sweepChart(rows, Duration.ofMillis(1))).getWidth() > 0, "the log axis renders");
        var a = Cafe.rounds("kernel", 10, 1, 0, 1);
        var b = Cafe.rounds("child JVM", 10, 1, 0, 1);
        assertEquals(3, CafeViews.roundsTable(a, b, null).rowCount(), "two JVMs and their ratio");
        assertEquals(4, CafeViews.roundsTable(a, b, virt).rowCount());
        assertEquals(3, CafeViews.roundsChart(a, b).getSeriesCollection().size());
        assertTrue(Charts.image(CafeViews.roundsChart(a, b)).getWidth() > 0);
    }
}
