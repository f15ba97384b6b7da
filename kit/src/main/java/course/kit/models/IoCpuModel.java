package course.kit.models;

import course.kit.Prediction;
import java.time.Duration;

/** Notebook 04's predictions: CPU-bound and I/O-bound tasks on virtual threads, and a pool of virtual threads. */
public final class IoCpuModel {
    private IoCpuModel() {}

    /** The predicted elapsed time of {@code count} tasks of {@code each} on {@code threads} threads: ⌈N/P⌉·t. */
    public static double wavesMillis(int count, int threads, Duration each) {
        return PoolModel.batchTime(count, threads, each).toNanos() / 1e6;
    }

    /**
     * The predicted elapsed time of {@code count} CPU-bound tasks of {@code cpu} each, on {@code threads}
     * threads of a machine with {@code cores} cores: at most {@code min(threads, cores)} tasks make progress
     * at once, so ⌈N / min(P, cores)⌉·c (N·c/cores when N is a multiple of the cores).
     */
    public static double cpuBoundMillis(int count, int threads, int cores, Duration cpu) {
        if (cores < 1) throw new IllegalArgumentException("cores must be at least 1: " + cores);
        if (threads < 1) throw new IllegalArgumentException("threads must be at least 1: " + threads);
        return wavesMillis(count, Math.min(threads, cores), cpu);
    }

    /** {@code n} tasks of {@code cpu} of computing, a virtual thread each, on {@code cores}: N·c/cores. */
    public static Prediction.Model cpuBound(int n, int cores, Duration cpu) {
        return Prediction.Model.of("N·c/cores", cpuBoundMillis(n, n, cores, cpu), "ms")
                .ifNear(
                        cpu.toMillis(),
                        "c, one task's time: waits overlap (notebook 02), but computing needs a core, and there are"
                                + " only " + cores)
                .ifNear(
                        n * (double) cpu.toMillis(),
                        "N·c, one task at a time: the scheduler has a carrier per core, so " + cores
                                + " tasks compute at once");
    }

    /** {@code n} sleeps of {@code w}, a virtual thread each: w. */
    public static Prediction.Model ioBound(int n, int cores, Duration w) {
        return Prediction.Model.of("w", w)
                .ifNear(
                        w.multipliedBy(n),
                        "N·w, one sleep after another: a sleeping virtual thread unmounts, so all N sleep at once")
                .ifNear(
                        PoolModel.batchTime(n, cores, w),
                        "⌈N/cores⌉·w: the cores limit computing, not waiting; a sleeping virtual thread needs no core");
    }

    /** {@code n} sleeps of {@code w} on a fixed pool of {@code poolSize} virtual threads: ⌈N/P⌉·w. */
    public static Prediction.Model virtualPool(int n, int poolSize, int cores, Duration w) {
        return Prediction.Model.of("⌈N/" + poolSize + "⌉·w", PoolModel.batchTime(n, poolSize, w))
                .ifNear(
                        w,
                        "w, one wave: that is a virtual thread per task; a pool of " + poolSize + " runs " + poolSize
                                + " tasks at a time, whatever its threads")
                .ifNear(
                        PoolModel.batchTime(n, cores, w),
                        "⌈N/cores⌉·w: a sleeping virtual thread holds no core; the pool's " + poolSize
                                + " threads are the limit");
    }
}
