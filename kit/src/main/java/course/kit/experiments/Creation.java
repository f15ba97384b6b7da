package course.kit.experiments;

import com.sun.management.HotSpotDiagnosticMXBean;
import course.kit.Limits;
import course.kit.Measure;
import course.kit.Measure.Measurement;
import course.kit.Recorder;
import course.kit.Reproduction;
import course.kit.RunResult;
import course.kit.Scale;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Notebook 01's parameters, its model of article 001's loop, and the run code that {@code ./course reproduce}
 * uses. The notebook's cells hold the same loops as editable code; the methods here mirror them line for line,
 * wrapped in the same {@link Recorder}, so that the reproduction table measures what the notebook measures.
 * The charts and tables are in {@link CreationViews}.
 *
 * <ul>
 *   <li>{@link #platformOneAtATime} and {@link #submitAndGet}: article 001's loops, one thread at a time.</li>
 *   <li>{@link #submitAll}: every task submitted first, then {@code close()} waits for them all.</li>
 *   <li>{@link #parkedHeap}: the heap a parked virtual thread holds.</li>
 *   <li>{@link #serialModel}: what a one-at-a-time loop should cost, creation plus a hand-off round trip
 *       (derived in the appendix notebook).</li>
 * </ul>
 */
public final class Creation {
    private Creation() {}

    /** The two kinds of thread the notebook compares, with the executor that starts one of them per task. */
    public enum Kind {
        PLATFORM,
        VIRTUAL;

        /** {@code Thread.ofPlatform()} or {@code Thread.ofVirtual()}. */
        public Thread.Builder builder() {
            return this == PLATFORM ? Thread.ofPlatform() : Thread.ofVirtual();
        }

        /** A new executor that starts one new thread of this kind per task. */
        public ExecutorService perTask() {
            return this == PLATFORM
                    ? Executors.newThreadPerTaskExecutor(Thread.ofPlatform().factory())
                    : Executors.newVirtualThreadPerTaskExecutor();
        }

        /** "platform" or "virtual". */
        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * The parameters notebook 01 uses at a scale.
     *
     * @param serial        threads in article 001's one-at-a-time loops (the article ran 1,000,000)
     * @param platformBatch platform threads per run when every task is submitted first
     * @param virtualBatch  virtual threads per run when every task is submitted first
     * @param warmups       untimed runs before the timed ones
     * @param reps          timed runs; the median is reported
     * @param parked        virtual threads parked at once to weigh the heap
     * @param sleepers      virtual threads that sleep at once (a million at the full scale)
     * @param sleep         how long each of them sleeps
     */
    public record Params(
            int serial,
            int platformBatch,
            int virtualBatch,
            int warmups,
            int reps,
            int parked,
            int sleepers,
            Duration sleep) {
        /** The notebook's parameters at {@code scale}. */
        public static Params of(Scale scale) {
            return new Params(
                    scale.pick(100_000, 5_000),
                    scale.pick(10_000, 2_000),
                    scale.pick(100_000, 20_000),
                    scale.pick(3, 2),
                    scale.pick(7, 5),
                    100_000,
                    scale.pick(1_000_000, 100_000),
                    Duration.ofSeconds(1));
        }
    }

    // ---------------------------------------------------------------- the loops of the notebook's cells

    /**
     * Article 001's platform loop: {@code new Thread(task)}, {@code start()}, {@code join()}, {@code n} times in
     * a row, each task recorded. Only one thread is alive at a time.
     */
    public static RunResult platformOneAtATime(int n) throws InterruptedException {
        requireCount(n);
        Limits.requirePlatformThreads(1);
        var rec = Recorder.start("platform, one at a time", n);
        try {
            for (int i = 0; i < n; i++) {
                Thread t = new Thread(rec.task(() -> {}));
                t.start();
                t.join();
            }
        } finally {
            rec.stop(); // ends the progress line even when the loop is interrupted
        }
        return rec.stop();
    }

    /**
     * Article 001's virtual loop on any executor: {@code submit(task).get()}, {@code n} times in a row, each task
     * recorded; the executor is closed at the end. On {@code newVirtualThreadPerTaskExecutor()} each task gets a
     * new virtual thread; on {@code newSingleThreadExecutor(Thread.ofVirtual().factory())} one virtual thread
     * runs them all, which times the hand-offs without any creation.
     */
    public static RunResult submitAndGet(String name, ExecutorService executor, int n) throws InterruptedException {
        requireCount(n);
        Objects.requireNonNull(executor, "executor");
        var rec = Recorder.start(name, n);
        try (executor) {
            for (int i = 0; i < n; i++) executor.submit(rec.task(() -> {})).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("an empty task failed", e.getCause());
        } finally {
            rec.stop(); // ends the progress line even when the loop is interrupted
        }
        return rec.stop();
    }

    /** Every task submitted first, then the executor's {@code close()} waits for them all; each task recorded. */
    public static RunResult submitAll(String name, ExecutorService executor, int n) {
        requireCount(n);
        Objects.requireNonNull(executor, "executor");
        var rec = Recorder.start(name, n);
        try (executor) {
            for (int i = 0; i < n; i++) executor.submit(rec.task(() -> {}));
        } finally {
            rec.stop(); // ends the progress line even when the loop is interrupted
        }
        return rec.stop();
    }

    /**
     * {@link #submitAll} repeated with {@link Measure#repeat}: {@code warmups} untimed runs, then {@code reps}
     * timed ones, each on a new executor of {@code kind}; {@code last} receives the last run's records.
     *
     * @throws IllegalArgumentException if this JVM cannot hold {@code n} threads of {@code kind}
     */
    public static Measurement submitAllRepeated(Kind kind, int n, int warmups, int reps, List<RunResult> last)
            throws Exception {
        requireCount(n);
        if (kind == Kind.VIRTUAL) Limits.requireVirtualThreads(n);
        else Limits.requirePlatformThreads(n);
        String name = kind + ", submit all";
        return Measure.repeat(name, warmups, reps, n, () -> {
            RunResult r = submitAll(name, kind.perTask(), n);
            if (last != null) {
                last.clear();
                last.add(r);
            }
        });
    }

    /** Wall time per thread of a run, in microseconds. */
    public static double microsPerThread(RunResult run) {
        return run.elapsedMillis() * 1_000 / run.count();
    }

    // ---------------------------------------------------------------- memory

    /** The JVM's platform-thread stack reservation ({@code -Xss}, {@code ThreadStackSize}), in KB, read from HotSpot. */
    public static long platformStackKb() {
        var hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        long kb = Long.parseLong(hotspot.getVMOption("ThreadStackSize").getValue());
        // 0 means "the OS's default"; HotSpot itself sets 1 MB on Linux/x86-64, macOS and Windows, 2 MB on
        // Linux/aarch64
        return kb > 0 ? kb : 1_024;
    }

    /**
     * The live heap, in bytes: what every heap pool held right after a full collection
     * ({@link MemoryPoolMXBean#getCollectionUsage()}, so objects other threads allocated since do not count).
     * Collects until two readings in a row agree within 256 KB (at most ten times), pausing 20 ms between
     * collections, so that threads about to park have parked and cleaners have run.
     */
    public static long liveHeapBytes() throws InterruptedException {
        var memory = ManagementFactory.getMemoryMXBean();
        long last = -1;
        int agreeing = 0;
        for (int i = 0; i < 10 && agreeing < 2; i++) {
            memory.gc();
            Thread.sleep(20);
            long now = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
                    now += pool.getCollectionUsage().getUsed();
                }
            }
            agreeing = last >= 0 && Math.abs(now - last) <= 256 * 1024 ? agreeing + 1 : 0;
            last = now;
        }
        return last;
    }

    /**
     * What parked virtual threads hold on the heap.
     *
     * @param count           threads parked at once
     * @param heapBeforeBytes live heap before any thread started
     * @param heapParkedBytes live heap with every thread parked
     * @param stackKb         the platform-thread stack reservation, for comparison
     */
    public record ParkedHeap(int count, long heapBeforeBytes, long heapParkedBytes, long stackKb) {
        /** Heap bytes per parked virtual thread. */
        public double bytesPerThread() {
            return (heapParkedBytes - heapBeforeBytes) / (double) count;
        }

        /** How many parked virtual threads fit in one platform thread's stack reservation. */
        public double stackOverParked() {
            return stackKb * 1_024.0 / bytesPerThread();
        }
    }

    /**
     * The notebook's memory cell: weighs the live heap, parks {@code n} virtual threads on a latch, weighs it
     * again, then releases them and waits until each has counted down on its way out (so that a next weighing
     * does not count them).
     *
     * @throws IllegalArgumentException if {@code n < 1}, or if the heap cannot hold them
     */
    public static ParkedHeap parkedHeap(int n) throws InterruptedException {
        requireCount(n);
        Limits.requireVirtualThreads(n);
        var parked = new CountDownLatch(n);
        var release = new CountDownLatch(1);
        var ended = new CountDownLatch(n);
        long before = liveHeapBytes();
        int started = 0;
        try {
            for (; started < n; started++) {
                Thread.ofVirtual().start(() -> {
                    parked.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    ended.countDown();
                });
            }
            parked.await(); // every thread has counted down; the weighing's collections give them time to park
            long during = liveHeapBytes();
            return new ParkedHeap(n, before, during, platformStackKb());
        } finally {
            release.countDown();
            for (int i = started; i < n; i++) ended.countDown(); // threads that never started (an error on the way)
            ended.await();
        }
    }

    // ---------------------------------------------------------------- the model of a one-at-a-time loop

    /**
     * What article 001's loops should cost if a thread's creation and the hand-offs around it add up: run one at
     * a time, a thread's whole work (its CPU time per thread when every task is submitted first) is on the
     * critical path, and so is one round trip of two wake-ups (the new thread's first run, the waiting caller's
     * return), which the loop on one reused virtual thread measures without creating any thread.
     *
     * @param platformMicros predicted µs per platform thread in article 001's loop
     * @param virtualMicros  predicted µs per virtual thread in article 001's loop
     * @param handOffMicros  the measured round trip the prediction adds to each
     */
    public record SerialModel(double platformMicros, double virtualMicros, double handOffMicros) {
        /** The speed-up article 001's loop should report: platform ÷ virtual. */
        public double ratio() {
            return platformMicros / virtualMicros;
        }
    }

    /**
     * What article 001's one-at-a-time loops measured, per thread.
     *
     * @param count          threads (or tasks) per loop
     * @param platformMicros µs per platform thread: new Thread, start, join
     * @param virtualMicros  µs per virtual thread: submit to a virtual-thread-per-task executor, get
     * @param handOffMicros  µs per task on one reused virtual thread: submit, get, no thread created
     */
    public record OneAtATime(int count, double platformMicros, double virtualMicros, double handOffMicros) {
        /** The figures of three recorded runs. */
        public static OneAtATime of(RunResult platform, RunResult virtual, RunResult handOff) {
            return new OneAtATime(
                    platform.count(), microsPerThread(platform), microsPerThread(virtual), microsPerThread(handOff));
        }

        /** platform ÷ virtual, the figure article 001 reported as 16.2×. */
        public double ratio() {
            return platformMicros / virtualMicros;
        }
    }

    /** The model from the measured pieces (see {@link SerialModel}). */
    public static SerialModel serialModel(OneAtATime serial, Measurement platformAll, Measurement virtualAll) {
        double h = serial.handOffMicros();
        return new SerialModel(cpuMicrosPerThread(platformAll) + h, cpuMicrosPerThread(virtualAll) + h, h);
    }

    /**
     * CPU per thread over all timed runs of {@code m}: the OS counts process CPU in ticks of several
     * milliseconds, too coarse for one short run, so the runs are pooled rather than taking their median.
     */
    public static double cpuMicrosPerThread(Measurement m) {
        long cpu = 0;
        for (long c : m.cpuNanos()) cpu += c;
        return cpu / 1_000.0 / (m.opsPerRun() * (double) m.cpuNanos().length);
    }

    // ---------------------------------------------------------------- article 001's reproduction rows

    /** Article 001's figures. */
    static final double ARTICLE_PLATFORM_MS = 252_142.8, ARTICLE_VIRTUAL_MS = 15_532.7, ARTICLE_COUNT = 1_000_000;

    /**
     * The reproduction rows for article 001, from measurements already made (the notebook makes them cell by
     * cell and shows the same rows that {@code ./course reproduce} writes); {@code parked} may be null.
     */
    public static List<Reproduction> rows(
            OneAtATime serial, Measurement platformAll, Measurement virtualAll, ParkedHeap parked) {
        SerialModel model = serialModel(serial, platformAll, virtualAll);
        String size = String.format("%,d threads one at a time (the article ran 1,000,000)", serial.count());
        String modelNote =
                "; predicted = CPU per thread when all are submitted first + one measured hand-off round trip";
        double allRatio = platformAll.perOpMicros() / virtualAll.perOpMicros();
        List<Reproduction> rows = new ArrayList<>();
        rows.add(new Reproduction(
                "start+join one at a time, platform: new Thread, start, join",
                "001",
                String.format("%.0f µs/thread (252,143 ms for 1,000,000)", ARTICLE_PLATFORM_MS * 1e3 / ARTICLE_COUNT),
                model.platformMicros(),
                serial.platformMicros(),
                "µs/thread",
                size + modelNote));
        rows.add(new Reproduction(
                "start+join one at a time, virtual: executor submit, get",
                "001",
                String.format("%.1f µs/thread (15,533 ms for 1,000,000)", ARTICLE_VIRTUAL_MS * 1e3 / ARTICLE_COUNT),
                model.virtualMicros(),
                serial.virtualMicros(),
                "µs/thread",
                size + modelNote));
        rows.add(new Reproduction(
                "speed-up of the one-at-a-time loop, platform ÷ virtual",
                "001",
                "16.2×",
                model.ratio(),
                serial.ratio(),
                "×",
                String.format("with every task submitted first (median) the ratio is %.0f×", allRatio)));
        rows.add(new Reproduction(
                "creation cost, platform thread (submit all, then close; median)",
                "001",
                "100–300 µs per thread",
                200,
                platformAll.perOpMicros(),
                "µs/thread",
                "predicted = the article's mid-range; " + platformAll.method()));
        rows.add(new Reproduction(
                "creation cost, virtual thread (submit all, then close; median)",
                "001",
                "about 10 µs per thread",
                10,
                virtualAll.perOpMicros(),
                "µs/thread",
                "predicted = the article's figure; " + virtualAll.method()));
        if (parked != null) {
            rows.add(new Reproduction(
                    "heap per parked virtual thread (vs a platform stack reservation)",
                    "001",
                    "platform threads reserve up to 1 MB; virtual threads grow as needed",
                    Limits.BYTES_PER_VIRTUAL_THREAD,
                    parked.bytesPerThread(),
                    "B/thread",
                    String.format(
                            "%,d threads parked on a latch; predicted = at most "
                                    + "2 KB; this JVM reserves %,d KB per platform thread",
                            parked.count(), parked.stackKb())));
        }
        return rows;
    }

    /**
     * Runs article 001's experiments at {@code scale} (the parameters of {@link Params#of}), with the loops of
     * the notebook's cells, and returns their rows for {@code ./course reproduce}.
     */
    public static List<Reproduction> reproduce(Scale scale) throws Exception {
        Params p = Params.of(scale);
        RunResult platform = platformOneAtATime(p.serial());
        RunResult virtual =
                submitAndGet("virtual, submit + get", Executors.newVirtualThreadPerTaskExecutor(), p.serial());
        RunResult handOff = submitAndGet(
                "one reused virtual thread, submit + get",
                Executors.newSingleThreadExecutor(Thread.ofVirtual().factory()),
                p.serial());
        Measurement platformAll = submitAllRepeated(Kind.PLATFORM, p.platformBatch(), p.warmups(), p.reps(), null);
        Measurement virtualAll = submitAllRepeated(Kind.VIRTUAL, p.virtualBatch(), p.warmups(), p.reps(), null);
        ParkedHeap parked = parkedHeap(p.parked());
        return rows(OneAtATime.of(platform, virtual, handOff), platformAll, virtualAll, parked);
    }

    private static void requireCount(int count) {
        if (count < 1) throw new IllegalArgumentException("a thread count must be at least 1, not " + count);
    }
}
