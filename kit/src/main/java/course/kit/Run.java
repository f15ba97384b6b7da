package course.kit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Runs N tasks on an executor and records, per task, when it started and ended and on which thread.
 *
 * <p>{@link #tasks(String, Pool, int, Task)} times what the articles time: from creating the executor,
 * through submitting every task, to the return of the executor's {@code close()}.
 *
 * <p><b>Interruption.</b> If the calling thread is interrupted (the notebook's stop button), the run stops
 * submitting, shuts the executor down with {@code shutdownNow()} (which interrupts running tasks), waits
 * for its threads to end, and throws {@link InterruptedException}: no thread of the run is left behind.
 *
 * <p><b>Limits.</b> Before any thread starts, the pool size and task count are checked against this JVM's
 * limits ({@link Limits}); an impossible request throws {@link IllegalArgumentException} that says why.
 */
public final class Run {
    private Run() {}

    /** Runs {@code count} tasks on a fresh executor from {@code pool}, named after the pool. */
    public static RunResult tasks(Pool pool, int count, Task task) throws InterruptedException {
        return tasks(pool.name(), pool, count, task);
    }

    /** Runs {@code count} tasks on a fresh executor from {@code pool}, and closes it. */
    public static RunResult tasks(String name, Pool pool, int count, Task task) throws InterruptedException {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(task, "task");
        pool.validate(count);
        var rec = Recorder.start(name, pool.name(), count);
        boolean interrupted = submitAndClose(pool.factory().get(), executor -> {
            for (int i = 0; i < count; i++) {
                if ((i & 1023) == 0 && Thread.currentThread().isInterrupted()) throw new InterruptedException();
                final int index = i;
                executor.execute(() -> rec.run(index, task));
            }
        });
        var result = rec.stop();
        if (interrupted) {
            throw new InterruptedException(String.format(
                    "%s interrupted after %,d of %,d tasks; its executor was shut down", name, rec.done(), count));
        }
        return result;
    }

    /** Submits work to an executor; may stop early by throwing {@link InterruptedException}. */
    @FunctionalInterface
    public interface Submitter {
        /** Submits the tasks. @throws InterruptedException when the caller was interrupted while submitting */
        void submit(ExecutorService executor) throws InterruptedException;
    }

    /**
     * The kit's executor lifecycle: submits with {@code submitter}, then closes {@code executor}, which waits
     * for every task. If the caller is interrupted while submitting or waiting, the executor is shut down
     * with {@code shutdownNow()} (interrupting its tasks) and still awaited, so that no thread of it is left
     * behind. Returns whether the caller was interrupted (its interrupt status is cleared).
     */
    public static boolean submitAndClose(ExecutorService executor, Submitter submitter) {
        boolean interrupted = false;
        try {
            try {
                submitter.submit(executor);
            } catch (InterruptedException e) {
                interrupted = true;
                executor.shutdownNow();
            }
            executor.close(); // waits for every task; if interrupted while waiting it calls shutdownNow()
            interrupted |= Thread.interrupted();
        } finally {
            if (!executor.isTerminated()) {
                executor.shutdownNow();
                executor.close();
            }
        }
        return interrupted;
    }

    /**
     * Runs {@code count} tasks on an executor the caller owns and keeps open: submits them all, then waits
     * for every one. If interrupted, it cancels the tasks (with interruption) and throws.
     */
    public static RunResult on(String name, ExecutorService executor, int count, Task task)
            throws InterruptedException {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(task, "task");
        if (count < 0) throw new IllegalArgumentException("the number of tasks cannot be negative: " + count);
        var rec = Recorder.start(name, executor.getClass().getSimpleName(), count);
        List<Future<?>> futures = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                final int index = i;
                futures.add(executor.submit(() -> rec.run(index, task)));
            }
            for (Future<?> f : futures) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    // recorded by the task wrapper
                }
            }
        } catch (InterruptedException e) {
            futures.forEach(f -> f.cancel(true));
            rec.stop();
            throw e;
        }
        return rec.stop();
    }
}
