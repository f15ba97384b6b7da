package course.kit.models;

import course.kit.Prediction;
import java.time.Duration;
import java.util.Collections;
import java.util.List;

/** Notebook 07's predictions: three calls in one scope, a failing call, and formatters cached per thread. */
public final class ScopeModel {
    private ScopeModel() {}

    private static Duration sum(List<Duration> plan) {
        return plan.stream().reduce(Duration.ZERO, Duration::plus);
    }

    /** The calls of {@code plan}, shortest first, forked in one scope that waits for all: the longest. */
    public static Prediction.Model together(List<Duration> plan) {
        return Prediction.Model.of("max(t₁, t₂, t₃)", Collections.max(plan))
                .ifNear(
                        sum(plan),
                        "t₁ + t₂ + t₃, the sum: that is one call after the other, but a scope's subtasks run at once")
                .ifNear(
                        plan.get(0),
                        "the shortest call: join() returns at the first reply only with anySuccessfulResultOrThrow"
                                + " (section 4); allSuccessfulOrThrow waits for every call")
                .ifNear(plan.get(1), "the average call: join() waits for every call, so the longest one decides");
    }

    /** The same calls, one of which fails at {@code failAt}: the scope returns at the failure. */
    public static Prediction.Model failure(List<Duration> plan, Duration failAt) {
        return Prediction.Model.of("t_fail, the failure's own time", failAt)
                .ifNear(
                        Collections.max(plan),
                        "the slowest call's end: allSuccessfulOrThrow does not wait the siblings out, it cancels them"
                                + " at the first failure")
                .ifNear(
                        plan.get(0),
                        "call 0's end: that is futures read in order, get() on call 0 first; join() reacts to the"
                                + " first failure, whichever call fails")
                .ifNear(sum(plan), "the sum: the calls run at once, and the failure cancels the others");
    }

    /** Formatters built when {@code tasks} tasks, a virtual thread each, use a {@code ThreadLocal} cache: N. */
    public static Prediction.Model formatters(int tasks, int poolSize) {
        return Prediction.Model.of("N, one per task", tasks, "formatters")
                .ifNear(poolSize, "the pool's count: a pool thread runs many tasks, a virtual thread runs one")
                .ifNear(1, "one for all: that is the scoped value; a ThreadLocal holds one per thread");
    }
}
