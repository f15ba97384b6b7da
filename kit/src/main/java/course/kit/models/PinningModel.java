package course.kit.models;

import course.kit.Format;
import course.kit.Prediction;
import java.time.Duration;

/** Notebook 06's predictions: blocking under {@code synchronized}, a class initialiser, an interrupted waiter. */
public final class PinningModel {
    private PinningModel() {}

    /** {@code tasks} blocking calls of {@code call}, each under its own monitor, on JDK 24 and later: t. */
    public static Prediction.Model synchronizedCalls(int tasks, int carriers, Duration call) {
        return Prediction.Model.of("t, every call at once", call)
                .ifNear(
                        PoolModel.batchTime(tasks, carriers, call),
                        "⌈N/carriers⌉·t, the JDK 21 rule: pinned, one call per carrier at once; since JDK 24 (JEP 491)"
                                + " a thread blocked in synchronized unmounts")
                .ifNear(
                        call.multipliedBy(tasks),
                        "N·t, one call at a time: each task locks its own account, so none waits for another's lock");
    }

    /** What the same calls take on JDK 21, where a thread blocked in {@code synchronized} pins its carrier. */
    public static String onJdk21(int tasks, int carriers, Duration call) {
        return String.format(
                "JDK 21, pinned: ⌈N/carriers⌉·t = ⌈%d/%d⌉ × %s = %s",
                tasks, carriers, Format.duration(call), Format.duration(PoolModel.batchTime(tasks, carriers, call)));
    }

    /** Pinned events while {@code tasks} virtual threads wait for a class initialiser that sleeps: one per carrier. */
    public static Prediction.Model classInit(int tasks, int carriers) {
        return Prediction.Model.of("one per carrier", carriers, "events")
                .ifNear(
                        tasks,
                        "N, every reader: only those mounted while the initialiser sleeps wait pinned; the rest wait"
                                + " unmounted in the queue")
                .ifNear(1, "only the initialiser: a reader waiting for it on another carrier is pinned too");
    }

    /**
     * A waiter blocked entering {@code synchronized}, interrupted: it leaves when the holder lets go, {@code held}
     * after it started, {@code call} of which had passed before the interrupt.
     */
    public static Prediction.Model interrupted(Duration held, Duration call) {
        return Prediction.Model.of("the holder's remaining time, 5 calls − 1", held.minus(call))
                .ifNear(
                        0,
                        "at once: that is lockInterruptibly; a thread entering synchronized ignores the interrupt"
                                + " until it gets the monitor");
    }
}
