package course.exercises.pinning;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Exchange rates, fetched once from a slow source and then shared by every caller.
 *
 * <p>Exercise 06 of the course: the notebook {@code notebooks/06-pinning-and-diagnostics.ipynb} calls
 * {@link #rate} from many virtual threads at once while the source is slow, records JFR's pinned events
 * during the calls, and shows them next to the lesson's class-initialiser version.
 */
public final class Rates {

    /** Where the rates come from: a slow call (it blocks), for example a web service. */
    @FunctionalInterface
    public interface Source {
        /** Fetches every currency's rate. @throws Exception when the call fails */
        Map<String, Double> fetch() throws Exception;
    }

    private final Source source;
    private final ReentrantLock fetching = new ReentrantLock();
    private volatile Map<String, Double> table;

    /**
     * Rates that will be fetched from {@code source} on the first call to {@link #rate}.
     *
     * @throws NullPointerException if {@code source} is null
     */
    public Rates(Source source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    /**
     * The rate of {@code currency}. The first call fetches the table from the source; calls that arrive
     * while it is being fetched wait for it, parked (they leave their carriers free), and fetch nothing
     * themselves. Nothing blocks inside a class initialiser.
     *
     * @throws IllegalArgumentException if the table has no rate for {@code currency}
     * @throws Exception                what the source threw; the table stays unfetched, and the next call
     *                                  fetches again
     */
    public double rate(String currency) throws Exception {
        Objects.requireNonNull(currency, "currency");
        Map<String, Double> t = table;
        if (t == null) {
            fetching.lock(); // a virtual thread waiting here parks and unmounts
            try {
                t = table;
                if (t == null) {
                    t = Map.copyOf(source.fetch());
                    table = t;
                }
            } finally {
                fetching.unlock();
            }
        }
        Double r = t.get(currency);
        if (r == null) throw new IllegalArgumentException("no rate for " + currency);
        return r;
    }
}
