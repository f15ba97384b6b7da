package course.exercises.pinning;

import java.util.Map;
import java.util.Objects;

/**
 * Exercise 06, another shape: {@code synchronized} guards a "fetching" flag, the fetch runs outside the monitor,
 * and callers that find a fetch under way {@code wait()} until {@code notifyAll()} (JDK 25: neither pins).
 */
public final class Rates {

    /** Where the rates come from: a slow call (it blocks), for example a web service. */
    @FunctionalInterface
    public interface Source {
        /** Fetches every currency's rate. @throws Exception when the call fails */
        Map<String, Double> fetch() throws Exception;
    }

    private final Source source;
    private final Object monitor = new Object();
    private boolean fetching;
    private Map<String, Double> table;

    public Rates(Source source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    public double rate(String currency) throws Exception {
        Objects.requireNonNull(currency, "currency");
        Map<String, Double> t;
        synchronized (monitor) {
            while (table == null && fetching) monitor.wait();
            t = table;
            if (t == null) fetching = true;
        }
        if (t == null) {
            Map<String, Double> fetched = null;
            try {
                fetched = Map.copyOf(source.fetch());
            } finally {
                synchronized (monitor) {
                    table = fetched;
                    fetching = false;
                    monitor.notifyAll();
                }
            }
            t = fetched;
        }
        Double r = t.get(currency);
        if (r == null) throw new IllegalArgumentException("no rate for " + currency);
        return r;
    }
}
