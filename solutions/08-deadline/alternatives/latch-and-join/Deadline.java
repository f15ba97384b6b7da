package course.exercises.deadline;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Exercise 08, another shape: the call's thread counts down a latch; a time-out interrupts it and joins it. */
public final class Deadline {
    private Deadline() {
    }

    public static <T> T call(Callable<T> downstream, Duration budget)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(downstream, "downstream");
        Objects.requireNonNull(budget, "budget");
        var done = new CountDownLatch(1);
        var outcome = new Object() {
            T value;
            Throwable failure;
        };
        Thread thread = Thread.ofVirtual().start(() -> {
            try {
                outcome.value = downstream.call();
            } catch (Throwable e) {
                outcome.failure = e;
            } finally {
                done.countDown();
            }
        });
        boolean finished;
        try {
            finished = done.await(budget.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            stop(thread);
            throw e;
        }
        if (!finished) {
            stop(thread);
            throw new TimeoutException("no answer within " + budget);
        }
        if (outcome.failure != null) throw new ExecutionException(outcome.failure);
        return outcome.value;
    }

    /** Interrupts {@code thread} and joins it, however many interrupts arrive meanwhile; keeps the last one. */
    private static void stop(Thread thread) {
        thread.interrupt();
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
