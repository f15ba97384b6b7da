package course.kit.models;

import course.kit.Prediction;
import java.time.Duration;
import java.util.Objects;

/**
 * Notebook 08's predictions: a service of {@code slots} threads, or virtual threads, in front of a downstream that
 * takes {@code limit} calls at once, each request one call of {@code t}, under {@code clients} closed-loop clients.
 */
public final class HttpModel {
    private HttpModel() {}

    /** Requests per second, by Little's law: {@code min(C, slots) / t}. */
    public static double throughput(int clients, int slots, Duration t) {
        requireLoop(clients, slots, t);
        return Math.min(clients, slots) * 1e9 / t.toNanos();
    }

    /** Latency in ms of a closed loop of {@code clients}: {@code C / λ = max(t, C·t/slots)}. */
    public static double latencyMillis(int clients, int slots, Duration t) {
        requireLoop(clients, slots, t);
        return Math.max(1.0, (double) clients / slots) * t.toNanos() / 1e6;
    }

    /** Throws unless a closed loop of {@code clients} on {@code slots} places held {@code t} each makes sense. */
    public static void requireLoop(int clients, int slots, Duration t) {
        if (clients < 1 || slots < 1)
            throw new IllegalArgumentException("clients and slots must be positive: " + clients + ", " + slots);
        if (Objects.requireNonNull(t, "t").isNegative() || t.isZero())
            throw new IllegalArgumentException("t must be positive: " + t);
    }

    private static Duration ms(double millis) {
        return Duration.ofNanos((long) (millis * 1e6));
    }

    /** Throughput on a pool of {@code slots}: min(C, slots) / t. */
    public static Prediction.Model poolThroughput(int clients, int slots, int limit, Duration t) {
        double ms = t.toNanos() / 1e6;
        return Prediction.Model.of("min(C, slots) / t", throughput(clients, slots, t), "requests/s")
                .ifNear(
                        clients * 1e3 / ms,
                        "C / t, every client served at once: the pool runs at most " + slots + " requests at a time")
                .ifNear(
                        limit * 1e3 / ms,
                        "L / t, the downstream's limit: the pool's " + slots + " threads run out first")
                .ifNear(1e3 / ms, "1 / t, one request at a time: the pool serves " + slots + " at once");
    }

    /** The 99th percentile of latency on a pool of {@code slots}: C · t / slots. */
    public static Prediction.Model poolP99(int clients, int slots, int limit, Duration t) {
        return Prediction.Model.of("C · t / slots", ms(latencyMillis(clients, slots, t)))
                .ifNear(
                        t,
                        "t alone, no queue: " + clients + " clients share " + slots
                                + " threads, so a request waits its turn, C / slots waves of t")
                .ifNear(t.multipliedBy(clients), "C · t, one request at a time: the pool serves " + slots + " at once")
                .ifNear(
                        ms(latencyMillis(clients, limit, t)),
                        "C · t / L, the downstream's limit: the pool's " + slots + " threads run out first");
    }

    /** Throughput on virtual threads: min(C, L) / t, the downstream's limit. */
    public static Prediction.Model virtualThroughput(int clients, int slots, int limit, Duration t) {
        return Prediction.Model.of("min(C, L) / t", throughput(clients, limit, t), "requests/s")
                .ifNear(
                        clients * 1e3 / (t.toNanos() / 1e6),
                        "C / t, no limit at all: the downstream still takes at most L = " + limit + " calls at once")
                .ifNear(
                        throughput(clients, slots, t),
                        "slots / t, the pool's limit: virtual threads have none, the next one is the downstream's L");
    }

    /** The handler's p99 behind a {@code Semaphore} that waits at most {@code maxWait} for a permit: t + maxWait. */
    public static Prediction.Model shed(int clients, int limit, Duration t, Duration maxWait) {
        return Prediction.Model.of("t + maxWait", t.plus(maxWait))
                .ifNear(
                        ms(latencyMillis(clients, limit, t)),
                        "C · t / L, section 3's queue: a request waits at most maxWait for a permit, then gets its 503")
                .ifNear(maxWait, "maxWait alone: a request that gets its permit then holds it for one call of t");
    }
}
