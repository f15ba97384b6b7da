package course.kit.experiments;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Notebook 08's client-side instrument for a closed-loop load: each of C clients sends its next request when
 * the previous one returns, for a warm-up and then a measuring window, and no more than a fixed number of
 * requests in all. It times each exchange and sorts its outcome (answered, turned away with 503, error status,
 * time-out, refused connection). It only ever targets a loopback address.
 *
 * <pre>{@code
 * var rec = LoadRecorder.start("pool of 200", target, clients, warmUp, window, maxRequests);
 * ... each client: while (rec.more()) rec.exchange(() -> http.send(request, discarding()).statusCode());
 * LoadResult r = rec.stop(meter);
 * }</pre>
 */
public final class LoadRecorder {
    /** One request and its answer's status code. */
    @FunctionalInterface
    public interface Exchange {
        /** Sends the request and returns the answer's status code. */
        int send() throws IOException, InterruptedException;
    }

    static final byte OK = 1, SHED = 2, ERROR = 3, TIMEOUT = 4, REFUSED = 5;

    private final String name;
    private final int clients;
    private final long t0, measureFrom, measureTo, maxRequests;
    private final long[] starts, ends;
    private final byte[] outcomes;
    private final AtomicInteger issued = new AtomicInteger();
    private final AtomicLong spentAt = new AtomicLong(Long.MAX_VALUE);
    private final course.kit.GcPauses gc; // listens from start() to stop()

    private LoadRecorder(String name, int clients, Duration warmUp, Duration window, int maxRequests) {
        this.name = name;
        this.clients = clients;
        this.maxRequests = maxRequests;
        this.starts = new long[maxRequests];
        this.ends = new long[maxRequests];
        this.outcomes = new byte[maxRequests];
        this.t0 = System.nanoTime();
        this.measureFrom = t0 + warmUp.toNanos();
        this.measureTo = measureFrom + window.toNanos();
        this.gc = course.kit.GcPauses.listen();
    }

    /**
     * Starts recording a load of {@code clients} clients against {@code target}: a warm-up, then a measuring
     * window, with at most {@code maxRequests} requests in all.
     *
     * @throws IllegalArgumentException if {@code target}'s host is not a loopback address, or a count or a
     *                                  duration is out of range
     */
    public static LoadRecorder start(
            String name, URI target, int clients, Duration warmUp, Duration window, int maxRequests) {
        requireLoopback(target);
        if (clients < 1) throw new IllegalArgumentException("at least 1 client, not " + clients);
        if (maxRequests < clients)
            throw new IllegalArgumentException("maxRequests " + maxRequests + " < clients " + clients);
        requireSockets(clients);
        if (Objects.requireNonNull(warmUp, "warmUp").isNegative())
            throw new IllegalArgumentException("negative warm-up");
        if (Objects.requireNonNull(window, "window").isNegative() || window.isZero()) {
            throw new IllegalArgumentException("the measuring window must be positive, not " + window);
        }
        return new LoadRecorder(Objects.requireNonNull(name, "name"), clients, warmUp, window, maxRequests);
    }

    /** @throws IllegalArgumentException unless {@code target} is an http URI whose host is a loopback address */
    public static void requireLoopback(URI target) {
        Objects.requireNonNull(target, "target");
        String host = target.getHost();
        boolean loopback = false;
        try {
            loopback = host != null
                    && "http".equals(target.getScheme())
                    && InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            loopback = false;
        }
        if (!loopback) {
            throw new IllegalArgumentException("the course's load generator only targets http:// on a loopback address "
                    + "(127.0.0.1, ::1), not " + target);
        }
    }

    /** File descriptors a loopback connection takes in this JVM: the client's socket and the server's. */
    static final int FDS_PER_CLIENT = 2;

    /**
     * @throws IllegalStateException if this JVM cannot open another {@code 2 · clients} file descriptors (each
     *                               client's connection is two sockets here, one on each side), with the limit
     *                               and what to do; on a JVM that does not report its limit, nothing is checked
     */
    public static void requireSockets(int clients) {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            long free = unix.getMaxFileDescriptorCount() - unix.getOpenFileDescriptorCount();
            long need = (long) FDS_PER_CLIENT * clients + 256; // and some for the server's selectors, jars, logs
            if (free < need) {
                throw new IllegalStateException(String.format(
                        java.util.Locale.ROOT,
                        "%,d clients on loopback need about %,d file descriptors; this JVM has %,d free of %,d "
                                + "(raise `ulimit -n` before starting Jupyter, or run at the quick scale)",
                        clients,
                        need,
                        free,
                        unix.getMaxFileDescriptorCount()));
            }
        }
    }

    /** True while the run goes on: the window has not ended, requests are left, and this thread is not interrupted. */
    public boolean more() {
        if (Thread.currentThread().isInterrupted()) return false;
        long now = System.nanoTime();
        return now < measureTo && issued.get() < maxRequests;
    }

    /**
     * How long the measuring window still runs, in ms (0 once it has ended): a client that waits before its next
     * request (a back-off after a 503) waits no longer than this, so that the run ends with its window.
     */
    public long millisLeft() {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(measureTo - System.nanoTime()));
    }

    /**
     * Sends one request through {@code exchange}, timing it and recording its outcome.
     *
     * @return the answer's status code, or -1 when there was no answer (time-out, refused, I/O error) or no
     *         request was left to send
     * @throws InterruptedException if the client is interrupted (nothing is recorded for that request)
     */
    public int exchange(Exchange exchange) throws InterruptedException {
        int i = issued.getAndIncrement();
        if (i >= maxRequests) {
            spentAt.compareAndSet(Long.MAX_VALUE, System.nanoTime());
            return -1;
        }
        long start = System.nanoTime();
        int status = -1;
        byte outcome;
        try {
            status = exchange.send();
            outcome = status >= 200 && status < 300 ? OK : status == 503 ? SHED : ERROR;
        } catch (HttpTimeoutException e) {
            outcome = TIMEOUT;
        } catch (IOException e) {
            outcome = refused(e) ? REFUSED : ERROR;
        } catch (RuntimeException e) {
            outcome = ERROR;
        }
        ends[i] = System.nanoTime();
        starts[i] = start;
        outcomes[i] = outcome; // written last; stop() reads after the clients have ended
        if (i == maxRequests - 1) spentAt.compareAndSet(Long.MAX_VALUE, ends[i]);
        return status;
    }

    private static boolean refused(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof ConnectException) return true;
        }
        return false;
    }

    /** Requests sent so far. */
    public int requests() {
        return (int) Math.min(issued.get(), maxRequests);
    }

    /** The figures of the run; call it after every client has ended. {@code meter} is the server's. */
    public LoadResult stop(HandlerMeter meter) {
        Objects.requireNonNull(meter, "meter");
        gc.close();
        int n = requests();
        long to = Math.min(measureTo, spentAt.get());
        long answered = 0, ok = 0, shed = 0, errors = 0, timeouts = 0, refused = 0, okInWindow = 0;
        long[] latencies = new long[n], okLatencies = new long[n];
        int nl = 0, nok = 0;
        for (int i = 0; i < n; i++) {
            byte o = outcomes[i];
            if (o == 0) continue; // interrupted before it was recorded
            if (o == OK && ends[i] >= measureFrom && ends[i] < to) okInWindow++;
            if (starts[i] < measureFrom || starts[i] >= to) continue;
            switch (o) {
                case OK -> {
                    ok++;
                    answered++;
                    latencies[nl++] = ends[i] - starts[i];
                    okLatencies[nok++] = ends[i] - starts[i];
                }
                case SHED -> {
                    shed++;
                    answered++;
                    latencies[nl++] = ends[i] - starts[i];
                }
                case ERROR -> errors++;
                case TIMEOUT -> timeouts++;
                default -> refused++;
            }
        }
        double windowMillis = Math.max(0, to - measureFrom) / 1e6;
        double throughput = windowMillis <= 0 ? 0 : okInWindow * 1_000.0 / windowMillis;
        return new LoadResult(
                name,
                clients,
                windowMillis,
                new LoadResult.Answers(answered, ok, shed, errors, timeouts, refused),
                throughput,
                HandlerMeter.percentile(latencies, nl, 0.50),
                HandlerMeter.percentile(latencies, nl, 0.99),
                HandlerMeter.percentile(okLatencies, nok, 0.99),
                n,
                meter.peak(),
                meter.threadKind(),
                meter.quantileMillis(0.99, measureFrom, to),
                gc.pausesBetween(measureFrom, to));
    }
}
