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
 * A correct serve of another shape: a hand-written {@link Joiner} that cancels the scope at the first failure and
 * returns the results in the order the subtasks were forked, and {@code REQUEST_ID} bound in each subtask rather
 * than around the scope.
 */
public final class Fanout {
    /** The id of the request being served; bound by serve for the calls it runs. */
    public static final ScopedValue<String> REQUEST_ID = ScopedValue.newInstance();

    private Fanout() {
    }

    /** Cancels at the first failure and throws it from join; else the results in the order of forking. */
    private static final class InForkOrder<T> implements Joiner<T, List<T>> {
        private final List<Subtask<? extends T>> forked = new ArrayList<>(); // onFork runs in the owner thread
        private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

        @Override
        public boolean onFork(Subtask<? extends T> subtask) {
            forked.add(subtask);
            return false;
        }

        @Override
        public boolean onComplete(Subtask<? extends T> subtask) {
            if (subtask.state() == Subtask.State.FAILED) {
                firstFailure.compareAndSet(null, subtask.exception());
                return true; // cancel the scope: the others are interrupted
            }
            return false;
        }

        @Override
        public List<T> result() throws Throwable {
            Throwable failure = firstFailure.get();
            if (failure != null) {
                throw failure;
            }
            List<T> results = new ArrayList<>(forked.size());
            for (Subtask<? extends T> s : forked) {
                results.add(s.get());
            }
            return results;
        }
    }

    public static <T> List<T> serve(String requestId, List<? extends Callable<? extends T>> calls,
                                    Duration deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(deadline, "deadline");
        for (Callable<? extends T> call : calls) {
            Objects.requireNonNull(call, "a call");
        }
        try (var scope = StructuredTaskScope.open(new InForkOrder<T>(), cf -> cf.withTimeout(deadline))) {
            for (Callable<? extends T> call : calls) {
                scope.fork(() -> ScopedValue.where(REQUEST_ID, requestId).call(call::call));
            }
            return scope.join();
        } catch (StructuredTaskScope.FailedException e) {
            throw new ExecutionException(e.getCause());
        } catch (StructuredTaskScope.TimeoutException e) {
            throw new TimeoutException("the deadline of " + deadline + " passed");
        }
    }
}
