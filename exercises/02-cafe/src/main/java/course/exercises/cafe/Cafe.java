package course.exercises.cafe;

import java.time.Duration;
import java.util.concurrent.ExecutorService;

/**
 * A cafe where every customer's drink is brewed by the staff: an {@link ExecutorService}.
 *
 * <p>Exercise 02 of the course: implement {@link #serve}. In its "Your turn" section the notebook
 * {@code notebooks/02-cafe-simulation.ipynb} loads this class into its kernel ({@code %exercise 02-cafe}), calls
 * your {@code serve} for 2,000 customers × 50 ms on a recorded {@code Executors.newFixedThreadPool(100)} and on a
 * recorded {@code Executors.newVirtualThreadPerTaskExecutor()}, prints your report next to what the recording saw
 * (tasks, most at once, threads), draws both timelines, and then grades the class with the course's tests.
 */
public final class Cafe {
    private Cafe() {
    }

    /**
     * Serves {@code customers} customers with {@code staff} and reports what happened.
     *
     * <p>Each customer is one task submitted to {@code staff}; the task brews the drink by sleeping for
     * {@code brewTime}. The method returns after every customer has been served. While the tasks run it
     * keeps count of how many drinks are brewing at the same moment, and reports the highest count.
     *
     * <p>The method does not shut down, close or otherwise disable {@code staff}: the caller owns it, and
     * can submit more work after {@code serve} returns.
     *
     * <p>Memory consistency effects: actions of every customer's task <i>happen-before</i> the return of
     * this method.
     *
     * <pre>{@code
     * try (var baristas = Executors.newFixedThreadPool(4)) {
     *     CafeReport report = Cafe.serve(100, Duration.ofMillis(50), baristas);
     *     // report.served() == 100, report.peakBrewing() == 4
     * }
     * }</pre>
     *
     * @param customers how many customers to serve; {@code 0} serves none
     * @param brewTime  how long each drink brews (non-negative)
     * @param staff     the executor that runs one task per customer; left running
     * @return the number served, the elapsed wall time and the peak number brewing at once
     * @throws IllegalArgumentException if {@code customers < 0} or {@code brewTime} is negative
     * @throws NullPointerException     if {@code brewTime} or {@code staff} is {@code null}
     * @throws InterruptedException     if the calling thread is interrupted while waiting
     */
    public static CafeReport serve(int customers, Duration brewTime, ExecutorService staff)
            throws InterruptedException {
        throw new UnsupportedOperationException(
                "Cafe.serve is not written yet: one task per customer, count the brews in flight (see the README)");
    }
}
