package course.kit.experiments;

/**
 * One closed-loop load run against one server (notebook 08): what the clients saw during the measuring window,
 * and what the server's {@link HandlerMeter} counted.
 *
 * @param name          the server, as the cell named it
 * @param clients       C, the concurrent clients
 * @param windowMillis  how long the measuring window lasted (after the warm-up)
 * @param answers       what became of the requests sent in the window
 * @param throughput    2xx answers per second that arrived in the window
 * @param p50Millis     median latency of the answered requests sent in the window (2xx and 503)
 * @param p99Millis     99th percentile of the same
 * @param p99OkMillis   99th percentile of the 2xx answers alone (NaN when none)
 * @param requests      requests sent in the whole run, warm-up included
 * @param peakInHandler the most requests inside the handler at once: the server's threads busy with requests
 * @param threadKind    the kind of thread that ran the handler: virtual, platform, mixed or none
 * @param handlerP99Millis 99th percentile of the time the requests that entered the handler in the window spent
 *                      in it (the server's own share of the latency; NaN when none entered)
 * @param gcPauses      the garbage collector's stop-the-world pauses that overlapped the measuring window
 */
public record LoadResult(
        String name,
        int clients,
        double windowMillis,
        Answers answers,
        double throughput,
        double p50Millis,
        double p99Millis,
        double p99OkMillis,
        long requests,
        int peakInHandler,
        String threadKind,
        double handlerP99Millis,
        java.util.List<course.kit.GcPauses.Pause> gcPauses) {
    public LoadResult {
        java.util.Objects.requireNonNull(answers, "answers");
        gcPauses = java.util.List.copyOf(java.util.Objects.requireNonNull(gcPauses, "gcPauses"));
    }

    /**
     * The most time the garbage collector stopped every thread within any one stretch of {@code span} in the
     * measuring window: how much a request that lasts {@code span} can have waited for the collector alone.
     */
    public java.time.Duration gcPaused(java.time.Duration span) {
        return course.kit.GcPauses.mostWithin(gcPauses, span);
    }
    /** Requests that failed without an answer or with an error status (503s excluded): {@link Answers#failed()}. */
    public long failed() {
        return answers.failed();
    }

    /** Requests the server turned away with 503: {@link Answers#shed()}. */
    public long shed() {
        return answers.shed();
    }

    /** {@code slots / throughput}, in ms: by Little's law, how long each of {@code slots} busy places held a request. */
    public double millisPerSlot(int slots) {
        return throughput <= 0 ? Double.POSITIVE_INFINITY : slots * 1_000.0 / throughput;
    }

    @Override
    public String toString() {
        return String.format(
                java.util.Locale.ROOT,
                "%s, C = %,d: %,.0f requests/s, p50 %,.0f ms, p99 %,.0f ms (in the handler %,.0f ms); %s; at most %,d"
                        + " requests in the handler, on %s threads",
                name,
                clients,
                throughput,
                p50Millis,
                p99Millis,
                handlerP99Millis,
                answers,
                peakInHandler,
                threadKind);
    }

    /**
     * What became of the requests sent in the measuring window.
     *
     * @param answered answers with status 2xx or 503
     * @param ok       of those, answers with status 2xx
     * @param shed     of those, status 503 (the server turned the request away)
     * @param errors   answers with any other status (a 500 from a failed handler, say), and I/O errors other
     *                 than the two below
     * @param timeouts requests that got no answer within the client's time-out
     * @param refused  connections the server's port refused
     */
    public record Answers(long answered, long ok, long shed, long errors, long timeouts, long refused) {
        /** Requests that failed without an answer or with an error status (503s excluded). */
        public long failed() {
            return errors + timeouts + refused;
        }

        @Override
        public String toString() {
            return String.format(
                    java.util.Locale.ROOT,
                    "%,d answered (%,d ok, %,d turned away), %,d errors, %,d time-outs, %,d refused",
                    answered,
                    ok,
                    shed,
                    errors,
                    timeouts,
                    refused);
        }
    }
}
