package course.exercises.structured;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Serves one request by running its calls to other services at the same time, as subtasks of one
 * {@link java.util.concurrent.StructuredTaskScope} (a preview API in JDK 25, JEP 505), with the request's id
 * in a {@link ScopedValue} that every call can read.
 *
 * <p>Exercise 07 of the course: implement {@link #serve}. The notebook
 * {@code notebooks/07-structured-concurrency.ipynb} runs your {@code serve} on article 002's three calls,
 * records each call's start and end, draws their timeline and checks that every call read the request's id;
 * then it grades your code.
 */
public final class Fanout {
    /** The id of the request being served; bound by serve for the calls it runs. */
    public static final ScopedValue<String> REQUEST_ID = ScopedValue.newInstance();

    private Fanout() {
    }

    /**
     * Serves one request. Binds REQUEST_ID to requestId, then runs every call at the same time, each
     * in its own subtask of one StructuredTaskScope (so each call can read REQUEST_ID), and returns
     * their results in the order of calls.
     * <ul>
     * <li>If a call fails, the calls still running are cancelled (interrupted) and an
     *     ExecutionException is thrown whose cause is that call's own exception (of the call that failed
     *     first in time, not the first in the list).</li>
     * <li>If the deadline (for all the calls together) passes before every call has completed, the calls
     *     still running are cancelled and a java.util.concurrent.TimeoutException is thrown.</li>
     * <li>When serve returns or throws, no call is still running.</li>
     * <li>An empty list gives an empty list; a null argument throws NullPointerException.</li>
     * </ul>
     *
     * <pre>{@code
     * List<String> parts = Fanout.serve("req-42", List.of(profile, orders, offers), Duration.ofSeconds(2));
     * }</pre>
     *
     * @param requestId the request's id, bound to {@link #REQUEST_ID} while the calls run
     * @param calls     the calls to run; the list is not modified
     * @param deadline  how long the calls may take in all
     * @param <T>       the calls' result type
     * @return the results, {@code result.get(i)} being what {@code calls.get(i)} returned
     * @throws ExecutionException   if a call threw; its cause is the first failed call's exception
     * @throws TimeoutException     if the deadline passed before every call completed
     * @throws InterruptedException if the calling thread was interrupted while waiting
     */
    public static <T> List<T> serve(String requestId, List<? extends Callable<? extends T>> calls,
                                    Duration deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        throw new UnsupportedOperationException(
                "Fanout.serve is not written yet: ScopedValue.where, then a StructuredTaskScope with a deadline (see the README)");
    }
}
