package course.kit;

/**
 * The body of one task in an experiment: it receives the task's index (0-based, in submission order).
 * It may block, sleep or compute, and may throw; a thrown exception is recorded as the task's failure.
 */
@FunctionalInterface
public interface Task {
    /** Runs task number {@code index}. @throws Exception whatever the work throws */
    void run(int index) throws Exception;
}
