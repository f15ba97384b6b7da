package course.kit.models;

import course.kit.Prediction;
import java.time.Duration;

/** Notebook 00's one prediction: sleeping tasks on a fixed pool. */
public final class WelcomeModel {
    private WelcomeModel() {}

    /** {@code tasks} sleeps of {@code wait} on a fixed pool of {@code poolSize}: ⌈N/P⌉ · t. */
    public static Prediction.Model pool(int tasks, int poolSize, Duration wait) {
        return Prediction.Model.of("⌈N/P⌉ · t", PoolModel.batchTime(tasks, poolSize, wait))
                .ifNear(
                        wait,
                        "one wave, t: the pool runs only " + poolSize + " tasks at once, so the rest wait their turn")
                .ifNear(wait.multipliedBy(tasks), "N · t, one task at a time: the pool runs " + poolSize + " at once");
    }
}
