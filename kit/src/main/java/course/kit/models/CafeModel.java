package course.kit.models;

import course.kit.Prediction;
import java.time.Duration;

/** Notebook 02's predictions: the café on a fixed pool, on virtual threads, and on a pool of 1,000. */
public final class CafeModel {
    private CafeModel() {}

    /** {@code customers} brews of {@code brew} on a fixed pool of {@code baristas}: ⌈N/P⌉ · t. */
    public static Prediction.Model pool(int customers, int baristas, Duration brew, int cores) {
        return Prediction.Model.of("⌈N/P⌉ · t", PoolModel.batchTime(customers, baristas, brew))
                .ifNear(
                        brew,
                        "one wave, t: the pool lets only P customers wait at once, so N customers need ⌈N/P⌉ waves")
                .ifNear(brew.multipliedBy(customers), "N · t, one customer at a time: P baristas brew at once")
                .ifNear(
                        PoolModel.batchTime(customers, cores, brew),
                        "⌈N/cores⌉ · t: a sleeping thread needs no core, so all P baristas sleep at once on a few cores");
    }

    /**
     * A virtual thread per customer: one brew plus {@code started}, the time it took to start them all (S).
     *
     * @param started S, measured: when the last customer's thread started
     */
    public static Prediction.Model virtual(int customers, int baristas, Duration brew, int cores, Duration started) {
        return Prediction.Model.of("t + S, with S measured", brew.plus(started))
                .ifNear(
                        brew,
                        "one wave, t: right about the wave; what is left is S, the time to start N virtual threads")
                .ifNear(
                        PoolModel.batchTime(customers, baristas, brew),
                        "⌈N/P⌉ · t, the pool's waves: a virtual thread per customer has no pool to queue for")
                .ifNear(
                        PoolModel.batchTime(customers, cores, brew),
                        "⌈N/cores⌉ · t, as if each carrier slept with its virtual thread: a sleeping virtual thread"
                                + " leaves its carrier")
                .ifNear(brew.multipliedBy(customers), "N · t, one customer at a time: all N sleeps overlap");
    }

    /**
     * {@code customers} tasks of {@code task} on a fixed pool of {@code poolSize}, whose OS threads cost
     * {@code perThread} each to start and retire: ⌈N/P⌉ · t + P · c.
     */
    public static Prediction.Model bigPool(int customers, int poolSize, Duration task, int cores, Duration perThread) {
        Duration waves = PoolModel.batchTime(customers, poolSize, task);
        return Prediction.Model.of("⌈N/P⌉ · t + P · c", waves.plus(perThread.multipliedBy(poolSize)))
                .ifNear(
                        waves,
                        String.format(
                                "⌈N/P⌉ · t alone: right about the waves, but the start-up cost is forgotten: %,d OS"
                                        + " threads to start and retire",
                                poolSize))
                .ifNear(task, String.format("one wave, t: %,d threads still leave ⌈N/P⌉ waves", poolSize))
                .ifNear(PoolModel.batchTime(customers, cores, task), "⌈N/cores⌉ · t: a sleeping thread needs no core")
                .ifNear(
                        task.multipliedBy(customers),
                        String.format("N · t, one task at a time: %,d threads sleep at once", poolSize));
    }
}
