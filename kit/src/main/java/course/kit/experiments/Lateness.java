package course.kit.experiments;

import course.kit.Recorder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * An instrument for the carrier-starvation experiment: it notes, on one clock, when every sleep of the
 * sleeping ("I/O") threads was due and when it really woke, and when each CPU task started and ended.
 * Your cells make the threads and the executors; this only records.
 *
 * <pre>{@code
 * var log = Lateness.start("+ CPU on virtual threads");
 * // in each sleeper:  long due = System.nanoTime() + w.toNanos(); Thread.sleep(w); log.woke(due);
 * cpu.submit(log.cpuTask(() -> Tasks.burn(rounds)));     // a CPU task, its start and end noted
 * Lateness.Result r = log.stop();                        // after the executors are closed
 * }</pre>
 *
 * <p>Records made by a thread <i>happen-before</i> {@link #stop()} returns, provided that thread has ended
 * (an executor's {@code close()} before {@code stop()} ensures it).
 */
public final class Lateness {
    private final String name;
    private final long t0 = System.nanoTime();
    private final ConcurrentLinkedQueue<long[]> sleeps = new ConcurrentLinkedQueue<>(); // {due, woke}
    private final ConcurrentLinkedQueue<long[]> cpu = new ConcurrentLinkedQueue<>(); // {start, end, virtual}

    private Lateness(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /** Starts a log labelled {@code name}; its clock starts now. */
    public static Lateness start(String name) {
        return new Lateness(name);
    }

    /** Notes that a sleep due at {@code dueNanos} ({@link System#nanoTime()}) has just woken. */
    public void woke(long dueNanos) {
        sleeps.add(new long[] {dueNanos, System.nanoTime()});
    }

    /** Wraps a CPU task: its start and end (and whether it ran on a virtual thread) are noted; what it throws is rethrown unchecked. */
    public Runnable cpuTask(Recorder.Body body) {
        Objects.requireNonNull(body, "body");
        return () -> {
            long s = System.nanoTime();
            try {
                body.run();
            } catch (RuntimeException e) {
                throw e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return; // stopped: not a finished CPU task
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            cpu.add(new long[] {s, System.nanoTime(), Thread.currentThread().isVirtual() ? 1 : 0});
        };
    }

    /** What was noted, with times in milliseconds since {@link #start}. */
    public Result stop() {
        var sl = sleeps.stream()
                .filter(s -> s[0] >= t0)
                .sorted((a, b) -> Long.compare(a[0], b[0]))
                .toList();
        var c = cpu.stream().sorted((a, b) -> Long.compare(a[0], b[0])).toList();
        return new Result(
                name,
                sl.stream().mapToDouble(s -> (s[0] - t0) / 1e6).toArray(),
                sl.stream().mapToDouble(s -> (s[1] - s[0]) / 1e6).toArray(),
                c.stream().mapToDouble(x -> (x[0] - t0) / 1e6).toArray(),
                c.stream().mapToDouble(x -> (x[1] - t0) / 1e6).toArray(),
                (int) c.stream().filter(x -> x[2] == 1).count());
    }

    /**
     * What one scenario recorded (times in milliseconds since the log started).
     *
     * @param name        the scenario
     * @param dueMillis   per sleep: when it was due to wake
     * @param lateMillis  per sleep: how much later than due it woke
     * @param cpuStarts   per CPU task: when it started
     * @param cpuEnds     per CPU task: when it ended
     * @param cpuOnVirtual how many CPU tasks ran on virtual threads
     */
    public record Result(
            String name,
            double[] dueMillis,
            double[] lateMillis,
            double[] cpuStarts,
            double[] cpuEnds,
            int cpuOnVirtual) {
        /** How many sleeps were noted. */
        public int sleeps() {
            return lateMillis.length;
        }

        /** How many CPU tasks ran to their end. */
        public int cpuTasks() {
            return cpuStarts.length;
        }

        /**
         * The stretch when every CPU task was running, {@code {last start, first end}}: with one CPU task per
         * carrier, every carrier was busy computing. {@code null} when there were no CPU tasks or they never all
         * ran at once.
         */
        public double[] allCpuRunning() {
            if (cpuStarts.length == 0) return null;
            double from = Arrays.stream(cpuStarts).max().orElseThrow();
            double to = Arrays.stream(cpuEnds).min().orElseThrow();
            return from < to ? new double[] {from, to} : null;
        }

        /** The length of {@link #allCpuRunning()}, 0 when there is none. */
        public double allCpuRunningMillis() {
            double[] w = allCpuRunning();
            return w == null ? 0 : w[1] - w[0];
        }

        /**
         * The lateness of the sleeps that were waiting while every CPU task ran: due before the first CPU task
         * ended, and woken after the last one started (every sleep when no CPU task ran). With one CPU task per
         * carrier, these are the sleeps that CPU work could hold up.
         */
        public double[] lateWhileCpuRan() {
            if (cpuStarts.length == 0) return lateMillis.clone();
            double[] w = allCpuRunning();
            if (w == null) return new double[0];
            var out = new ArrayList<Double>();
            for (int i = 0; i < dueMillis.length; i++) {
                if (dueMillis[i] < w[1] && dueMillis[i] + lateMillis[i] >= w[0]) out.add(lateMillis[i]);
            }
            return out.stream().mapToDouble(Double::doubleValue).toArray();
        }

        /**
         * How many sleeps woke while every CPU task was running, between the last start and the first end. None
         * can, if CPU work keeps its carrier: a sleeper notes its wake-up on a carrier, and every carrier was busy.
         */
        public int wokeWhileCpuRan() {
            double[] w = allCpuRunning();
            if (w == null) return 0;
            int n = 0;
            for (int i = 0; i < dueMillis.length; i++) {
                double woke = dueMillis[i] + lateMillis[i];
                if (woke >= w[0] && woke < w[1]) n++;
            }
            return n;
        }

        /** The median of {@link #lateWhileCpuRan()} (NaN when there are none). */
        public double medianLateWhileCpuRan() {
            return quantile(lateWhileCpuRan(), 0.5);
        }

        /** The q-quantile of every sleep's lateness (nearest rank); NaN when there are none. */
        public double lateQuantile(double q) {
            return quantile(lateMillis, q);
        }

        /** The largest lateness (NaN when there are no sleeps). */
        public double maxLate() {
            return Arrays.stream(lateMillis).max().orElse(Double.NaN);
        }

        /** The shortest CPU task's wall time (NaN when there were none). */
        public double shortestCpuTask() {
            double m = Double.NaN;
            for (int i = 0; i < cpuStarts.length; i++)
                m = Double.isNaN(m) ? cpuEnds[i] - cpuStarts[i] : Math.min(m, cpuEnds[i] - cpuStarts[i]);
            return m;
        }

        /** One line: sleeps, CPU tasks, the stretch when all ran, the median lateness then. */
        @Override
        public String toString() {
            return String.format(
                    java.util.Locale.ROOT,
                    "%s: %d sleeps, %d CPU tasks (%d on virtual threads), all running "
                            + "for %.0f ms; median lateness of the %d sleeps waiting then %.1f ms, woken while every CPU task ran: %d",
                    name,
                    sleeps(),
                    cpuTasks(),
                    cpuOnVirtual,
                    allCpuRunningMillis(),
                    lateWhileCpuRan().length,
                    medianLateWhileCpuRan(),
                    wokeWhileCpuRan());
        }
    }

    /** The q-quantile of {@code v} (nearest rank); NaN when empty. */
    public static double quantile(double[] v, double q) {
        if (q < 0 || q > 1) throw new IllegalArgumentException("q must be in [0, 1]: " + q);
        if (v.length == 0) return Double.NaN;
        double[] s = v.clone();
        Arrays.sort(s);
        int i = (int) Math.ceil(q * s.length) - 1;
        return s[Math.max(0, Math.min(s.length - 1, i))];
    }
}
