package course.kit;

import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * An executor to create for one run, with what the kit needs to know about it: a readable name, whether
 * its threads are virtual, and how many platform threads it may create (so that an impossible size is
 * refused before any thread starts, see {@link Limits}).
 *
 * @param name             what charts and tables call it, for example "fixed pool of 200"
 * @param virtualThreads   whether tasks run on virtual threads
 * @param platformThreads  the most platform threads it creates; 0 for virtual threads; -1 for one per task
 * @param factory          creates a fresh executor; the run closes it
 */
public record Pool(String name, boolean virtualThreads, int platformThreads, Supplier<ExecutorService> factory) {
    public Pool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(factory, "factory");
    }

    /** {@code Executors.newFixedThreadPool(size)}: at most {@code size} platform threads, a FIFO queue. */
    public static Pool fixed(int size) {
        if (size < 1) throw new IllegalArgumentException("a fixed pool needs at least 1 thread, not " + size);
        return new Pool(
                "fixed pool of " + String.format("%,d", size), false, size, () -> Executors.newFixedThreadPool(size));
    }

    /** {@code Executors.newVirtualThreadPerTaskExecutor()}: one new virtual thread per task. */
    public static Pool virtual() {
        return new Pool("virtual thread per task", true, 0, Executors::newVirtualThreadPerTaskExecutor);
    }

    /** {@code Executors.newThreadPerTaskExecutor(Thread.ofPlatform().factory())}: one new platform thread per task. */
    public static Pool platformPerTask() {
        return new Pool(
                "platform thread per task",
                false,
                -1,
                () -> Executors.newThreadPerTaskExecutor(Thread.ofPlatform().factory()));
    }

    /** Any executor, with the facts the kit cannot see for itself. */
    public static Pool of(String name, boolean virtual, int platformThreads, Supplier<ExecutorService> factory) {
        return new Pool(name, virtual, platformThreads, factory);
    }

    /** The same pool under another name. */
    public Pool named(String newName) {
        return new Pool(newName, virtualThreads, platformThreads, factory);
    }

    /** Refuses a run of {@code tasks} tasks that this JVM cannot hold, with a message that says why. */
    void validate(int tasks) {
        if (tasks < 0) throw new IllegalArgumentException("the number of tasks cannot be negative: " + tasks);
        if (virtualThreads) Limits.requireVirtualThreads(tasks);
        else Limits.requirePlatformThreads(platformThreads < 0 ? tasks : Math.min(platformThreads, tasks));
    }
}
