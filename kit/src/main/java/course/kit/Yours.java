package course.kit;

import java.util.Optional;

/**
 * Runs <em>your</em> exercise code in a notebook cell. A method you have not written yet (the stub throws
 * {@link UnsupportedOperationException}) gives one line instead of a stack trace, and the notebook goes on;
 * anything else your code throws is reported as usual, with its stack trace, since that is a bug to find.
 *
 * <pre>{@code
 * %exercise 02-cafe                      // in a cell of its own: loads your Cafe and CafeReport
 *
 * Yours.attempt(() -> Cafe.serve(100, Duration.ofMillis(50), staff))
 *      .ifPresent(report -> System.out.println(report));
 * }</pre>
 */
public final class Yours {
    /** Marks a line about the learner's own code. */
    public static final String MARK = "\u270E";

    private Yours() {}

    /** Code of yours that returns a value. */
    @FunctionalInterface
    public interface Code<T> {
        /** Calls your code. @throws Exception whatever it throws */
        T call() throws Exception;
    }

    /** Code of yours that returns nothing. */
    @FunctionalInterface
    public interface Body {
        /** Runs your code. @throws Exception whatever it throws */
        void run() throws Exception;
    }

    /** Calls {@code code}; empty, after one line, when it reaches a stub that is not written yet. */
    public static <T> Optional<T> attempt(Code<T> code) throws Exception {
        try {
            return Optional.ofNullable(code.call());
        } catch (UnsupportedOperationException e) {
            notWritten(e);
            return Optional.empty();
        }
    }

    /** Runs {@code body}; false, after one line, when it reaches a stub that is not written yet. */
    public static boolean run(Body body) throws Exception {
        try {
            body.run();
            return true;
        } catch (UnsupportedOperationException e) {
            notWritten(e);
            return false;
        }
    }

    private static void notWritten(UnsupportedOperationException e) {
        String what = e.getMessage() == null ? "this part of your exercise is not written yet" : e.getMessage();
        System.out.println(MARK + " " + what + ". Write it, run the %exercise cell again, then this one.");
    }
}
