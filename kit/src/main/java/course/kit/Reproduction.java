package course.kit;

/**
 * One row of the reproduction table: an article's experiment, the figure it reported, the course's
 * prediction from first principles, and what this machine measured.
 *
 * @param experiment   what was run, for example "10,000 × sleep 1 s on a fixed pool of 200"
 * @param article      which source article, for example "000, 002"
 * @param reported     the figure the article reported, as it reported it, for example "50,215 ms"
 * @param predicted    the course's prediction, in {@code unit}
 * @param measured     the measurement on this machine, in {@code unit}
 * @param unit         the unit of predicted and measured, for example "ms" or "µs/thread"
 * @param note         the parameters at this scale, or why the article's figure differs
 */
public record Reproduction(
        String experiment,
        String article,
        String reported,
        double predicted,
        double measured,
        String unit,
        String note) {
    /** measured ÷ predicted (NaN when there is no prediction). */
    public double ratio() {
        return predicted == 0 ? Double.NaN : measured / predicted;
    }
}
