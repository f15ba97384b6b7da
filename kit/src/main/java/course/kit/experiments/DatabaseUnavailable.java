package course.kit.experiments;

import java.util.Objects;

/**
 * Cannot use the database: the message names the cause and the fix in one paragraph. {@link Postgres} throws it when
 * it cannot start or reach a server, {@link PostgresPool} when it cannot open its connections.
 */
public final class DatabaseUnavailable extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    DatabaseUnavailable(String paragraph, Throwable cause) {
        super(paragraph, cause);
    }

    /** The innermost cause's message, for a one-line "because". */
    static String rootMessage(Throwable e) {
        Throwable t = Objects.requireNonNull(e, "e");
        String best = null;
        for (int i = 0; t != null && i < 10; t = t.getCause(), i++) {
            if (t.getMessage() != null && !t.getMessage().isBlank())
                best = t.getMessage().strip();
        }
        return best == null
                ? e.getClass().getSimpleName()
                : best.replaceAll("\\s+", " ").replaceAll("\\.$", "");
    }
}
