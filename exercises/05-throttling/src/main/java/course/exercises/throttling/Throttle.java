package course.exercises.throttling;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;

/**
 * Runs many calls at once on virtual threads while keeping a limit on how many are in flight, as a client
 * must when the service behind it accepts only so many concurrent requests.
 *
 * <p>Exercise 05 of the course: implement {@link #callAll}. The notebook
 * {@code notebooks/05-semaphore-throttling.ipynb} runs your {@code callAll} over its calls to a database of 50
 * connections with {@code maxInFlight} = 50, draws the calls in flight over time and checks that the peak stays
 * within the limit and that the rows come back in the order of the calls, before it grades your code.
 */
public final class Throttle {
    private Throttle() {
    }

    /**
     * Runs every call, each on its own new virtual thread, with at most {@code maxInFlight} calls running
     * at the same moment, and returns their results in the order of {@code calls}.
     *
     * <p>The limit is kept with a {@link java.util.concurrent.Semaphore} of {@code maxInFlight} permits, not with a
     * pool of threads: a permit is acquired before each call (in the call's thread, or in the loop before that
     * thread is started) and released when the call ends, whether the call returned or threw. A failed call
     * therefore never keeps its permit.
     *
     * <p>The method returns, or throws, only after every call has finished. If one or more calls threw, it
     * throws an {@link ExecutionException} whose cause is the exception thrown by the earliest failed call
     * in list order; the results of the other calls are discarded. A call may return {@code null}.
     *
     * <p>Memory consistency effects: actions of every call <i>happen-before</i> the return of this method.
     *
     * <pre>{@code
     * List<Callable<String>> fetches = urls.stream().map(u -> (Callable<String>) () -> fetch(u)).toList();
     * List<String> pages = Throttle.callAll(fetches, 10);   // never more than 10 fetches at once
     * }</pre>
     *
     * @param calls       the calls to run; the list is not modified
     * @param maxInFlight the most calls allowed to run at once, {@code >= 1}
     * @param <T>         the calls' result type
     * @return the results, {@code result.get(i)} being what {@code calls.get(i)} returned
     * @throws IllegalArgumentException if {@code maxInFlight < 1}
     * @throws NullPointerException     if {@code calls} or one of its elements is {@code null}
     * @throws ExecutionException       if a call threw; its cause is the exception of the earliest failed call
     *                                  in list order
     * @throws InterruptedException     if the calling thread is interrupted while waiting
     */
    public static <T> List<T> callAll(List<? extends Callable<T>> calls, int maxInFlight)
            throws InterruptedException, ExecutionException {
        throw new UnsupportedOperationException(
                "Throttle.callAll is not written yet: a virtual thread per call, a Semaphore for the limit (see the README)");
    }
}
