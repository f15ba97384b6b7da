package course.exercises.structured;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A correct serve of another shape: the default joiner ({@code awaitAllSuccessfulOrThrow}) with each
 * {@link Subtask} kept and read with {@code get()}, the binding made with {@code ScopedValue.run} and the
 * outcome carried out of it in holders, {@code List.copyOf} for the null checks, and no special case for no calls.
 */
public final class Fanout {
    /** The id of the request being served; bound by serve for the calls it runs. */
    public static final ScopedValue<String> REQUEST_ID = ScopedValue.newInstance();

    private Fanout() {
    }

    public static <T> List<T> serve(String requestId, List<? extends Callable<? extends T>> calls,
                                    Duration deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(deadline, "deadline");
        List<Callable<? extends T>> tasks = List.copyOf(calls);  // throws NullPointerException for a null call
        AtomicReference<List<T>> results = new AtomicReference<>();
        AtomicReference<Exception> failure = new AtomicReference<>();
        ScopedValue.where(REQUEST_ID, requestId).run(() -> {
            try {
                results.set(fanOut(tasks, deadline));
            } catch (Exception e) {
                failure.set(e);
            }
        });
        Exception e = failure.get();
        if (e == null) {
            return results.get();
        } else if (e instanceof InterruptedException ie) {
            throw ie;
        } else if (e instanceof ExecutionException ee) {
            throw ee;
        } else if (e instanceof TimeoutException te) {
            throw te;
        } else {
            throw (RuntimeException) e;
        }
    }

    private static <T> List<T> fanOut(List<Callable<? extends T>> tasks, Duration deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        try (var scope = StructuredTaskScope.open(Joiner.<T>awaitAllSuccessfulOrThrow(),
                cf -> cf.withTimeout(deadline))) {
            List<Subtask<? extends T>> subtasks = new ArrayList<>();
            for (Callable<? extends T> task : tasks) {
                subtasks.add(scope.fork(task));
            }
            scope.join();
            List<T> out = new ArrayList<>(subtasks.size());
            for (Subtask<? extends T> s : subtasks) {
                out.add(s.get());
            }
            return out;
        } catch (StructuredTaskScope.FailedException e) {
            throw new ExecutionException(e.getCause());
        } catch (StructuredTaskScope.TimeoutException e) {
            TimeoutException t = new TimeoutException("the deadline of " + deadline + " passed");
            t.initCause(e);
            throw t;
        }
    }
}
