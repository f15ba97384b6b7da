package course.exercises.deadline;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * A request-scoped deadline: a server handler gives its downstream call only what is left of the client's
 * budget, and cancels the call when the budget runs out, rather than leaving it to hold a connection for an
 * answer nobody waits for.
 *
 * <p>Exercise 08 of the course: implement {@link #call}. The notebook {@code notebooks/08-http-service.ipynb}
 * puts your {@code call} in its Jetty handler on virtual threads, around the downstream call, with a budget of
 * {@code t + maxWait}; it runs 1,000 closed-loop clients (at the quick scale, the notebook's top level) and checks
 * that the p99 latency stays within the budget's band and that no request fails other than with a 503, before it
 * grades your code.
 */
public final class Deadline {
    private Deadline() {
    }

    /**
     * Runs {@code downstream} on a new virtual thread and returns its result, if it comes within {@code budget}.
     *
     * <ul>
     *   <li>If the call returns within the budget, its result is returned (it may be {@code null}).</li>
     *   <li>If it throws within the budget, an {@link ExecutionException} is thrown whose cause is the call's own
     *       exception.</li>
     *   <li>If the budget runs out first, the call is cancelled: its thread is interrupted. {@code call} waits
     *       until that thread has ended, then throws {@link TimeoutException}. A call that ignores the interrupt
     *       is waited for all the same: when {@code call} returns or throws, the downstream call is over.</li>
     *   <li>The call always starts, on its own thread. A budget of zero or less runs out at once: the call's
     *       thread is interrupted (the call sees it at its first blocking wait), waited for, and a
     *       {@link TimeoutException} thrown.</li>
     *   <li>An interrupt that arrives while {@code call} waits for a cancelled call to end does not cut that wait
     *       short, and is not lost: {@code call} then throws {@link InterruptedException}, or leaves the thread's
     *       interrupt status set.</li>
     * </ul>
     *
     * <p>Memory consistency effects: actions of the downstream call <i>happen-before</i> {@code call} returns
     * or throws.
     *
     * <pre>{@code
     * String row = Deadline.call(() -> db.query(id), Duration.ofMillis(250));   // TimeoutException after 250 ms
     * }</pre>
     *
     * @param downstream the call to run
     * @param budget     how long the caller may wait for it
     * @param <T>        the call's result type
     * @return what {@code downstream} returned
     * @throws NullPointerException if {@code downstream} or {@code budget} is {@code null}
     * @throws ExecutionException   if the call threw within the budget; its cause is the call's exception
     * @throws TimeoutException     if the budget ran out first (the call has been cancelled and has ended)
     * @throws InterruptedException if the calling thread is interrupted while it waits; the call is cancelled and
     *                              has ended by then too
     */
    public static <T> T call(Callable<T> downstream, Duration budget)
            throws InterruptedException, ExecutionException, TimeoutException {
        throw new UnsupportedOperationException(
                "Deadline.call is not written yet: a virtual thread for the call, a timed wait, a cancel (see the README)");
    }
}
