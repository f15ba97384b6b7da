package course.kit.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.RunResult;
import course.kit.Scale;
import course.kit.charts.Charts;
import course.kit.models.PoolModel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Notebook 02's café: counts, peaks, thread kinds, arithmetic and validation; no timing assertions. */
@Timeout(60)
class CafeTest {

    @Test
    void theCafeIsArticle000AndItsQuickReproductionShortensOnlyTheSleeps() {
        assertEquals(Duration.ofMillis(100), Scale.QUICK.shrink(Cafe.BREW, Cafe.QUICK_DIVISOR));
        assertEquals(Cafe.BREW, Scale.FULL.shrink(Cafe.BREW, Cafe.QUICK_DIVISOR));
        assertEquals(
                50, PoolModel.waves(Cafe.CUSTOMERS, Cafe.BARISTAS), "the staircase keeps its 50 steps at both scales");
        assertEquals(Duration.ofSeconds(50), PoolModel.batchTime(Cafe.CUSTOMERS, Cafe.BARISTAS, Cafe.BREW));
        assertEquals(
                Duration.ofMillis(5_000),
                PoolModel.batchTime(Cafe.CUSTOMERS, 100, Cafe.ARTICLE_004_TASK),
                "article 004's pool of 100: 100 waves of 50 ms");
    }

    @Test
    void aFixedPoolServesEveryCustomerOnAtMostItsSizeOfPlatformThreadsAndIsClosed() throws InterruptedException {
        ExecutorService staff = Executors.newFixedThreadPool(3);
        RunResult r = Cafe.run("fixed pool of 3", staff, 12, Duration.ofMillis(5));
        assertEquals(12, r.count());
        assertEquals(12, r.started());
        assertEquals(0, r.failed());
        assertEquals(3, r.threadsUsed(), "a fixed pool of 3 starts a worker for each of the first 3 submissions");
        assertTrue(r.peakConcurrency() <= 3, "never more than 3 at once: " + r.peakConcurrency());
        assertEquals(0, r.virtualTasks());
        assertEquals("fixed pool of 3", r.name());
        assertTrue(staff.isTerminated(), "run closes the executor, as the notebook's try-with-resources does");
    }

    @Test
    void virtualThreadsServeEveryCustomerOnItsOwnThread() throws InterruptedException {
        RunResult r = Cafe.run("virtual", Executors.newVirtualThreadPerTaskExecutor(), 50, Duration.ofMillis(5));
        assertEquals(50, r.count());
        assertEquals(50, r.virtualTasks());
        assertEquals(50, r.threadsUsed());
        assertEquals(0, r.failed());
    }

    @Test
    void aZeroBrewAndNoCustomersAreAllowed() throws InterruptedException {
        assertEquals(
                20,
                Cafe.run("pool", Executors.newFixedThreadPool(4), 20, Duration.ZERO)
                        .count());
        assertEquals(
                20,
                Cafe.run("virtual", Executors.newVirtualThreadPerTaskExecutor(), 20, Duration.ZERO)
                        .virtualTasks());
        RunResult none = Cafe.run("empty", Executors.newFixedThreadPool(2), 0, Duration.ofSeconds(1));
        assertEquals(0, none.count());
        assertEquals(0, none.peakConcurrency());
    }

    @Test
    void badParametersAreRefusedWithAReasonAndTheExecutorIsNotLeft() {
        ExecutorService staff = Executors.newFixedThreadPool(2);
        var e = assertThrows(IllegalArgumentException.class, () -> Cafe.run("x", staff, -1, Duration.ofMillis(1)));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
        assertTrue(staff.isShutdown(), "a refused café still closes the executor it was given");
        try (var virt = Executors.newVirtualThreadPerTaskExecutor()) {
            e = assertThrows(IllegalArgumentException.class, () -> Cafe.run("x", virt, 10, Duration.ofMillis(-1)));
            assertTrue(e.getMessage().contains("negative"), e.getMessage());
            assertThrows(NullPointerException.class, () -> Cafe.run("x", virt, 10, null));
        }
        assertThrows(IllegalArgumentException.class, () -> Cafe.rounds("here", 10, 1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> Cafe.rounds("here", 10, 1, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> Cafe.rounds("here", -1, 1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> Cafe.roundsInChildJvm(10, -1, 0, 1));
    }

    @Test
    void anInterruptedCafeCancelsItsBrewsAndThrows() throws Exception {
        var caught = new AtomicReference<Throwable>();
        var staff = Executors.newFixedThreadPool(2);
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                Cafe.run("fixed pool of 2", staff, 1_000, Duration.ofSeconds(1));
            } catch (Throwable e) {
                caught.set(e);
            }
        });
        t.interrupt(); // before, during or after the submissions: close() sees it and cancels the brews
        t.join(Duration.ofSeconds(20));
        assertFalse(t.isAlive(), "the café stopped within 20 s of the interrupt instead of serving 500 s");
        assertTrue(caught.get() instanceof InterruptedException, String.valueOf(caught.get()));
        assertTrue(staff.isTerminated(), "no barista is left behind");
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
            assertTrue(
                    o.startsWith("-Xm")
                            || o.matches("-XX:\\+Use\\w*GC")
                            || o.equals("-ea")
                            || o.equals("--enable-preview"),
                    o);
        }
        assertFalse(opts.stream().anyMatch(o -> o.startsWith("-D") || o.startsWith("-javaagent")));
        var child = Cafe.childJvmOptions();
        assertTrue(child.containsAll(opts), "the child gets every flag that shapes timing");
        assertEquals(
                1,
                child.stream().filter(o -> o.startsWith("-Xms")).count(),
                "and exactly one initial heap size: " + child);
    }

    @Test
    void viewsShowOneRowPerRunWithItsWavesAndBand() throws InterruptedException {
        Duration task = Duration.ofMillis(2);
        var pool = new CafeViews.Row(5, task, Cafe.run("fixed pool of 5", Executors.newFixedThreadPool(5), 20, task));
        var virt =
                new CafeViews.Row(0, task, Cafe.run("virtual", Executors.newVirtualThreadPerTaskExecutor(), 20, task));
        assertEquals(4, pool.waves());
        assertEquals(1, virt.waves());
        assertEquals(PoolModel.band(20, 5, task), pool.band());
        assertEquals(8.0, pool.band().lo(), 1e-9, "4 waves of 2 ms");
        assertEquals(2.0, virt.band().lo(), 1e-9, "one wave of 2 ms");
        var table = CafeViews.table("café", List.of(pool, virt));
        assertEquals(2, table.rowCount());
        assertEquals(List.of(4, 1), table.intColumn("waves ⌈N/P⌉").asList());
        assertEquals(List.of(5, 20), table.intColumn("threads used").asList());
        var chart = CafeViews.sweepChart("sweep", List.of(pool, virt));
        assertEquals(2, chart.getSeriesCollection().size(), "predicted and measured");
        assertTrue(Charts.image(chart).getWidth() > 0, "the log axis renders");
        assertThrows(IllegalArgumentException.class, () -> new CafeViews.Row(-1, task, pool.run()));
    }

    @Test
    void roundViewsCompareTheTwoJvms() throws InterruptedException {
        var a = Cafe.rounds("kernel", 10, 1, 0, 1);
        var b = Cafe.rounds("child JVM", 10, 1, 0, 1);
        assertEquals(3, CafeViews.roundsTable(a, b).rowCount(), "two JVMs and their ratio");
        assertEquals(3, CafeViews.roundsChart(a, b).getSeriesCollection().size());
        assertTrue(Charts.image(CafeViews.roundsChart(a, b)).getWidth() > 0);
    }
}
