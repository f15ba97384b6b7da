package course.kit.experiments;

import com.sun.management.HotSpotDiagnosticMXBean;
import course.kit.Limits;
import course.kit.Measure;
import course.kit.Measure.Measurement;
import course.kit.Progress;
import course.kit.Reproduction;
import course.kit.Scale;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * Notebook 01's experiments: what a thread costs to create, to keep parked, and how many virtual threads
 * fit in one JVM.
 *
 * <ul>
 *   <li>{@link #serialPlatform(int)} and {@link #serialVirtual(int)} reproduce article 001's benchmark: one
 *       thread at a time, start then wait, so that each figure includes a hand-off between threads.</li>
 *   <li>{@link #handOff(int)} times the same submit-then-get on one virtual thread that is reused: the
 *       hand-off alone, with no thread created.</li>
 *   <li>{@link #startAllJoinAll(boolean, int, int, int)} measures creation properly: warm-up runs, every
 *       thread started before any is joined, repetitions, the median.</li>
 *   <li>{@link #platformStackKb()} and {@link #parkedHeap(int)}: the memory side.</li>
 *   <li>{@link #sleepers(int, Duration, int)}: a million sleeping virtual threads, round after round.</li>
 * </ul>
 *
 * <p>Every method checks its sizes through {@link Limits} before it starts a thread, and lets
 * {@link InterruptedException} propagate after stopping and joining the threads it started.
 */
public final class Creation {
    private Creation() {}

    /** The thread body of the creation benchmarks: nothing, so that only the thread's own cost is timed. */
    private static final Runnable NOTHING = () -> {};

    /**
     * The parameters notebook 01 uses at a scale.
     *
     * @param serialCount    threads in article 001's serial benchmark (the article used 1,000,000)
     * @param platformBatch  platform threads per run of the start-all-then-join-all measurement
     * @param virtualBatch   virtual threads per run of the start-all-then-join-all measurement
     * @param warmups        untimed runs before the timed ones
     * @param reps           timed runs; the median is reported
     * @param parked         virtual threads parked at once for the heap measurement
     * @param sleepers       virtual threads sleeping at once in the "how many fit" rounds
     * @param sleep          how long each of those sleeps
     * @param rounds         how many rounds of sleepers: the first is cold, the others warm
     */
    public record Params(int serialCount, int platformBatch, int virtualBatch, int warmups, int reps, int parked,
                         int sleepers, Duration sleep, int rounds) {
        /** The notebook's parameters at {@code scale}. */
        public static Params of(Scale scale) {
            return new Params(scale.pick(100_000, 5_000), scale.pick(10_000, 2_000), scale.pick(100_000, 20_000),
                    scale.pick(3, 2), scale.pick(7, 5), 100_000, scale.pick(1_000_000, 100_000),
                    Duration.ofSeconds(1), 3);
        }
    }

    // ---------------------------------------------------------------- article 001's serial benchmark

    /**
     * The wall time of {@code count} threads created one at a time.
     *
     * @param kind         "platform", "virtual" or "hand-off only"
     * @param method       how each thread was run, in code
     * @param count        threads (or hand-offs)
     * @param elapsedNanos wall time of the whole loop
     */
    public record Serial(String kind, String method, int count, long elapsedNanos) {
        /** Wall time per thread, in microseconds. */
        public double microsPerThread() { return elapsedNanos / 1_000.0 / count; }

        /** Wall time of the whole loop, in milliseconds. */
        public double elapsedMillis() { return elapsedNanos / 1e6; }
    }

    /**
     * Article 001's platform loop: {@code new Thread(() -> {})}, {@code start()}, {@code join()}, {@code count}
     * times in a row. Only one thread is alive at a time.
     *
     * @throws IllegalArgumentException if {@code count < 1}, or if this JVM cannot start a platform thread
     */
    public static Serial serialPlatform(int count) throws InterruptedException {
        requireCount(count);
        Limits.requirePlatformThreads(1);
        var done = new AtomicInteger();
        try (var progress = Progress.start("platform: new Thread + start + join, one at a time", count, done::get)) {
            long t0 = System.nanoTime();
            for (int i = 0; i < count; i++) {
                Thread t = new Thread(NOTHING);
                t.start();
                t.join();
                done.lazySet(i + 1);
            }
            return new Serial("platform", "new Thread(task); start(); join()", count, System.nanoTime() - t0);
        }
    }

    /**
     * Article 001's virtual loop: on one {@code newVirtualThreadPerTaskExecutor()}, {@code submit(() -> {})}
     * then {@code get()}, {@code count} times in a row; the time includes the executor's {@code close()}.
     *
     * @throws IllegalArgumentException if {@code count < 1}
     */
    public static Serial serialVirtual(int count) throws InterruptedException {
        requireCount(count);
        Limits.requireVirtualThreads(1);
        long t0 = System.nanoTime();
        submitThenGet("virtual: executor submit + get, one at a time", Executors.newVirtualThreadPerTaskExecutor(), count);
        return new Serial("virtual", "virtual-thread-per-task executor: submit(task).get()", count, System.nanoTime() - t0);
    }

    /**
     * The same submit-then-get loop as {@link #serialVirtual(int)}, on an executor that keeps <em>one</em>
     * virtual thread for all tasks ({@code newSingleThreadExecutor(Thread.ofVirtual().factory())}): every
     * hand-off of the article's loop happens, but no thread is created after the first. What this costs per
     * task is what the article's virtual figure spends on hand-offs rather than on creation.
     *
     * @throws IllegalArgumentException if {@code count < 1}
     */
    public static Serial handOff(int count) throws InterruptedException {
        requireCount(count);
        ExecutorService one = Executors.newSingleThreadExecutor(Thread.ofVirtual().factory());
        long t0 = System.nanoTime();
        submitThenGet("hand-off only: submit + get on one reused virtual thread", one, count);
        return new Serial("hand-off only", "one reused virtual thread: submit(task).get()", count, System.nanoTime() - t0);
    }

    private static void submitThenGet(String label, ExecutorService executor, int count) throws InterruptedException {
        var done = new AtomicInteger();
        try (executor; var progress = Progress.start(label, count, done::get)) {
            for (int i = 0; i < count; i++) {
                try {
                    executor.submit(NOTHING).get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException("an empty task failed", e.getCause());
                } catch (InterruptedException e) {
                    executor.shutdownNow();
                    throw e;
                }
                done.lazySet(i + 1);
            }
        }
    }

    // ---------------------------------------------------------------- the correct measurement

    /**
     * Starts {@code count} threads from {@code builder}, every one before joining any, then joins them all.
     * This is the unit the correct measurement repeats.
     *
     * @return the wall time from before the first start to after the last join, in nanoseconds
     * @throws IllegalArgumentException if {@code count < 0}
     */
    public static long startAndJoin(Thread.Builder builder, int count, Runnable task) throws InterruptedException {
        Objects.requireNonNull(builder, "builder");
        Objects.requireNonNull(task, "task");
        if (count < 0) throw new IllegalArgumentException("a thread count cannot be negative: " + count);
        Thread[] threads = new Thread[count];
        long t0 = System.nanoTime();
        int started = 0;
        try {
            for (; started < count; started++) threads[started] = builder.start(task);
            for (int i = 0; i < count; i++) threads[i].join();
        } catch (InterruptedException e) {
            for (int i = 0; i < started; i++) threads[i].interrupt();
            joinUninterruptibly(threads, started);
            throw e;
        }
        return System.nanoTime() - t0;
    }

    /**
     * The correct creation measurement: {@code warmups} untimed runs, then {@code reps} timed runs of
     * {@link #startAndJoin} with {@code count} empty threads, reported as the median (see {@link Measure}).
     *
     * @param virtual whether to start virtual threads (else platform threads)
     * @throws IllegalArgumentException if {@code count < 1}, or if this JVM cannot hold {@code count} threads
     */
    public static Measurement startAllJoinAll(boolean virtual, int count, int warmups, int reps) throws InterruptedException {
        requireCount(count);
        if (virtual) Limits.requireVirtualThreads(count); else Limits.requirePlatformThreads(count);
        Thread.Builder builder = virtual ? Thread.ofVirtual() : Thread.ofPlatform();
        String name = (virtual ? "virtual" : "platform") + ": start all, then join all";
        int runs = warmups + reps;
        var done = new AtomicInteger();
        try (var progress = Progress.start(name + " (" + runs + " runs)", runs, done::get)) {
            return Measure.repeat(name, warmups, reps, count, () -> {
                startAndJoin(builder, count, NOTHING);
                done.incrementAndGet();
            });
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) { // startAndJoin throws nothing else
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------- memory

    /** The JVM's platform-thread stack size ({@code -XX:ThreadStackSize}, {@code -Xss}), in KB, as HotSpot reports it. */
    public static long platformStackKb() {
        var hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        long kb = Long.parseLong(hotspot.getVMOption("ThreadStackSize").getValue());
        // 0 means "the platform's default", which is 1 MB on 64-bit Linux, macOS and Windows
        return kb > 0 ? kb : 1_024;
    }

    /**
     * What parked virtual threads cost on the heap.
     *
     * @param count           threads parked at once
     * @param heapBeforeBytes heap in use after full GCs, before any thread started
     * @param heapParkedBytes heap in use after full GCs, with every thread parked
     * @param heapAfterBytes  heap in use after full GCs, once every thread has ended
     * @param stackKb         the platform-thread stack reservation, for comparison
     */
    public record ParkedHeap(int count, long heapBeforeBytes, long heapParkedBytes, long heapAfterBytes, long stackKb) {
        /** Heap bytes per parked virtual thread. */
        public double bytesPerThread() { return (heapParkedBytes - heapBeforeBytes) / (double) count; }

        /** How many parked virtual threads the heap of one platform thread's stack reservation would hold. */
        public double stackOverParked() { return stackKb * 1_024.0 / bytesPerThread(); }
    }

    /**
     * Parks {@code count} virtual threads on a {@link CountDownLatch}, measures the heap in use (after
     * full GCs) before and while they are parked, then releases and joins them and measures again.
     *
     * @throws IllegalArgumentException if {@code count < 1}, or if the heap cannot hold them
     */
    public static ParkedHeap parkedHeap(int count) throws InterruptedException {
        requireCount(count);
        Limits.requireVirtualThreads(count);
        Thread[] threads = new Thread[count]; // allocated before the baseline: it is not the threads' cost
        var parked = new CountDownLatch(count);
        var release = new CountDownLatch(1);
        Runnable park = () -> {
            parked.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        var step = new AtomicInteger(); // six steps: GC, start, park, GC, release and join, GC
        int started = 0;
        try (var progress = Progress.start(String.format("park %,d virtual threads and weigh the heap", count), 6, step::get)) {
            long before = heapAfterGc();
            step.set(1);
            Thread.Builder builder = Thread.ofVirtual().inheritInheritableThreadLocals(false);
            for (; started < count; started++) threads[started] = builder.start(park);
            step.set(2);
            parked.await();
            for (Thread t : threads) { // counted down, then parked: wait until each is really parked
                while (t.getState() != Thread.State.WAITING) Thread.sleep(1);
            }
            step.set(3);
            long during = heapAfterGc();
            step.set(4);
            release.countDown();
            for (Thread t : threads) t.join();
            step.set(5);
            long after = heapAfterGc();
            step.set(6);
            return new ParkedHeap(count, before, during, after, platformStackKb());
        } catch (InterruptedException e) {
            release.countDown();
            joinUninterruptibly(threads, started);
            throw e;
        } finally {
            release.countDown();
        }
    }

    /**
     * The live heap, in bytes: what every heap pool held right after a full collection
     * ({@link MemoryPoolMXBean#getCollectionUsage()}, so that objects allocated by other threads since then do
     * not count). Collects until two readings in a row agree within 256 KB (at most ten times), pausing
     * briefly between collections so that reference processing and cleaners can free what they hold.
     */
    static long heapAfterGc() throws InterruptedException {
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

    // ---------------------------------------------------------------- a million sleeping virtual threads

    /**
     * One round of {@link #sleepers}: {@code count} virtual threads, each sleeping {@code sleep}.
     *
     * @param round          1 for the first round in this JVM's call, and so on
     * @param count          threads
     * @param sleepSeconds   each thread's sleep
     * @param startSeconds   time to start every thread (the start phase)
     * @param asleepSeconds  when the last thread began its sleep (every thread has run and parked by then)
     * @param awakeSeconds   when the last thread returned from its sleep
     * @param totalSeconds   time from the first start to the last join
     * @param cpuSeconds     CPU time of the whole process during the round (every thread, GC included)
     * @param gcPauseSeconds time the collectors report for the round (mostly stop-the-world pauses)
     * @param heapUsedMb     heap in use halfway through the sleep (after the start phase), garbage included
     * @param rssMb          the process's resident memory at the same moment (-1 where unknown)
     * @param completed      threads that ran to the end of their sleep
     */
    public record Round(int round, int count, double sleepSeconds, double startSeconds, double asleepSeconds,
                        double awakeSeconds, double totalSeconds, double cpuSeconds, double gcPauseSeconds,
                        long heapUsedMb, long rssMb, int completed) {
        /** Whether this round came after the first one and the JIT warm-up (the JIT has compiled the code paths). */
        public boolean warm() { return round > 1; }

        /**
         * The floor on the total: a sleep never ends early, and the last thread began its sleep at
         * {@link #asleepSeconds()}, no earlier than the end of the start phase.
         */
        public double floorSeconds() { return sleepSeconds + asleepSeconds; }

        /** From the end of the start phase until every thread had begun its sleep: carriers catching up with the starter. */
        public double fallingAsleepSeconds() { return asleepSeconds - startSeconds; }

        /** How late the last sleeper woke, past its one sleep: wake-ups queued behind each other. */
        public double wakeLagSeconds() { return awakeSeconds - asleepSeconds - sleepSeconds; }

        /** From the last return from sleep to the last join. */
        public double finishSeconds() { return totalSeconds - awakeSeconds; }

        /** Time above the floor: waking, finishing and joining the last threads. */
        public double tailSeconds() { return totalSeconds - floorSeconds(); }

        /**
         * The most a round should take: the floor, plus the time it took to put every thread to sleep once more
         * for the wake-ups (waking a thread, thawing its stack and finishing it is the same kind of work as
         * starting it, running it and freezing its stack), plus one collector pause of {@code pauseSeconds}.
         */
        public double allowedSeconds(double pauseSeconds) { return sleepSeconds + 2 * asleepSeconds + pauseSeconds; }
    }

    /**
     * How this JVM sizes its young generation, in words: fixed on the command line ({@code -Xmn}), or left to
     * G1, which sizes it for its pause-time goal. A round of a million sleepers allocates about a gigabyte:
     * only a young generation that holds a whole round lets it run without a collection.
     */
    public static String youngGeneration() {
        try {
            var hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            var max = hotspot.getVMOption("MaxNewSize");
            var min = hotspot.getVMOption("NewSize");
            if (max.getOrigin() == com.sun.management.VMOption.Origin.VM_CREATION
                    && min.getOrigin() == com.sun.management.VMOption.Origin.VM_CREATION && max.getValue().equals(min.getValue())) {
                return String.format("fixed on the command line at %,d MB (-Xmn)", Long.parseLong(max.getValue()) >> 20);
            }
            return String.format("sized by the collector for its %.0f ms pause goal (up to %,d MB)",
                    gcPauseGoalSeconds() * 1e3, Long.parseLong(max.getValue()) >> 20);
        } catch (IllegalArgumentException e) {
            return "sized by the collector";
        }
    }

    /** The collector's pause-time goal ({@code -XX:MaxGCPauseMillis}; G1's default is 200 ms), in seconds. */
    public static double gcPauseGoalSeconds() {
        var hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        try {
            return Long.parseLong(hotspot.getVMOption("MaxGCPauseMillis").getValue()) / 1e3;
        } catch (IllegalArgumentException e) {
            return 0.2;
        }
    }

    /**
     * Rounds of sleeping virtual threads.
     *
     * @param count             threads per round
     * @param sleep             each thread's sleep
     * @param rounds            round 1 is cold, the others warm
     * @param jitWarmUpSeconds  the short rounds run between round 1 and round 2 (see {@link #warmUpSleepPath()})
     */
    public record Sleepers(int count, Duration sleep, List<Round> rounds, double jitWarmUpSeconds) {
        /** Round 1. */
        public Round cold() { return rounds.get(0); }

        /** The warm round with the shortest total. @throws java.util.NoSuchElementException if there is only one round */
        public Round fastestWarm() {
            return rounds.stream().filter(Round::warm).min(java.util.Comparator.comparingDouble(Round::totalSeconds))
                    .orElseThrow();
        }
    }

    /**
     * Runs {@code rounds} rounds of {@code count} virtual threads that each sleep {@code sleep}: start them
     * all directly ({@code Thread.ofVirtual().start}, into a preallocated array; no executor, no futures),
     * wait until every one has finished its sleep, then join them all.
     *
     * <p>Round 1 is cold. Between round 1 and round 2 the JIT is given what a long-running JVM would have
     * had ({@link #warmUpSleepPath()}), so the later rounds are warm. Before every round, outside the timed
     * part, one full collection clears the previous round's dead threads; G1 is asked to keep the heap it
     * has grown meanwhile ({@code MaxHeapFreeRatio=100}, restored afterwards).
     *
     * @throws IllegalArgumentException if {@code count < 1}, {@code rounds < 1}, or the heap cannot hold
     *                                  {@code count} virtual threads
     */
    public static Sleepers sleepers(int count, Duration sleep, int rounds) throws InterruptedException {
        requireCount(count);
        if (rounds < 1) throw new IllegalArgumentException("rounds must be at least 1: " + rounds);
        Objects.requireNonNull(sleep, "sleep");
        Limits.requireDuration("each thread's sleep", sleep);
        Limits.requireDuration(rounds + " rounds of sleeping threads", sleep.multipliedBy(rounds * 4L));
        Limits.requireVirtualThreads(count);
        List<Round> out = new ArrayList<>();
        Thread[] threads = new Thread[count];
        double warmUp = 0;
        // G1 gives back heap after a full collection (down to MaxHeapFreeRatio free); between rounds we want a
        // clean heap, not a small one, so the flag is raised for the experiment and restored afterwards
        String maxFree = setVmOption("MaxHeapFreeRatio", "100");
        try {
            for (int r = 1; r <= rounds; r++) {
                if (r == 2) warmUp = warmUpSleepPath();
                // untimed: start each round with an empty young generation and no dead threads from the last one
                ManagementFactory.getMemoryMXBean().gc();
                out.add(sleepRound(r, threads, sleep));
            }
        } finally {
            if (maxFree != null) setVmOption("MaxHeapFreeRatio", maxFree);
        }
        return new Sleepers(count, sleep, List.copyOf(out), warmUp);
    }

    /** Rounds and threads per round of {@link #warmUpSleepPath()}, and each thread's sleep. */
    static final int WARM_UP_ROUNDS = 10, WARM_UP_THREADS = 20_000;
    static final Duration WARM_UP_SLEEP = Duration.ofMillis(20);

    /**
     * Gives the JIT both halves of the sleep path: ten rounds of 20,000 virtual threads that sleep 20 ms.
     * In a first round of sleepers the JIT compiles {@code VirtualThread.sleepNanos} while every thread is
     * still going to sleep and none has woken, so the waking half is compiled as a trap; each thread that
     * parked in that code is deoptimised when it wakes. Short rounds let that happen on a few thousand
     * threads, and let the JIT recompile with both halves seen, as it would in a JVM that has run for a while.
     *
     * @return the seconds it took
     */
    public static double warmUpSleepPath() throws InterruptedException {
        long t0 = System.nanoTime();
        Thread[] threads = new Thread[WARM_UP_THREADS];
        for (int r = 0; r < WARM_UP_ROUNDS; r++) {
            sleepRound(0, threads, WARM_UP_SLEEP, false);
        }
        return (System.nanoTime() - t0) / 1e9;
    }


    /** Sets a manageable HotSpot flag; returns its previous value, or null if this JVM does not allow it. */
    static String setVmOption(String name, String value) {
        try {
            var hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            String old = hotspot.getVMOption(name).getValue();
            hotspot.setVMOption(name, value);
            return old;
        } catch (RuntimeException e) { // not HotSpot, or the flag is not writeable here
            return null;
        }
    }

    private static Round sleepRound(int round, Thread[] threads, Duration sleep) throws InterruptedException {
        return sleepRound(round, threads, sleep, true);
    }

    private static Round sleepRound(int round, Thread[] threads, Duration sleep, boolean show) throws InterruptedException {
        int count = threads.length;
        var finished = new CountDownLatch(count);
        var completed = new AtomicInteger();
        // striped, so two carriers rarely touch the same cell: cheaper than one shared atomic per thread
        var lastAsleep = new LongAccumulator(Math::max, Long.MIN_VALUE);
        var lastAwake = new LongAccumulator(Math::max, Long.MIN_VALUE);
        Runnable task = () -> {
            try {
                lastAsleep.accumulate(System.nanoTime());
                Thread.sleep(sleep);
                lastAwake.accumulate(System.nanoTime());
                completed.getAndIncrement();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                finished.countDown();
            }
        };
        // no inherited thread-locals to copy into each thread: the kernel's thread may carry some
        Thread.Builder builder = Thread.ofVirtual().inheritInheritableThreadLocals(false);
        String label = String.format("round %d: %,d virtual threads × sleep %,d ms", round, count, sleep.toMillis());
        long gc0 = Measure.gcMillis(), cpu0 = Measure.processCpuNanos();
        int started = 0;
        try (var progress = show ? Progress.start(label, count, () -> (int) (count - finished.getCount())) : null) {
            long t0 = System.nanoTime();
            try {
                for (; started < count; started++) threads[started] = builder.start(task);
                long t1 = System.nanoTime();
                // weigh the round halfway through the sleep, when the threads have parked: the round started on a
                // freshly collected heap, so what is in use is mostly the sleeping threads
                finished.await(sleep.toNanos() / 2, TimeUnit.NANOSECONDS);
                long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                long rss = rssBytes();
                finished.await(); // one wait for all; joining a million threads one by one would park per thread
                for (Thread t : threads) t.join();
                long t2 = System.nanoTime();
                return new Round(round, count, sleep.toNanos() / 1e9, (t1 - t0) / 1e9, (lastAsleep.get() - t0) / 1e9,
                        (lastAwake.get() - t0) / 1e9, (t2 - t0) / 1e9,
                        (Measure.processCpuNanos() - cpu0) / 1e9, (Measure.gcMillis() - gc0) / 1e3, heap >> 20,
                        rss < 0 ? -1 : rss >> 20, completed.get());
            } catch (InterruptedException e) {
                for (int i = 0; i < started; i++) threads[i].interrupt();
                joinUninterruptibly(threads, started);
                throw e;
            }
        } finally {
            java.util.Arrays.fill(threads, null); // let the round's threads be collected
        }
    }


    /** The process's resident set size from /proc/self/status, in bytes; -1 where there is no /proc. */
    static long rssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("\\D+", "")) * 1_024;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }

    // ---------------------------------------------------------------- the hand-off model and the reproduction rows

    /**
     * What the serial loops should cost if a thread's creation and the hand-offs around it simply add up:
     * run one at a time, a thread's whole work (its CPU time per thread in the batched measurement) is on
     * the critical path, and so are the two wake-ups of each round trip (the new thread's first run, and
     * the waiting caller's return), which {@link #handOff(int)} measures without creating any thread.
     *
     * @param platformMicros predicted µs per platform thread in article 001's loop
     * @param virtualMicros  predicted µs per virtual thread in article 001's loop
     * @param handOffMicros  the measured round trip the prediction adds to each
     */
    public record SerialModel(double platformMicros, double virtualMicros, double handOffMicros) {
        /** The speed-up article 001's loop should report: platform ÷ virtual. */
        public double ratio() { return platformMicros / virtualMicros; }
    }

    /** The hand-off model from the measured pieces (see {@link SerialModel}). */
    public static SerialModel serialModel(Serial handOff, Measurement correctPlatform, Measurement correctVirtual) {
        double h = handOff.microsPerThread();
        return new SerialModel(cpuMicrosPerThread(correctPlatform) + h, cpuMicrosPerThread(correctVirtual) + h, h);
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

    /** Article 001's figures, per thread. */
    static final double ARTICLE_PLATFORM_MS = 252_142.8, ARTICLE_VIRTUAL_MS = 15_532.7, ARTICLE_COUNT = 1_000_000;

    /**
     * The reproduction rows for article 001, from measurements already made (the notebook makes them cell by
     * cell and shows the same rows that {@code ./course reproduce} writes).
     */
    public static List<Reproduction> rows(Serial platform, Serial virtual, Serial handOff, Measurement correctPlatform,
                                          Measurement correctVirtual, ParkedHeap parked) {
        SerialModel model = serialModel(handOff, correctPlatform, correctVirtual);
        String size = String.format("%,d threads one at a time (the article ran 1,000,000)", platform.count());
        double correctRatio = correctPlatform.perOpMicros() / correctVirtual.perOpMicros();
        List<Reproduction> rows = new ArrayList<>();
        rows.add(new Reproduction("start+join one at a time, platform: new Thread, start, join", "001",
                String.format("%.0f µs/thread (252,143 ms for 1,000,000)", ARTICLE_PLATFORM_MS * 1e3 / ARTICLE_COUNT),
                model.platformMicros(), platform.microsPerThread(), "µs/thread",
                size + "; predicted = CPU per thread in the batched run + one measured hand-off round trip"));
        rows.add(new Reproduction("start+join one at a time, virtual: executor submit, get", "001",
                String.format("%.1f µs/thread (15,533 ms for 1,000,000)", ARTICLE_VIRTUAL_MS * 1e3 / ARTICLE_COUNT),
                model.virtualMicros(), virtual.microsPerThread(), "µs/thread",
                size + "; predicted = CPU per thread in the batched run + one measured hand-off round trip"));
        rows.add(new Reproduction("speed-up of the one-at-a-time loop, platform ÷ virtual", "001", "16.2×",
                model.ratio(), platform.microsPerThread() / virtual.microsPerThread(), "×",
                String.format("measured properly (start all, then join all, median) the ratio is %.0f×", correctRatio)));
        rows.add(new Reproduction("creation cost, platform thread (start all, then join all, median)", "001",
                "100–300 µs per thread", 200, correctPlatform.perOpMicros(), "µs/thread",
                "predicted = the article's mid-range; " + correctPlatform.method()));
        rows.add(new Reproduction("creation cost, virtual thread (start all, then join all, median)", "001",
                "about 10 µs per thread", 10, correctVirtual.perOpMicros(), "µs/thread",
                "predicted = the article's figure; " + correctVirtual.method()));
        if (parked != null) {
            rows.add(new Reproduction("heap per parked virtual thread (vs a platform stack reservation)", "001",
                    "platform threads reserve up to 1 MB; virtual threads grow as needed", Limits.BYTES_PER_VIRTUAL_THREAD,
                    parked.bytesPerThread(), "B/thread", String.format("%,d threads parked on a latch; predicted = at most "
                            + "2 KB; this JVM reserves %,d KB per platform thread", parked.count(), parked.stackKb())));
        }
        return rows;
    }

    /**
     * Runs article 001's experiments at {@code scale} (the parameters of {@link Params#of}) and returns their
     * rows for {@code ./course reproduce}.
     */
    public static List<Reproduction> reproduce(Scale scale) throws InterruptedException {
        Params p = Params.of(scale);
        Serial platform = serialPlatform(p.serialCount());
        Serial virtual = serialVirtual(p.serialCount());
        Serial handOff = handOff(p.serialCount());
        Measurement correctPlatform = startAllJoinAll(false, p.platformBatch(), p.warmups(), p.reps());
        Measurement correctVirtual = startAllJoinAll(true, p.virtualBatch(), p.warmups(), p.reps());
        ParkedHeap parked = parkedHeap(p.parked());
        return rows(platform, virtual, handOff, correctPlatform, correctVirtual, parked);
    }

    // ---------------------------------------------------------------- helpers

    private static void requireCount(int count) {
        if (count < 1) throw new IllegalArgumentException("a thread count must be at least 1, not " + count);
    }

    private static void joinUninterruptibly(Thread[] threads, int n) {
        boolean interrupted = false;
        for (int i = 0; i < n; i++) {
            while (true) {
                try {
                    threads[i].join();
                    break;
                } catch (InterruptedException again) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
