package course.base;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * What a failing call in an exercise's test throws: a {@link Kind} of throwable, with or without a cause of its
 * own. A property draws one ({@code @ForAll Failure.Kind kind, @ForAll boolean withCause}) so that a sentence about
 * "whatever the call throws" is tried with checked and unchecked exceptions and with {@link Error}s alike.
 *
 * @param kind      the kind
 * @param withCause whether the throwable has a cause
 */
public record Failure(Kind kind, boolean withCause) {
    /** A kind of {@link Throwable}. */
    public enum Kind {
        /** A checked exception. */
        IO_EXCEPTION(IOException::new, "IOException"),
        /** A checked exception that a caller may mistake for its own time-out. */
        TIMEOUT_EXCEPTION(TimeoutException::new, "TimeoutException"),
        /** A checked exception of no more precise type. */
        EXCEPTION(Exception::new, "Exception"),
        /** An unchecked exception. */
        ILLEGAL_STATE(IllegalStateException::new, "IllegalStateException"),
        /** An unchecked exception of no more precise type. */
        RUNTIME_EXCEPTION(RuntimeException::new, "RuntimeException"),
        /** An {@link Error}, which {@code catch (Exception e)} does not catch. */
        ERROR(Fault::new, "an Error"),
        /** An {@link Error} of the JDK's own. */
        STACK_OVERFLOW(StackOverflowError::new, "StackOverflowError");

        private final Function<String, Throwable> make;
        private final String shown;

        Kind(Function<String, Throwable> make, String shown) {
            this.make = make;
            this.shown = shown;
        }

        /** True for the kinds that {@code catch (Exception e)} does not catch. */
        public boolean isError() {
            return this == ERROR || this == STACK_OVERFLOW;
        }

        /** True for the checked exceptions. */
        public boolean isChecked() {
            return this == IO_EXCEPTION || this == TIMEOUT_EXCEPTION || this == EXCEPTION;
        }

        @Override
        public String toString() {
            return shown;
        }
    }

    /** An {@link Error} that a test throws on purpose. */
    public static final class Fault extends Error {
        /** A fault with {@code message}. */
        public Fault(String message) {
            super(message);
        }
    }

    /** Checks the kind. */
    public Failure {
        Objects.requireNonNull(kind, "kind");
    }

    /** A new throwable of this kind with {@code message} (and a cause, if {@link #withCause}): a new one each time. */
    public Throwable create(String message) {
        Throwable t = kind.make.apply(message);
        if (withCause) {
            t.initCause(new IllegalArgumentException("the cause of " + message));
        }
        return t;
    }

    /** Throws a new throwable of this kind, checked or not, from code that declares none. */
    public <T> T throwIt(String message) {
        throw Failure.<RuntimeException>sneaky(create(message));
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }

    @Override
    public String toString() {
        return kind + (withCause ? " with a cause" : "");
    }
}
