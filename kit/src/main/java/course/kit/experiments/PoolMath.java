package course.kit.experiments;

import course.kit.Band;
import course.kit.Check;
import course.kit.Format;
import course.kit.Recorder;
import course.kit.Reproduction;
import course.kit.RunResult;
import course.kit.Scale;
import course.kit.models.PoolModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executors;

/**
 * Notebook 03's experiment. The notebook's cells hold the executors and the submit loops; this class holds what
 * cells should not carry: the bands its timing checks use, the records of what the cells measured, and the rows of
 * {@code ./course reproduce}. Its charts and tables are {@link PoolMathViews}.
 *
 * <ul>
 *   <li><b>Waves</b> ({@link Batch}): N equal tasks of t on a fixed pool of P threads take ⌈N/P⌉·t
 *       ({@link PoolModel#batchTime}).</li>
 *   <li><b>Little's law</b> ({@link Loop}, {@link #loopBand}): L clients that call, wait W and call again complete
 *       λ = L / W calls per second ({@link PoolModel#littleThroughput}).</li>
 *   <li><b>Uneven tasks</b> ({@link Makespan}, {@link #makespanBand}): a list of task lengths on a FIFO pool,
 *       measured against a makespan predicted elsewhere (by hand, or by the learner's exercise). The kit holds no
 *       makespan algorithm: that is exercise 03.</li>
 *   <li><b>Article 002</b> ({@link #ARTICLE_002_CALLS}, {@link #reproduce}).</li>
 * </ul>
 */
public final class PoolMath {
    /** How often a timing check runs its experiment in all: {@link Check#TIMING_TRIES}. */
    public static final int MAX_TRIES = Check.TIMING_TRIES;

    /** Article 002's three remote calls. */
    public static final List<Duration> ARTICLE_002_CALLS =
            List.of(Duration.ofMillis(300), Duration.ofMillis(400), Duration.ofMillis(500));

    private PoolMath() {}

    // ------------------------------------------------------------------ models

    /** A prediction of a batch's time: N equal tasks of t on P threads ({@code PoolModel::batchTime}, or yours). */
    @FunctionalInterface
    public interface BatchModel {
        /** The predicted time of {@code tasks} tasks of {@code taskTime} on {@code poolSize} threads. */
        Duration time(int tasks, int poolSize, Duration taskTime);
    }

    /** A prediction of throughput from concurrency and latency ({@code PoolModel::littleThroughput}, or yours). */
    @FunctionalInterface
    public interface ThroughputModel {
        /** Tasks per second with {@code concurrency} in flight, each taking {@code latency}. */
        double perSecond(int concurrency, Duration latency);
    }

    /** Task lengths as multiples of {@code unit}: {@code units(ofMillis(50), 1, 1, 4)} = [50 ms, 50 ms, 200 ms]. */
    public static List<Duration> units(Duration unit, int... multiples) {
        Objects.requireNonNull(unit, "unit");
        if (unit.isNegative()) throw new IllegalArgumentException("unit cannot be negative: " + unit);
        var out = new ArrayList<Duration>(multiples.length);
        for (int m : multiples) {
            if (m < 0) throw new IllegalArgumentException("a task length cannot be negative: " + m);
            out.add(unit.multipliedBy(m));
        }
        return List.copyOf(out);
    }

    /**
     * The band for a closed loop: {@code clients} callers that each make {@code callsEach} calls of {@code latency}
     * one after another, all clients at once. The calls take {@code callsEach · latency} at least; on top come
     * {@link PoolModel#slack}'s allowances: one wave per call, and per thread either a platform thread per client
     * (a pool of {@code clients}) or, for virtual clients, one virtual-thread allowance per call, since every call
     * parks and wakes its virtual thread again, which is what the calibration of a virtual thread measures.
     */
    public static Band loopBand(int clients, int callsEach, Duration latency, boolean virtual) {
        if (clients < 1 || callsEach < 1) {
            throw new IllegalArgumentException(
                    "a loop needs at least 1 client and 1 call each: " + clients + ", " + callsEach);
        }
        requirePositive("latency", latency);
        if (!virtual) return PoolModel.band(clients * callsEach, clients, latency);
        double lo = latency.multipliedBy(callsEach).toNanos() / 1e6;
        double slack = PoolModel.slack(callsEach, 0, clients * callsEach).toNanos() / 1e6;
        return new Band(
                lo,
                lo + slack,
                "ms",
                String.format(
                        Locale.ROOT,
                        "%d calls × %s one after another, + up to %,.0f ms for %,d virtual threads parking and waking %d times",
                        callsEach,
                        Format.duration(latency),
                        slack,
                        clients,
                        callsEach));
    }

    /**
     * The band for a list of tasks on a FIFO pool of {@code workers}, given a predicted makespan: from the
     * prediction up to the prediction plus {@link PoolModel#slack} with one wave per task (a task that ends late
     * can change which worker takes the next one, so any task may sit on the longest chain) and one platform
     * thread per worker used.
     */
    public static Band makespanBand(Duration predicted, int tasks, int workers) {
        Objects.requireNonNull(predicted, "predicted");
        if (tasks < 0 || workers < 1)
            throw new IllegalArgumentException("tasks >= 0 and workers >= 1: " + tasks + ", " + workers);
        double lo = predicted.toNanos() / 1e6;
        double slack = PoolModel.slack(tasks, Math.min(tasks, workers), 0).toNanos() / 1e6;
        return new Band(
                lo,
                lo + slack,
                "ms",
                String.format(
                        Locale.ROOT,
                        "the predicted makespan, + up to %,.0f ms for %d late task ends and %d platform threads",
                        slack,
                        tasks,
                        Math.min(tasks, workers)));
    }

    // ------------------------------------------------------------------ what the cells measured

    /**
     * One batch of the sweep: {@code tasks} sleeps of {@code taskTime} on a fixed pool of {@code poolSize}.
     *
     * @param run what the cell measured
     */
    public record Batch(int tasks, int poolSize, Duration taskTime, RunResult run) {
        public Batch {
            Objects.requireNonNull(taskTime, "taskTime");
            Objects.requireNonNull(run, "run");
        }

        /** ⌈N/P⌉. */
        public int waves() {
            return PoolModel.waves(tasks, poolSize);
        }

        /** ⌈N/P⌉·t in ms. */
        public double predictedMillis() {
            return PoolModel.batchTime(tasks, poolSize, taskTime).toNanos() / 1e6;
        }
    }

    /**
     * One closed loop: {@code clients} callers on {@code executor} ("fixed pool of 20", "virtual threads"), each
     * making {@code callsEach} calls of {@code latency}.
     *
     * @param run what the cell measured (one record per call)
     */
    public record Loop(String executor, int clients, int callsEach, Duration latency, RunResult run) {
        public Loop {
            Objects.requireNonNull(executor, "executor");
            Objects.requireNonNull(latency, "latency");
            Objects.requireNonNull(run, "run");
        }

        /** Whether the calls ran on virtual threads. */
        public boolean virtual() {
            return run.count() > 0 && run.virtualTasks() == run.count();
        }

        /** L / W, with L = the clients. */
        public double predictedPerSecond() {
            return PoolModel.littleThroughput(clients, latency);
        }

        /** Calls completed per second of elapsed time. */
        public double measuredPerSecond() {
            return run.throughputPerSecond();
        }
    }

    /**
     * A list of tasks run on a fixed pool, with the makespan predicted for it.
     *
     * @param label     what the list is, for example "long task last"
     * @param taskTimes the tasks, in submission order
     * @param workers   the pool size
     * @param predicted the predicted makespan
     * @param run       what the cell measured
     */
    public record Makespan(String label, List<Duration> taskTimes, int workers, Duration predicted, RunResult run) {
        public Makespan {
            Objects.requireNonNull(label, "label");
            taskTimes = List.copyOf(taskTimes);
            Objects.requireNonNull(predicted, "predicted");
            Objects.requireNonNull(run, "run");
        }

        /** {@link #makespanBand} for this list. */
        public Band band() {
            return makespanBand(predicted, taskTimes.size(), workers);
        }

        /** Whether the measured makespan lies in {@link #band()}. */
        public boolean within() {
            return band().contains(run.elapsedMillis());
        }
    }

    // ------------------------------------------------------------------ reproduction

    /**
     * Article 002's three calls, as notebook 03's cells run them: one after another on the calling thread, then
     * each on its own virtual thread. The latencies are the article's at both scales (the pair takes under 2 s).
     */
    public static List<Reproduction> reproduce(Scale scale) throws InterruptedException {
        Objects.requireNonNull(scale, "scale");
        List<Duration> calls = ARTICLE_002_CALLS;
        double sum = calls.stream().mapToLong(Duration::toNanos).sum() / 1e6;
        double max = calls.stream().mapToLong(Duration::toNanos).max().orElseThrow() / 1e6;
        RunResult seq = oneAfterAnother(calls);
        RunResult par = onVirtualThreads(calls);
        String note =
                "calls of 300, 400 and 500 ms (the article's, at every scale); sequential = sum, parallel = longest";
        return List.of(
                new Reproduction(
                        "3 calls (300/400/500 ms) one after another",
                        "002",
                        "~1.2 s sequential",
                        sum,
                        seq.elapsedMillis(),
                        "ms",
                        note),
                new Reproduction(
                        "3 calls (300/400/500 ms) on virtual threads",
                        "002",
                        "~0.5 s parallel",
                        max,
                        par.elapsedMillis(),
                        "ms",
                        note));
    }

    /** The notebook's sequential cell: each call in turn, on the calling thread. */
    static RunResult oneAfterAnother(List<Duration> calls) {
        var rec = Recorder.start("one after another", calls.size());
        for (Duration d : calls) rec.task(() -> Thread.sleep(d)).run();
        return rec.stop();
    }

    /** The notebook's parallel cell: a virtual thread per call. */
    static RunResult onVirtualThreads(List<Duration> calls) {
        var rec = Recorder.start("a virtual thread per call", calls.size());
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Duration d : calls) executor.submit(rec.task(() -> Thread.sleep(d)));
        }
        return rec.stop();
    }

    // ------------------------------------------------------------------ helpers
    private static void requirePositive(String what, Duration d) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) throw new IllegalArgumentException(what + " must be positive, not " + d);
    }
}
