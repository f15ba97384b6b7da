package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class PoolTest {

    @Test
    void fixedPoolDescribesItself() {
        Pool p = Pool.fixed(200);
        assertEquals(String.format("fixed pool of %,d", 200), p.name());
        assertFalse(p.virtualThreads());
        assertEquals(200, p.platformThreads());
        try (ExecutorService e = p.factory().get()) {
            var tpe = assertInstanceOf(ThreadPoolExecutor.class, e);
            assertEquals(200, tpe.getCorePoolSize());
            assertEquals(200, tpe.getMaximumPoolSize());
        }
    }

    @Test
    void fixedPoolNeedsAThread() {
        var e = assertThrows(IllegalArgumentException.class, () -> Pool.fixed(0));
        assertTrue(e.getMessage().contains("at least 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Pool.fixed(-5));
    }

    @Test
    void virtualPoolDescribesItselfAndRunsOnVirtualThreads() throws Exception {
        Pool p = Pool.virtual();
        assertTrue(p.virtualThreads());
        assertEquals(0, p.platformThreads());
        assertEquals("virtual thread per task", p.name());
        try (ExecutorService e = p.factory().get()) {
            assertTrue(e.submit(() -> Thread.currentThread().isVirtual()).get());
        }
    }

    @Test
    void platformPerTaskPoolDescribesItselfAndRunsOnPlatformThreads() throws Exception {
        Pool p = Pool.platformPerTask();
        assertFalse(p.virtualThreads());
        assertEquals(-1, p.platformThreads());
        assertEquals("platform thread per task", p.name());
        try (ExecutorService e = p.factory().get()) {
            assertFalse(e.submit(() -> Thread.currentThread().isVirtual()).get());
        }
    }

    @Test
    void factoryMakesAFreshExecutorEachTime() {
        Pool p = Pool.fixed(1);
        try (ExecutorService a = p.factory().get();
                ExecutorService b = p.factory().get()) {
            assertNotSame(a, b);
        }
    }

    @Test
    void ofKeepsWhatItIsTold() {
        Supplier<ExecutorService> f = Executors::newSingleThreadExecutor;
        Pool p = Pool.of("single", false, 1, f);
        assertEquals("single", p.name());
        assertFalse(p.virtualThreads());
        assertEquals(1, p.platformThreads());
        assertSame(f, p.factory());
    }

    @Test
    void namedKeepsEverythingButTheName() {
        Pool p = Pool.fixed(3);
        Pool q = p.named("three");
        assertEquals("three", q.name());
        assertEquals(p.virtualThreads(), q.virtualThreads());
        assertEquals(p.platformThreads(), q.platformThreads());
        assertSame(p.factory(), q.factory());
        assertEquals(String.format("fixed pool of %,d", 3), p.name(), "the original is unchanged");
    }

    @Test
    void nameAndFactoryAreRequired() {
        assertThrows(
                NullPointerException.class, () -> Pool.of(null, true, 0, Executors::newVirtualThreadPerTaskExecutor));
        assertThrows(NullPointerException.class, () -> Pool.of("x", true, 0, null));
    }

    @Test
    void validateRefusesNegativeTaskCounts() {
        var e = assertThrows(
                IllegalArgumentException.class, () -> Pool.virtual().validate(-1));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
    }

    @Test
    void aHugeFixedPoolIsFineForFewTasksButNotForAsManyTasks() {
        // the pool creates no more threads than tasks, so only min(size, tasks) threads count
        Pool huge = Pool.fixed(10_000_000);
        huge.validate(5);
        assertThrows(IllegalArgumentException.class, () -> huge.validate(10_000_000));
    }

    @Test
    void validateRefusesMorePlatformThreadsThanTheOsAllows() {
        var e = assertThrows(
                IllegalArgumentException.class, () -> Pool.fixed(10_000_000).validate(10_000_000));
        assertTrue(e.getMessage().contains(String.format("%,d platform threads", 10_000_000)), e.getMessage());
        var f = assertThrows(
                IllegalArgumentException.class, () -> Pool.platformPerTask().validate(10_000_000));
        assertTrue(f.getMessage().contains("platform threads"), f.getMessage());
    }

    @Test
    void validateRefusesMoreVirtualThreadsThanTheHeapHolds() {
        long tooMany = Runtime.getRuntime().maxMemory() / Limits.BYTES_PER_VIRTUAL_THREAD + 1;
        int n = (int) Math.min(Integer.MAX_VALUE, tooMany);
        var e = assertThrows(
                IllegalArgumentException.class, () -> Pool.virtual().validate(n));
        assertTrue(e.getMessage().contains("virtual threads"), e.getMessage());
    }

    @Test
    void validationCountsEachKindOnlyAgainstItsOwnLimit() {
        var counted = new AtomicInteger();
        // a virtual pool is never checked against the OS thread limit: 100,000 tasks fit any sane heap
        Pool.of("v", true, 0, () -> {
                    counted.incrementAndGet();
                    return Executors.newVirtualThreadPerTaskExecutor();
                })
                .validate(100_000);
        assertEquals(0, counted.get(), "validation creates no executor");
    }
}
