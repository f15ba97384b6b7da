package course.kit.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Measure.Measurement;
import course.kit.Reproduction;
import course.kit.Scale;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CreationTest {
    private static final Duration GUARD = Duration.ofSeconds(20);

    @Test
    @DisplayName("article 001's loops run every thread, of the kind they name")
    void serialLoopsRunEveryThread() throws Exception {
        var platform = Creation.serialPlatform(50);
        var virtual = Creation.serialVirtual(50);
        var handOff = Creation.handOff(50);
        assertEquals(List.of("platform", "virtual", "hand-off only"), List.of(platform.kind(), virtual.kind(), handOff.kind()));
        for (var s : List.of(platform, virtual, handOff)) {
            assertEquals(50, s.count());
            assertTrue(s.elapsedNanos() > 0);
            assertEquals(s.elapsedNanos() / 1_000.0 / 50, s.microsPerThread(), 1e-9);
        }
    }

    @Test
    @DisplayName("thread counts below 1 are refused with a message")
    void refusesBadCounts() {
        var e = assertThrows(IllegalArgumentException.class, () -> Creation.serialPlatform(0));
        assertTrue(e.getMessage().contains("at least 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Creation.serialVirtual(-1));
        assertThrows(IllegalArgumentException.class, () -> Creation.handOff(0));
        assertThrows(IllegalArgumentException.class, () -> Creation.startAllJoinAll(true, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> Creation.parkedHeap(0));
        assertThrows(IllegalArgumentException.class, () -> Creation.sleepers(0, Duration.ofMillis(1), 1));
        assertThrows(IllegalArgumentException.class, () -> Creation.sleepers(10, Duration.ofMillis(1), 0));
        assertThrows(IllegalArgumentException.class, () -> Creation.sleepers(10, Duration.ZERO, 1));
        var neg = assertThrows(IllegalArgumentException.class, () -> Creation.startAndJoin(Thread.ofVirtual(), -1, () -> {}));
        assertTrue(neg.getMessage().contains("negative"), neg.getMessage());
    }

    @Test
    @DisplayName("a million platform threads are refused before any starts")
    void refusesImpossiblePlatformBatch() {
        var e = assertThrows(IllegalArgumentException.class, () -> Creation.startAllJoinAll(false, 50_000_000, 0, 1));
        assertTrue(e.getMessage().contains("platform threads"), e.getMessage());
    }

    @Test
    @DisplayName("startAndJoin starts every thread before joining any, on the builder's kind of thread")
    void startsAllBeforeJoiningAny() {
        for (boolean virtual : new boolean[] {true, false}) {
            int n = 64;
            var allStarted = new CountDownLatch(n);
            var kinds = ConcurrentHashMap.<Boolean>newKeySet();
            var ran = new AtomicInteger();
            Runnable waitForAll = () -> {
                allStarted.countDown();
                try {
                    // deadlocks if the caller joined a thread before starting the others
                    if (!allStarted.await(15, TimeUnit.SECONDS)) throw new IllegalStateException("not all started");
                    kinds.add(Thread.currentThread().isVirtual());
                    ran.incrementAndGet();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            Thread.Builder builder = virtual ? Thread.ofVirtual() : Thread.ofPlatform();
            long nanos = assertTimeoutPreemptively(GUARD, () -> Creation.startAndJoin(builder, n, waitForAll));
            assertTrue(nanos > 0);
            assertEquals(n, ran.get());
            assertEquals(Set.of(virtual), kinds);
        }
    }

    @Test
    @DisplayName("the correct measurement repeats start-all-then-join-all and reports per thread")
    void correctMeasurementShape() throws Exception {
        Measurement m = Creation.startAllJoinAll(true, 200, 1, 3);
        assertEquals(200, m.opsPerRun());
        assertEquals(3, m.wallNanos().length);
        assertEquals(1, m.warmups());
        assertTrue(m.perOpMicros() > 0);
        assertTrue(m.name().startsWith("virtual"));
        assertTrue(Creation.startAllJoinAll(false, 20, 0, 1).name().startsWith("platform"));
    }

    @Test
    @DisplayName("the platform stack size is read from HotSpot")
    void stackSizeFromHotSpot() {
        var bean = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
        long raw = Long.parseLong(bean.getVMOption("ThreadStackSize").getValue());
        assertEquals(raw > 0 ? raw : 1_024, Creation.platformStackKb());
    }

    @Test
    @DisplayName("the young generation's sizing is described from the JVM's flags")
    void youngGeneration() {
        String words = Creation.youngGeneration();
        var bean = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
        boolean fixed = bean.getVMOption("MaxNewSize").getOrigin() == com.sun.management.VMOption.Origin.VM_CREATION;
        assertEquals(fixed, words.startsWith("fixed"), words);
    }

    @Test
    @DisplayName("the pause goal is read from the JVM")
    void pauseGoal() {
        var bean = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
        assertEquals(Long.parseLong(bean.getVMOption("MaxGCPauseMillis").getValue()) / 1e3, Creation.gcPauseGoalSeconds(), 1e-12);
    }

    @Test
    @DisplayName("parked virtual threads take heap, which returns once they end")
    void parkedHeapGrowsAndReturns() throws Exception {
        int before = Thread.activeCount();
        var m = assertTimeoutPreemptively(GUARD, () -> Creation.parkedHeap(20_000));
        assertEquals(20_000, m.count());
        assertTrue(m.bytesPerThread() > 100, "a Thread object alone is over 100 bytes: " + m);
        assertTrue(m.heapAfterBytes() < m.heapParkedBytes(), "heap returns after the threads end: " + m);
        assertEquals(Creation.platformStackKb(), m.stackKb());
        assertEquals(m.stackKb() * 1_024.0 / m.bytesPerThread(), m.stackOverParked(), 1e-9);
        assertTrue(Thread.activeCount() <= before + 1, "no platform thread left behind");
    }

    @Test
    @DisplayName("every sleeper of every round completes; the first round is the cold one")
    void sleeperRounds() throws Exception {
        Creation.Sleepers sleepers = assertTimeoutPreemptively(GUARD,
                () -> Creation.sleepers(500, Duration.ofMillis(20), 2));
        List<Creation.Round> rounds = sleepers.rounds();
        assertEquals(2, rounds.size());
        assertEquals(500, sleepers.count());
        assertTrue(sleepers.jitWarmUpSeconds() > 0, "the JIT warm-up ran before round 2");
        assertEquals(rounds.get(0), sleepers.cold());
        assertEquals(rounds.get(1), sleepers.fastestWarm());
        for (int i = 0; i < 2; i++) {
            var r = rounds.get(i);
            assertEquals(i + 1, r.round());
            assertEquals(500, r.count());
            assertEquals(500, r.completed());
            assertEquals(0.02, r.sleepSeconds(), 1e-12);
            // orderings that follow from the code, not from speed: the last sleeper began after the start
            // phase began, slept at least 20 ms, and returned before the last join
            assertTrue(r.asleepSeconds() > 0 && r.startSeconds() > 0, r.toString());
            assertTrue(r.awakeSeconds() >= r.asleepSeconds() + r.sleepSeconds() - 1e-3, "every thread slept 20 ms: " + r);
            assertTrue(r.awakeSeconds() <= r.totalSeconds(), r.toString());
            assertTrue(r.totalSeconds() >= r.floorSeconds() - 1e-3, r.toString());
            assertEquals(r.totalSeconds() - r.sleepSeconds() - r.asleepSeconds(), r.tailSeconds(), 1e-12);
            assertEquals(r.sleepSeconds() + 2 * r.asleepSeconds() + 0.2, r.allowedSeconds(0.2), 1e-12);
        }
        assertFalse(rounds.get(0).warm());
        assertTrue(rounds.get(1).warm());
        var single = Creation.sleepers(10, Duration.ofMillis(1), 1);
        assertEquals(0.0, single.jitWarmUpSeconds());
        assertThrows(java.util.NoSuchElementException.class, single::fastestWarm);
    }

    @Test
    @DisplayName("the sleepers leave MaxHeapFreeRatio as they found it")
    void restoresHeapFlag() throws Exception {
        var bean = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
        String before = bean.getVMOption("MaxHeapFreeRatio").getValue();
        Creation.sleepers(10, Duration.ofMillis(1), 1);
        assertEquals(before, bean.getVMOption("MaxHeapFreeRatio").getValue());
    }

    @Test
    @DisplayName("interrupting the sleepers stops them and throws InterruptedException")
    void sleepersAnswerInterrupt() throws Exception {
        var thrown = new AtomicReference<Throwable>();
        Thread caller = Thread.ofPlatform().start(() -> {
            try {
                Creation.sleepers(2_000, Duration.ofSeconds(30), 1);
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        Thread.sleep(300);
        caller.interrupt();
        caller.join(GUARD.toMillis());
        assertFalse(caller.isAlive(), "the sleepers did not stop on interrupt");
        assertInstanceOf(InterruptedException.class, thrown.get());
    }

    @Test
    @DisplayName("the hand-off model adds the round trip to each kind's CPU per thread")
    void handOffModel() {
        var handOff = new Creation.Serial("hand-off only", "x", 1_000, 20_000_000L); // 20 µs each
        var cp = measurement("platform", 1_000, 90_000_000L, 60_000_000L);         // 90 µs wall, 60 µs CPU
        var cv = measurement("virtual", 10_000, 10_000_000L, 5_000_000L);           // 1 µs wall, 0.5 µs CPU
        var model = Creation.serialModel(handOff, cp, cv);
        assertEquals(80.0, model.platformMicros(), 1e-9);
        assertEquals(20.5, model.virtualMicros(), 1e-9);
        assertEquals(80.0 / 20.5, model.ratio(), 1e-9);
        var pooled = new Measurement("v", 0, 1_000, new long[] {1, 2, 3}, new long[] {0, 0, 3_000_000L});
        assertEquals(1.0, Creation.cpuMicrosPerThread(pooled), 1e-9); // 3 ms over 3 runs of 1,000
    }

    @Test
    @DisplayName("the reproduction rows name article 001 and carry prediction and measurement")
    void reproductionRows() {
        var p = new Creation.Serial("platform", "x", 1_000, 150_000_000L);
        var v = new Creation.Serial("virtual", "x", 1_000, 30_000_000L);
        var h = new Creation.Serial("hand-off only", "x", 1_000, 20_000_000L);
        var parked = new Creation.ParkedHeap(1_000, 1_000_000, 2_000_000, 1_000_000, 1_024);
        List<Reproduction> rows = Creation.rows(p, v, h, measurement("platform", 1_000, 90_000_000L, 60_000_000L),
                measurement("virtual", 10_000, 10_000_000L, 5_000_000L), parked);
        assertEquals(6, rows.size());
        rows.forEach(r -> assertEquals("001", r.article()));
        assertEquals(150.0, rows.get(0).measured(), 1e-9);
        assertEquals(30.0, rows.get(1).measured(), 1e-9);
        assertEquals(5.0, rows.get(2).measured(), 1e-9);
        assertEquals(1.0, rows.get(4).measured(), 1e-9);
        assertEquals(1_000.0, rows.get(5).measured(), 1e-9);
        assertEquals(5, Creation.rows(p, v, h, measurement("platform", 1_000, 90_000_000L, 60_000_000L),
                measurement("virtual", 10_000, 10_000_000L, 5_000_000L), null).size());
    }

    @Test
    @DisplayName("full scale runs a million sleepers; quick a tenth, with the same one-second sleep")
    void params() {
        var full = Creation.Params.of(Scale.FULL);
        var quick = Creation.Params.of(Scale.QUICK);
        assertEquals(1_000_000, full.sleepers());
        assertEquals(100_000, quick.sleepers());
        assertEquals(Duration.ofSeconds(1), quick.sleep());
        assertTrue(full.rounds() >= 2 && quick.rounds() >= 2, "a cold round and at least one warm one");
        assertTrue(full.serialCount() > quick.serialCount());
    }

    private static Measurement measurement(String name, long ops, long wallNanos, long cpuNanos) {
        return new Measurement(name, 0, ops, new long[] {wallNanos}, new long[] {cpuNanos});
    }
}
