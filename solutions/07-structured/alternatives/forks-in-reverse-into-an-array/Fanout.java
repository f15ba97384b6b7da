package course.exercises.structured;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A correct serve of another shape: the calls forked from the last to the first, each subtask writing its result
 * into its own slot of an array ({@code null}s too), {@code Joiner.awaitAllSuccessfulOrThrow()}, the deadline
 * converted to a whole number of nanoseconds where it fits ({@code TimeUnit.NANOSECONDS.convert} saturates), and
 * the binding made with {@code ScopedValue.where(...).call(...)} around a method reference.
 */
public final class Fanout {
    /** The id of the request being served; bound by serve for the calls it runs. */
    public static final ScopedValue<String> REQUEST_ID = ScopedValue.newInstance();

    private Fanout() {
    }

    public static <T> List<T> serve(String requestId, List<? extends Callable<? extends T>> calls,
                                    Duration deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (requestId == null || calls == null || deadline == null || calls.stream().anyMatch(Objects::isNull)) {
            throw new NullPointerException("serve(" + requestId + ", " + calls + ", " + deadline + ")");
        }
        List<Callable<? extends T>> tasks = new ArrayList<>(calls);
        ScopedValue.CallableOp<List<T>, Exception> body = () -> fanOut(tasks, deadline);
        try {
            return ScopedValue.where(REQUEST_ID, requestId).call(body);
        } catch (InterruptedException | ExecutionException | TimeoutException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static <T> List<T> fanOut(List<Callable<? extends T>> tasks, Duration deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        AtomicReferenceArray<T> results = new AtomicReferenceArray<>(tasks.size());
        Duration timeout = Duration.ofNanos(java.util.concurrent.TimeUnit.NANOSECONDS.convert(deadline));
        try (var scope = StructuredTaskScope.open(Joiner.<Object>awaitAllSuccessfulOrThrow(),
                cf -> cf.withTimeout(timeout))) {
            for (int i = tasks.size() - 1; i >= 0; i--) {
                int slot = i;
                Callable<? extends T> task = tasks.get(i);
                scope.fork(() -> {
                    results.set(slot, task.call());
                    return null;
                });
            }
            scope.join();
        } catch (StructuredTaskScope.FailedException e) {
            throw new ExecutionException(e.getCause());
        } catch (StructuredTaskScope.TimeoutException e) {
            throw new TimeoutException("the deadline of " + deadline + " passed");
        }
        List<T> out = new ArrayList<>(tasks.size());
        for (int i = 0; i < tasks.size(); i++) {
            out.add(results.get(i));
        }
        return Collections.unmodifiableList(out);
    }
}
