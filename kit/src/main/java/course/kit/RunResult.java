package course.kit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

/**
 * What one run of N tasks on one executor measured: the elapsed wall time (from creating the executor to
 * its close), and per task its start, end and thread. Everything else (peak concurrency, throughput, the
 * charts' series) is derived from those records.
 */
public final class RunResult {
    private final String name;
    private final String pool;
    private final long elapsedNanos;
    private final long[] starts;
    private final long[] ends;
    private final long[] threadIds;
    private final boolean[] virtual;
    private final String[] failures;
    private final Map<Long, String> threadNames;

    RunResult(
            String name,
            String pool,
            long elapsedNanos,
            long[] starts,
            long[] ends,
            long[] threadIds,
            boolean[] virtual,
            String[] failures,
            Map<Long, String> threadNames) {
        this.name = name;
        this.pool = pool;
        this.elapsedNanos = elapsedNanos;
        this.starts = starts;
        this.ends = ends;
        this.threadIds = threadIds;
        this.virtual = virtual;
        this.failures = failures;
        this.threadNames = threadNames;
    }

    /** The run's label, as charts and tables show it. */
    public String name() {
        return name;
    }

    /** The executor's description, for example "fixed pool of 200". */
    public String pool() {
        return pool;
    }

    /** How many tasks were submitted. */
    public int count() {
        return starts.length;
    }

    /** How many tasks ran (started); fewer than {@link #count()} only when the run was cut short. */
    public int started() {
        return (int) Arrays.stream(starts).filter(s -> s >= 0).count();
    }

    /** Wall time from creating the executor to the return of its {@code close()}. */
    public Duration elapsed() {
        return Duration.ofNanos(elapsedNanos);
    }

    /** {@link #elapsed()} in milliseconds. */
    public double elapsedMillis() {
        return elapsedNanos / 1e6;
    }

    /** {@link #elapsed()} in seconds. */
    public double elapsedSeconds() {
        return elapsedNanos / 1e9;
    }

    /** Tasks completed per second of elapsed time. */
    public double throughputPerSecond() {
        return elapsedNanos == 0 ? 0 : count() / (elapsedNanos / 1e9);
    }

    /** How many tasks threw. */
    public int failed() {
        return failures == null
                ? 0
                : (int) Arrays.stream(failures).filter(f -> f != null).count();
    }

    /** How many tasks ran on virtual threads. */
    public int virtualTasks() {
        int n = 0;
        for (boolean v : virtual) if (v) n++;
        return n;
    }

    /** How many distinct threads ran the tasks. */
    public int threadsUsed() {
        return (int) LongStream.of(threadIds).filter(id -> id != 0).distinct().count();
    }

    /** The highest number of tasks that were running at the same moment (a sweep over starts and ends). */
    public int peakConcurrency() {
        long[] s = Arrays.stream(starts).filter(x -> x >= 0).sorted().toArray();
        long[] e = Arrays.stream(ends).filter(x -> x >= 0).sorted().toArray();
        int i = 0, j = 0, now = 0, peak = 0;
        while (i < s.length) {
            if (j < e.length && e[j] <= s[i]) {
                now--;
                j++;
            } else {
                now++;
                i++;
                peak = Math.max(peak, now);
            }
        }
        return peak;
    }

    /** Nanoseconds from the run's start until the last task started: how long submitting and starting took. */
    public long lastStartNanos() {
        return Arrays.stream(starts).max().orElse(0);
    }

    /** The records of every task that started, in submission order. */
    public List<TaskRecord> records() {
        var out = new ArrayList<TaskRecord>(count());
        for (int i = 0; i < count(); i++) {
            if (starts[i] < 0) continue;
            String t = threadNames.getOrDefault(threadIds[i], "#" + threadIds[i]);
            out.add(new TaskRecord(i, starts[i], ends[i], virtual[i], t, failures == null ? null : failures[i]));
        }
        return out;
    }

    /** Start nanos per task (-1 where a task never started); a copy. */
    public long[] startNanos() {
        return starts.clone();
    }

    /** End nanos per task (-1 where a task never ended); a copy. */
    public long[] endNanos() {
        return ends.clone();
    }

    /**
     * The number of tasks in flight over time, as {@code {seconds[], inFlight[]}} sampled at {@code points}
     * evenly spaced instants from 0 to the elapsed time.
     */
    public double[][] inFlightOverTime(int points) {
        return countOverTime(starts, ends, elapsedNanos, points);
    }

    /**
     * How many intervals {@code [starts[i], ends[i])} (nanoseconds; -1 = absent) are open over time, as
     * {@code {seconds[], open[]}} sampled at {@code points} evenly spaced instants from 0 to {@code spanNanos}.
     */
    public static double[][] countOverTime(long[] starts, long[] ends, long spanNanos, int points) {
        if (points < 2) throw new IllegalArgumentException("points must be >= 2");
        long elapsedNanos = spanNanos;
        long[] s = Arrays.stream(starts).filter(x -> x >= 0).sorted().toArray();
        long[] e = Arrays.stream(ends).filter(x -> x >= 0).sorted().toArray();
        double[] xs = new double[points], ys = new double[points];
        int i = 0, j = 0;
        for (int p = 0; p < points; p++) {
            long t = elapsedNanos * p / (points - 1);
            while (i < s.length && s[i] <= t) i++;
            while (j < e.length && e[j] <= t) j++;
            xs[p] = t / 1e9;
            ys[p] = i - j;
        }
        return new double[][] {xs, ys};
    }

    /** One line: name, tasks, elapsed, peak concurrency, threads, throughput. */
    @Override
    public String toString() {
        return String.format(
                "%s: %,d tasks on %s in %,.0f ms — peak %,d at once on %,d %s threads, %,.0f tasks/s%s",
                name,
                count(),
                pool,
                elapsedMillis(),
                peakConcurrency(),
                threadsUsed(),
                virtualTasks() == count() ? "virtual" : virtualTasks() == 0 ? "platform" : "mixed",
                throughputPerSecond(),
                failed() > 0 ? String.format(" (%,d failed)", failed()) : "");
    }
}
