package course.kernel;

/**
 * Thrown inside notebook code when the learner has interrupted the kernel: it ends the snippet (and every
 * thread that runs snippet code) at its next method call or loop iteration.
 *
 * <p>It is an {@link Error}, not an exception, so that the usual {@code catch (Exception e)} in learner code
 * does not swallow it. {@link CellStop#check()} throws it; the woven snippet classes call that check.
 */
public final class CellInterruptedError extends Error {

    private static final long serialVersionUID = 1L;

    public CellInterruptedError() {
        super("the cell was interrupted");
    }
}
