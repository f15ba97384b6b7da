package course.exercises.threadcost;

import java.time.Duration;

/**
 * Measures what it costs to start and finish many threads of one kind.
 *
 * <p>Exercise 01 of the course: implement {@link #startAll}. In its "Your turn",
 * {@code notebooks/01-thread-creation-cost.ipynb} loads this class ({@code %exercise 01-thread-cost}), calls
 * {@code startAll} with {@code Thread.ofPlatform()} and with {@code Thread.ofVirtual()} on a recorded empty task,
 * checks that each task ran on a thread of its own of the builder's kind and that the returned duration covers
 * them all, and draws the µs per thread of both next to the lesson's figures.
 */
public final class ThreadCost {
    private ThreadCost() {
    }

    /**
     * Starts {@code count} threads from {@code builder}, each running {@code task}, and waits until all of
     * them have terminated.
     *
     * <p>Every thread is started before any thread is joined, so all {@code count} threads may be alive at
     * the same time: a task that waits for all the others to start must not deadlock. The method returns
     * only after every started thread has terminated. Exceptions thrown by {@code task} end their thread
     * (through its uncaught-exception handler) and are not rethrown.
     *
     * <p>Memory consistency effects: actions of every task <i>happen-before</i> the return of this method.
     *
     * <pre>{@code
     * Duration platform = ThreadCost.startAll(Thread.ofPlatform(), 10_000, () -> {});
     * Duration virtual  = ThreadCost.startAll(Thread.ofVirtual(), 10_000, () -> {});
     * }</pre>
     *
     * @param builder the builder that creates each thread, for example {@code Thread.ofVirtual()}
     * @param count   how many threads to start; {@code 0} starts none and returns a (near) zero duration
     * @param task    the task every thread runs
     * @return the wall time elapsed from before the first start until after the last thread terminated;
     *         never negative
     * @throws IllegalArgumentException if {@code count < 0}
     * @throws NullPointerException     if {@code builder} or {@code task} is {@code null}
     * @throws InterruptedException     if the calling thread is interrupted while waiting
     */
    public static Duration startAll(Thread.Builder builder, int count, Runnable task) throws InterruptedException {
        throw new UnsupportedOperationException(
                "ThreadCost.startAll is not written yet: start all threads, then join them (see the README)");
    }
}
