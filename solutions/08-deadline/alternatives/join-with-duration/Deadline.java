package course.exercises.deadline;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** Exercise 08, another shape: no future and no latch, only {@link Thread#join(Duration)}. */
public final class Deadline {
    private Deadline() {
    }

    public static <T> T call(Callable<T> downstream, Duration budget)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(downstream, "downstream");
        Objects.requireNonNull(budget, "budget");
        var outcome = new Object() {
            T value;
            Throwable failure;
        };
        Thread thread = Thread.ofVirtual().start(() -> {
            try {
                outcome.value = downstream.call();
            } catch (Throwable e) {
                outcome.failure = e;
            }
        });
        try {
            if (!thread.join(budget)) { // a budget of zero or less does not wait
                cancel(thread);
                throw new TimeoutException("no answer within " + budget);
            }
        } catch (InterruptedException e) {
            cancel(thread);
            throw e;
        }
        if (outcome.failure != null) throw new ExecutionException(outcome.failure);
        return outcome.value;
    }

    private static void cancel(Thread thread) {
        thread.interrupt();
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
