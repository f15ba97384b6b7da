package course.kit.models;

import course.kit.Prediction;
import java.time.Duration;

/** Notebook 03's predictions: waves, Little's law, and uneven tasks on a FIFO pool. */
public final class FixedPoolModel {
    private FixedPoolModel() {}

    /** {@code n} tasks of {@code t} on a fixed pool of {@code p}: ⌈N/P⌉ · t. */
    public static Prediction.Model waves(int n, int p, Duration t) {
        return Prediction.Model.of("⌈N/P⌉ · t", PoolModel.batchTime(n, p, t))
                .ifNear(
                        t,
                        "one wave: " + p + " threads take " + p + " tasks, and the others wait for one of them to end")
                .ifNear(
                        t.multipliedBy(n).dividedBy(p),
                        "N/P · t, the ceiling left out: the last, partial wave costs a whole t")
                .ifNear(t.multipliedBy(n), "N · t, one task at a time: " + p + " threads sleep at once");
    }

    /**
     * {@code clients} virtual clients in a closed loop, each call waiting {@code w}: λ = L / W.
     *
     * @param largestPool the largest fixed pool of the same loop
     */
    public static Prediction.Model little(int clients, Duration w, int cores, int largestPool) {
        return Prediction.Model.of("λ = L / W", PoolModel.littleThroughput(clients, w), "calls/s")
                .ifNear(
                        PoolModel.littleThroughput(cores, w),
                        "cores ÷ W: a waiting call holds neither a core nor a carrier")
                .ifNear(
                        PoolModel.littleThroughput(largestPool, w),
                        "the largest pool's L ÷ W: no pool caps virtual clients")
                .ifNear(clients * w.toNanos() / 1e9, "L · W: Little's law divides by W, λ = L / W")
                .ifNear(PoolModel.littleThroughput(1, w), "one call at a time: all L clients wait at once");
    }

    /** Section 3's makespan with the long task first, worked out under its chart: 4u. */
    public static Duration longFirstMakespan(Duration u) {
        return u.multipliedBy(4);
    }

    /** Section 3's makespan with the long task last, worked out under its chart: 2u + 4u. */
    public static Duration longLastMakespan(Duration u) {
        return u.multipliedBy(6);
    }

    /**
     * Eight tasks of {@code u}, then one of 4u, on 3 workers, FIFO: {@code byHand}, the makespan worked out task by
     * task.
     */
    public static Prediction.Model longLast(Duration u, Duration byHand) {
        return Prediction.Model.of("FIFO by hand: 2u + 4u", byHand)
                .ifNear(
                        u.multipliedBy(4),
                        "4u, the best any order can do: FIFO reaches it only with the long task first")
                .ifNear(u.multipliedBy(3), "⌈N/P⌉ · u, waves of equal tasks: one task is four units long")
                .ifNear(u.multipliedBy(12), "12u, all the work on one thread: three workers run at once");
    }
}
