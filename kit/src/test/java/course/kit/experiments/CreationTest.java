package course.kit.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Measure.Measurement;
import course.kit.Reproduction;
import course.kit.RunResult;
import course.kit.Scale;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CreationTest {
    private static final Duration GUARD = Duration.ofSeconds(30);

    @Test
    @DisplayName("article 001's loops run one task at a time, each on a new thread of the kind they name")
    void oneAtATime() throws Exception {
        RunResult platform = Creation.platformOneAtATime(50);
        RunResult virtual = Creation.submitAndGet("v", Executors.newVirtualThreadPerTaskExecutor(), 50);
        for (RunResult r : List.of(platform, virtual)) {
            assertEquals(50, r.count());
            assertEquals(50, r.started());
            assertEquals(1, r.peakConcurrency(), "each task ends before the next one starts: " + r);
            assertEquals(50, r.threadsUsed(), "a new thread per task: " + r);
            assertEquals(0, r.failed());
            assertEquals(r.elapsedMillis() * 1_000 / 50, Creation.microsPerThread(r), 1e-9);
        }
        assertEquals(0, platform.virtualTasks());
        assertEquals(50, virtual.virtualTasks());
        var serial = Creation.OneAtATime.of(platform, virtual, virtual);
        assertEquals(50, serial.count());
        assertEquals(Creation.microsPerThread(platform) / Creation.microsPerThread(virtual), serial.ratio(), 1e-9);
    }

    @Test
    @DisplayName("the hand-off loop runs every task on one reused virtual thread")
    void handOffReusesOneThread() throws Exception {
        RunResult r = Creation.submitAndGet(
                "h", Executors.newSingleThreadExecutor(Thread.ofVirtual().factory()), 40);
        assertEquals(40, r.count());
        assertEquals(1, r.threadsUsed());
        assertEquals(40, r.virtualTasks());
        assertEquals(1, r.peakConcurrency());
    }

    @Test
    @DisplayName("submit all runs every task on a thread of its own, of the executor's kind")
    void submitAll() {
        for (Creation.Kind kind : Creation.Kind.values()) {
            RunResult r =
                    assertTimeoutPreemptively(GUARD, () -> Creation.submitAll(kind.toString(), kind.perTask(), 64));
            assertEquals(64, r.count());
            assertEquals(64, r.threadsUsed());
            assertEquals(kind == Creation.Kind.VIRTUAL ? 64 : 0, r.virtualTasks());
            assertEquals(
                    kind == Creation.Kind.VIRTUAL,
                    kind.builder().unstarted(() -> {}).isVirtual());
        }
    }

    @Test
    @DisplayName("the repeated measurement reports warm-ups, timed runs and the last run's records")
    void repeated() throws Exception {
        var last = new ArrayList<RunResult>();
        Measurement m = Creation.submitAllRepeated(Creation.Kind.VIRTUAL, 200, 1, 3, last);
        assertEquals(200, m.opsPerRun());
        assertEquals(3, m.wallNanos().length);
        assertEquals(1, m.warmups());
        assertEquals("virtual, submit all", m.name());
        assertEquals(1, last.size());
        assertEquals(200, last.get(0).virtualTasks());
        assertNotNull(Creation.submitAllRepeated(Creation.Kind.PLATFORM, 10, 0, 1, null));
    }

    @Test
    @DisplayName("thread counts below 1, and platform batches the OS cannot hold, are refused with a message")
    void refusesBadCounts() {
        var e = assertThrows(IllegalArgumentException.class, () -> Creation.platformOneAtATime(0));
        assertTrue(e.getMessage().contains("at least 1"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> Creation.submitAndGet("v", Executors.newVirtualThreadPerTaskExecutor(), -1));
        assertThrows(
                IllegalArgumentException.class,
                () -> Creation.submitAll("v", Executors.newVirtualThreadPerTaskExecutor(), 0));
        assertThrows(IllegalArgumentException.class, () -> Creation.parkedHeap(0));
        var big = assertThrows(
                IllegalArgumentException.class,
                () -> Creation.submitAllRepeated(Creation.Kind.PLATFORM, 50_000_000, 0, 1, null));
        assertTrue(big.getMessage().contains("platform threads"), big.getMessage());
    }

    @Test
    @DisplayName("the platform stack size is read from HotSpot")
    void stackSizeFromHotSpot() {
        var bean = java.lang.management.ManagementFactory.getPlatformMXBean(
                com.sun.management.HotSpotDiagnosticMXBean.class);
        long raw = Long.parseLong(bean.getVMOption("ThreadStackSize").getValue());
        assertEquals(raw > 0 ? raw : 1_024, Creation.platformStackKb());
    }

    @Test
    @DisplayName("parked virtual threads take heap; a Thread object alone is over 100 bytes")
    void parkedHeap() throws Exception {
        var m = assertTimeoutPreemptively(GUARD, () -> Creation.parkedHeap(20_000));
        assertEquals(20_000, m.count());
        assertTrue(m.bytesPerThread() > 100, "a Thread object alone is over 100 bytes: " + m);
        assertEquals(Creation.platformStackKb(), m.stackKb());
        assertEquals(m.stackKb() * 1_024.0 / m.bytesPerThread(), m.stackOverParked(), 1e-9);
    }

    @Test
    @DisplayName("the hand-off model adds the round trip to each kind's CPU per thread")
    void handOffModel() {
        var serial = new Creation.OneAtATime(1_000, 150, 30, 20); // hand-off: 20 µs each
        var cp = measurement("platform", 1_000, 90_000_000L, 60_000_000L); // 90 µs wall, 60 µs CPU
        var cv = measurement("virtual", 10_000, 10_000_000L, 5_000_000L); // 1 µs wall, 0.5 µs CPU
        var model = Creation.serialModel(serial, cp, cv);
        assertEquals(80.0, model.platformMicros(), 1e-9);
        assertEquals(20.5, model.virtualMicros(), 1e-9);
        assertEquals(80.0 / 20.5, model.ratio(), 1e-9);
        var pooled = new Measurement("v", 0, 1_000, new long[] {1, 2, 3}, new long[] {0, 0, 3_000_000L});
        assertEquals(1.0, Creation.cpuMicrosPerThread(pooled), 1e-9); // 3 ms over 3 runs of 1,000
    }

    @Test
    @DisplayName("the reproduction rows name article 001 and carry prediction and measurement")
    void reproductionRows() {
        var serial = new Creation.OneAtATime(1_000, 150, 30, 20);
        var parked = new Creation.ParkedHeap(1_000, 1_000_000, 2_000_000, 1_024);
        var cp = measurement("platform", 1_000, 90_000_000L, 60_000_000L);
        var cv = measurement("virtual", 10_000, 10_000_000L, 5_000_000L);
        List<Reproduction> rows = Creation.rows(serial, cp, cv, parked);
        assertEquals(6, rows.size());
        rows.forEach(r -> assertEquals("001", r.article()));
        assertEquals(150.0, rows.get(0).measured(), 1e-9);
        assertEquals(30.0, rows.get(1).measured(), 1e-9);
        assertEquals(5.0, rows.get(2).measured(), 1e-9);
        assertEquals(1.0, rows.get(4).measured(), 1e-9);
        assertEquals(1_000.0, rows.get(5).measured(), 1e-9);
        assertEquals(5, Creation.rows(serial, cp, cv, null).size());
    }

    @Test
    @DisplayName("full scale runs a million sleepers; quick a tenth, with the same one-second sleep")
    void params() {
        var full = Creation.Params.of(Scale.FULL);
        var quick = Creation.Params.of(Scale.QUICK);
        assertEquals(1_000_000, full.sleepers());
        assertEquals(100_000, quick.sleepers());
        assertEquals(Duration.ofSeconds(1), quick.sleep());
        assertEquals(100_000, full.serial(), "a tenth of the article's million, one at a time");
        assertTrue(full.serial() > quick.serial());
        assertTrue(quick.reps() >= 3 && quick.warmups() >= 1, "a median of several warm runs");
    }

    @Test
    @DisplayName("the views draw every measured figure and leave out the missing ones")
    void views() {
        var methods = List.of(
                new CreationViews.PerThread("one at a time", 100, 40),
                new CreationViews.PerThread("hand-offs only", Double.NaN, 30),
                new CreationViews.PerThread("submit all", 60, 0.5));
        var chart = CreationViews.perThread("t", methods);
        assertEquals(3, chart.getSeriesCollection().size());
        assertEquals(0.1, chart.getStyler().getYAxisMin(), 1e-12, "the log axis starts below the smallest bar");
        var ratios = CreationViews.ratios("r", methods);
        assertEquals(
                List.of("article 001 as reported", "one at a time", "submit all"),
                ratios.getSeriesCollection().iterator().next().getXData());
        var table = CreationViews.perThreadTable("t", methods);
        assertEquals(4, table.rowCount());
        assertTrue(table.doubleColumn(3).isMissing(2), "no ratio for the hand-off row");
        var parked = new Creation.ParkedHeap(1_000, 1_000_000, 2_200_000, 1_024);
        assertEquals(2, CreationViews.memoryTable(parked).rowCount());
        assertEquals(1, CreationViews.memory(parked).getSeriesCollection().size());
        var sleepers = Creation.submitAll("sleepers", Executors.newVirtualThreadPerTaskExecutor(), 10);
        assertEquals(1, CreationViews.asleep(sleepers).getSeriesCollection().size());
    }

    private static Measurement measurement(String name, long ops, long wallNanos, long cpuNanos) {
        return new Measurement(name, 0, ops, new long[] {wallNanos}, new long[] {cpuNanos});
    }
}
