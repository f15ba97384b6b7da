package course.kit.models;

import course.kit.Prediction;
import course.kit.experiments.HttpService;
import java.time.Duration;

/**
 * Notebook 08's predictions: a service of {@code slots} threads, or virtual threads, in front of a downstream that
 * takes {@code limit} calls at once, each request one call of {@code t}, under {@code clients} closed-loop clients.
 */
public final class HttpModel {
    private HttpModel() {}

    private static Duration ms(double millis) {
        return Duration.ofNanos((long) (millis * 1e6));
    }

    /** Throughput on a pool of {@code slots}: min(C, slots) / t. */
    public static Prediction.Model poolThroughput(int clients, int slots, int limit, Duration t) {
        double ms = t.toNanos() / 1e6;
        return Prediction.Model.of("min(C, slots) / t", HttpService.throughput(clients, slots, t), "requests/s")
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
        return Prediction.Model.of("C · t / slots", ms(HttpService.latencyMillis(clients, slots, t)))
                .ifNear(
                        t,
                        "t alone, no queue: " + clients + " clients share " + slots
                                + " threads, so a request waits its turn, C / slots waves of t")
                .ifNear(t.multipliedBy(clients), "C · t, one request at a time: the pool serves " + slots + " at once")
                .ifNear(
                        ms(HttpService.latencyMillis(clients, limit, t)),
                        "C · t / L, the downstream's limit: the pool's " + slots + " threads run out first");
    }

    /** Throughput on virtual threads: min(C, L) / t, the downstream's limit. */
    public static Prediction.Model virtualThroughput(int clients, int slots, int limit, Duration t) {
        return Prediction.Model.of("min(C, L) / t", HttpService.throughput(clients, limit, t), "requests/s")
                .ifNear(
                        clients * 1e3 / (t.toNanos() / 1e6),
                        "C / t, no limit at all: the downstream still takes at most L = " + limit + " calls at once")
                .ifNear(
                        HttpService.throughput(clients, slots, t),
                        "slots / t, the pool's limit: virtual threads have none, the next one is the downstream's L");
    }

    /** The handler's p99 behind a {@code Semaphore} that waits at most {@code maxWait} for a permit: t + maxWait. */
    public static Prediction.Model shed(int clients, int limit, Duration t, Duration maxWait) {
        return Prediction.Model.of("t + maxWait", t.plus(maxWait))
                .ifNear(
                        ms(HttpService.latencyMillis(clients, limit, t)),
                        "C · t / L, section 3's queue: a request waits at most maxWait for a permit, then gets its 503")
                .ifNear(maxWait, "maxWait alone: a request that gets its permit then holds it for one call of t");
    }
}
