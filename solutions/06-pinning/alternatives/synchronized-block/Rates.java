package course.exercises.pinning;

import java.util.Map;
import java.util.Objects;

/**
 * Exercise 06, another shape: the fetch runs inside a {@code synchronized} method; callers that arrive meanwhile
 * block on the monitor (BLOCKED), which on JDK 25 unmounts them.
 */
public final class Rates {

    /** Where the rates come from: a slow call (it blocks), for example a web service. */
    @FunctionalInterface
    public interface Source {
        /** Fetches every currency's rate. @throws Exception when the call fails */
        Map<String, Double> fetch() throws Exception;
    }

    private final Source source;
    private Map<String, Double> table;

    public Rates(Source source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    private synchronized Map<String, Double> table() throws Exception {
        if (table == null) table = Map.copyOf(source.fetch());
        return table;
    }

    public double rate(String currency) throws Exception {
        Objects.requireNonNull(currency, "currency");
        Double r = table().get(currency);
        if (r == null) throw new IllegalArgumentException("no rate for " + currency);
        return r;
    }
}
