package course.kit.diagnostics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.diagnostics.Carriers;
import java.io.FileInputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class InstrumentsTest {

    @Test
    void nativeSortSortsAndRethrowsWhatTheComparatorThrew() {
        int[] v = {5, 3, 9, 1};
        NativeSort.sort(v, Integer::compare);
        assertArrayEquals(new int[] {1, 3, 5, 9}, v);
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> NativeSort.sort(new int[] {2, 1}, (a, b) -> {
                    throw new IllegalArgumentException("boom");
                }));
        assertEquals("boom", e.getMessage());
    }

    @Test
    void parallelismIsRestored() {
        int before = Carriers.scheduler().getParallelism();
        try (var p = Carriers.parallelism(before + 1)) {
            assertEquals(before + 1, Carriers.scheduler().getParallelism());
            assertEquals(before, p.before());
        }
        assertEquals(before, Carriers.scheduler().getParallelism());
        assertThrows(IllegalArgumentException.class, () -> Carriers.parallelism(0));
    }

    @Test
    void samplerSeesMountedVirtualThreadsAndStops() throws Exception {
        var inside = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        List<SchedulerSampler.Sample> samples;
        try (var sampler = SchedulerSampler.every(Duration.ofMillis(1))) {
            // A virtual thread spinning on a volatile read stays mounted until released.
            Thread t = Thread.ofVirtual().start(() -> {
                inside.countDown();
                while (release.getCount() > 0) Thread.onSpinWait();
            });
            inside.await();
            sampler.sample();
            release.countDown();
            t.join();
            samples = sampler.stop();
        }
        assertTrue(SchedulerSampler.peakMounted(samples) >= 1, samples.toString());
        assertTrue(samples.getFirst().parallelism() >= 1);
        assertFalse(
                Thread.getAllStackTraces().keySet().stream()
                        .anyMatch(x -> x.getName().equals("scheduler-sampler")),
                "the sampling thread ended");
    }

    @Test
    void threadDumpCountsTheVirtualThreadsOfAnExecutor() throws Exception {
        var parked = new CountDownLatch(5);
        var release = new CountDownLatch(1);
        List<ThreadDumps.Container> containers;
        String ours;
        try (var ex = Executors.newVirtualThreadPerTaskExecutor()) {
            ours = ex.toString(); // its container's name; the JDK's socket pollers, once started, are another
            // such executor
            for (int i = 0; i < 5; i++) {
                ex.submit(() -> {
                    parked.countDown();
                    release.await();
                    return null;
                });
            }
            parked.await();
            try {
                containers = ThreadDumps.containers();
            } finally {
                release.countDown();
            }
        }
        var executors = containers.stream().filter(c -> c.name().equals(ours)).toList();
        assertEquals(1, executors.size(), containers.toString());
        assertEquals(5, executors.getFirst().virtual());
        assertEquals(5, executors.getFirst().threads());
        assertEquals("<root>", containers.getFirst().name());
    }

    @Test
    void jstackHeadersAreRead() {
        assertEquals(
                List.of("main", "Reference Handler"),
                ThreadDumps.threadNames(
                        "2026-12-01\nFull thread dump\n\n\"main\" #1 prio=5\n   java.lang.Thread.State: RUNNABLE\n\n\"Reference Handler\" #9 daemon\n"));
    }

    @Test
    void aFifoFeedsReadersDrainsWritersAndEndsBlockedReadersWhenClosed() throws Exception {
        java.nio.file.Path path;
        var got = new java.util.concurrent.ConcurrentLinkedQueue<Integer>();
        Thread fed, ended, writer;
        try (var fifo = Fifo.create()) {
            path = fifo.path();
            fed = Thread.ofVirtual().start(() -> got.add(readOne(fifo)));
            fifo.write(1);
            fed.join();
            writer = Thread.ofVirtual().start(() -> {
                try (var out = new RandomAccessFile(fifo.file(), "rws")) {
                    out.write(new byte[100_000]); // more than the pipe holds: blocks until drained
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            fifo.drain(100_000);
            writer.join();
            var opened = new FileInputStream(fifo.file()); // opened before the FIFO closes
            ended = Thread.ofVirtual().start(() -> {
                try (opened) {
                    got.add(opened.read());
                } catch (java.io.IOException e) {
                    got.add(-2);
                }
            });
        }
        ended.join();
        assertEquals(List.of(0, -1), List.copyOf(got), "one byte fed, then the end of the file");
        assertFalse(Files.exists(path));
        assertFalse(Files.exists(path.getParent()));
    }

    private static int readOne(Fifo fifo) {
        try (var in = new FileInputStream(fifo.file())) {
            return in.read();
        } catch (java.io.IOException e) {
            return -2;
        }
    }

    @Test
    void probeRecordsEveryWakeUp() throws Exception {
        try (var probe = LatenessProbe.start(Duration.ofMillis(1), 5)) {
            List<Double> late = probe.await();
            assertEquals(5, late.size());
            assertTrue(late.stream().allMatch(l -> l >= 0), late.toString());
        }
    }
}
