package course.exercises.cafe;

import java.time.Duration;

/**
 * What one {@link Cafe#serve} run observed.
 *
 * @param served      how many customers were served (their brew finished)
 * @param elapsed     the wall time from the first order until the last customer was served
 * @param peakBrewing the highest number of customers whose drinks were brewing at the same moment
 */
public record CafeReport(int served, Duration elapsed, int peakBrewing) {
}
