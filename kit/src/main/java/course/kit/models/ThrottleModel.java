package course.kit.models;

import course.kit.Format;
import course.kit.Prediction;
import java.time.Duration;

/** Notebook 05's predictions: calls behind a {@code Semaphore} of as many permits as the pool has connections. */
public final class ThrottleModel {
    private ThrottleModel() {}

    /** {@code calls} calls holding a connection for {@code hold}, behind {@code limit} permits: ⌈N/limit⌉ · t. */
    public static Prediction.Model elapsed(int calls, int limit, Duration hold, int cores) {
        return Prediction.Model.of("⌈N/" + limit + "⌉ · t", PoolModel.batchTime(calls, limit, hold))
                .ifNear(
                        hold,
                        "one wave, t: the permits forgotten; only " + limit + " calls hold one at a time, so N calls"
                                + " take ⌈N/" + limit + "⌉ waves")
                .ifNear(
                        hold.multipliedBy(calls),
                        "N · t, one call at a time: " + limit + " permits let " + limit + " calls run at once")
                .ifNear(
                        PoolModel.batchTime(calls, cores, hold),
                        "⌈N/cores⌉ · t: a call waiting for the database holds no core")
                .ifNear(
                        PoolModel.batchTime(calls, 2 * limit, hold),
                        "⌈N/" + 2 * limit + "⌉ · t, permits and connections added: each call needs both, and the same "
                                + limit + " calls hold them");
    }

    /** The most calls in flight at once behind {@code limit} permits and as many connections. */
    public static Prediction.Model peak(int calls, int limit, int cores) {
        return Prediction.Model.of("min(permits, connections)", limit, "calls")
                .ifNear(
                        calls,
                        "N, every call at once: the permits forgotten; a call waits in acquire() until one is free")
                .ifNear(cores, "the cores: a call waiting for the database holds no core")
                .ifNear(
                        2 * limit,
                        "permits + connections: each call needs both, and the same " + limit + " calls hold them");
    }

    /** Calls per second behind {@code limit} permits, each call taking {@code t}: permits / t. */
    public static Prediction.Model rate(int limit, Duration t) {
        double ms = t.toNanos() / 1e6;
        return Prediction.Model.of(
                        "permits / t = " + limit + " / " + Format.duration(t), limit * 1000.0 / ms, "calls/s")
                .ifNear(
                        limit,
                        limit + " per second is a rate limit; a Semaphore(" + limit + ") limits calls at once, and"
                                + " each permit comes back after t")
                .ifNear(
                        1000.0 / ms,
                        "1/t, one call at a time: " + limit + " permits let " + limit + " calls run at once");
    }
}
