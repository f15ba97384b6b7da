package course.kit.experiments;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Notebook 08's server-side instrument: counts the requests inside a handler, the most at once (each one holds
 * its own thread there, so this is the number of threads the server used for requests at once), and the kind of
 * those threads. One meter per server run.
 *
 * <pre>{@code
 * try (var visit = meter.enter()) {          // in the handler
 *     String row = downstream(visit.id());
 *     ...
 * }
 * }</pre>
 */
public final class HandlerMeter {
    private final AtomicInteger inside = new AtomicInteger(), peak = new AtomicInteger(), ids = new AtomicInteger();
    private final LongAdder onVirtual = new LongAdder(), onPlatform = new LongAdder();
    private final Object timesLock = new Object();
    private long[] enters = new long[1024], durations = new long[1024];
    private int timed;

    /** One request inside the handler: closing it marks its exit. */
    public final class Visit implements AutoCloseable {
        private final int id;
        private final long entered = System.nanoTime();
        private boolean closed;

        private Visit(int id) {
            this.id = id;
        }

        /** This request's number, 0, 1, 2, … in the order requests entered the handler. */
        public int id() {
            return id;
        }

        @Override
        public void close() {
            if (closed) return;
            closed = true;
            inside.decrementAndGet();
            record(entered, System.nanoTime() - entered);
        }
    }

    /** Marks a request entering the handler on the calling thread. */
    public Visit enter() {
        peak.accumulateAndGet(inside.incrementAndGet(), Math::max);
        (Thread.currentThread().isVirtual() ? onVirtual : onPlatform).increment();
        return new Visit(ids.getAndIncrement());
    }

    private void record(long enteredAt, long nanos) {
        synchronized (timesLock) {
            if (timed == enters.length) {
                enters = java.util.Arrays.copyOf(enters, 2 * timed);
                durations = java.util.Arrays.copyOf(durations, 2 * timed);
            }
            enters[timed] = enteredAt;
            durations[timed++] = nanos;
        }
    }

    /**
     * The {@code q} quantile (nearest rank), in ms, of how long the requests that entered the handler in
     * [{@code from}, {@code to}) ({@link System#nanoTime} values) stayed in it: the server's own share of a
     * request's latency, without the time it waited in the client, in the kernel's socket queues or for a thread.
     * NaN when none did.
     */
    public double quantileMillis(double q, long from, long to) {
        long[] in;
        int n = 0;
        synchronized (timesLock) {
            in = new long[timed];
            for (int i = 0; i < timed; i++) if (enters[i] >= from && enters[i] < to) in[n++] = durations[i];
        }
        return percentile(in, n, q);
    }

    /** Requests inside the handler now. */
    public int inside() {
        return inside.get();
    }

    /** The most requests that were inside the handler at once: the threads the server used for them at once. */
    public int peak() {
        return peak.get();
    }

    /** Requests that entered the handler. */
    public int entered() {
        return ids.get();
    }

    /** "virtual", "platform", "mixed", or "none" when no request entered. */
    public String threadKind() {
        long v = onVirtual.sum(), p = onPlatform.sum();
        return v + p == 0 ? "none" : p == 0 ? "virtual" : v == 0 ? "platform" : "mixed";
    }

    /** The {@code q} quantile (nearest rank) of the first {@code n} values, in ms; NaN when n is 0. */
    static double percentile(long[] nanos, int n, double q) {
        if (n == 0) return Double.NaN;
        long[] v = Arrays.copyOf(nanos, n);
        Arrays.sort(v);
        int rank = (int) Math.ceil(q * n);
        return v[Math.max(0, Math.min(n - 1, rank - 1))] / 1e6;
    }
}
