package course.kit;

/**
 * What one task did: when it started and ended (System.nanoTime, relative to the run's start), on which
 * thread, and whether it failed.
 *
 * @param index     the task's index in submission order
 * @param startNanos nanoseconds from the run's start to the task's first instruction
 * @param endNanos   nanoseconds from the run's start to the task's end
 * @param virtual    whether the task ran on a virtual thread
 * @param thread     the thread's name, or {@code "#id"} for an unnamed thread
 * @param failure    the exception's class and message, or null when the task completed normally
 */
public record TaskRecord(int index, long startNanos, long endNanos, boolean virtual, String thread, String failure) {
    /** The task's own running time in nanoseconds. */
    public long durationNanos() {
        return endNanos - startNanos;
    }

    /** Whether the task completed without throwing. */
    public boolean ok() {
        return failure == null;
    }
}
