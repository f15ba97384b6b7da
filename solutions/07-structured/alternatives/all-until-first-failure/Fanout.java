package course.exercises.structured;

import java.time.Duration;
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
 * A correct serve of another shape: {@code Joiner.allUntil} with a predicate that keeps the first failed subtask
 * and cancels the scope; the failure is read from that subtask after {@code join}, the results from the stream of
 * every subtask; the binding made with {@code ScopedValue.call} and its checked exceptions sorted out with
 * {@code instanceof}.
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
        for (int i = 0; i < calls.size(); i++) {
            Objects.requireNonNull(calls.get(i), "call " + i);
        }
        try {
            return ScopedValue.where(REQUEST_ID, requestId).call(() -> runAll(calls, deadline));
        } catch (Exception e) {
            if (e instanceof InterruptedException ie) {
                throw ie;
            }
            if (e instanceof ExecutionException ee) {
                throw ee;
            }
            if (e instanceof TimeoutException te) {
                throw te;
            }
            throw (RuntimeException) e;
        }
    }

    private static <T> List<T> runAll(List<? extends Callable<? extends T>> calls, Duration deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        AtomicReference<Subtask<? extends T>> firstFailed = new AtomicReference<>();
        Joiner<T, java.util.stream.Stream<Subtask<T>>> untilFailure = Joiner.allUntil(s -> {
            if (s.state() == Subtask.State.FAILED) {
                firstFailed.compareAndSet(null, s);
                return true;
            }
            return false;
        });
        try (var scope = StructuredTaskScope.open(untilFailure, cf -> cf.withTimeout(deadline))) {
            for (Callable<? extends T> call : calls) {
                scope.fork(call);
            }
            List<Subtask<T>> subtasks = scope.join().toList();
            Subtask<? extends T> failed = firstFailed.get();
            if (failed != null) {
                throw new ExecutionException(failed.exception());
            }
            return subtasks.stream().map(Subtask::get).toList();
        } catch (StructuredTaskScope.TimeoutException e) {
            throw new TimeoutException("the deadline of " + deadline + " passed");
        }
    }
}
