package course.exercises.pinning;

import java.util.Map;

/**
 * Exchange rates, fetched once from a slow source and then shared by every caller.
 *
 * <p>Exercise 06 of the course: write the constructor and {@link #rate}. The notebook
 * {@code notebooks/06-pinning-and-diagnostics.ipynb} calls {@link #rate} from many virtual threads at once
 * while the source is slow, records JFR's pinned events during the calls, and shows them next to the
 * lesson's class-initialiser version.
 *
 * <pre>{@code
 * var rates = new Rates(() -> fetchFromTheBank());   // nothing is fetched yet
 * double eur = rates.rate("EUR");                     // the first call fetches; later calls do not
 * }</pre>
 */
public final class Rates {

    /** Where the rates come from: a slow call (it blocks), for example a web service. */
    @FunctionalInterface
    public interface Source {
        /** Fetches every currency's rate. @throws Exception when the call fails */
        Map<String, Double> fetch() throws Exception;
    }

    /**
     * Rates that will be fetched from {@code source} on the first call to {@link #rate}.
     *
     * @throws NullPointerException if {@code source} is null
     */
    public Rates(Source source) {
        throw new UnsupportedOperationException(
                "Rates is not written yet: fetch once, let callers wait parked, never inside a class initialiser (see the README)");
    }

    /**
     * The rate of {@code currency}. The first call fetches the table from the source; calls that arrive
     * while it is being fetched wait for it, parked (they leave their carriers free), and fetch nothing
     * themselves. Nothing blocks inside a class initialiser.
     *
     * @throws IllegalArgumentException if the table has no rate for {@code currency}
     * @throws NullPointerException     if {@code currency} is null
     * @throws Exception                what the source threw; the table stays unfetched, and the next call
     *                                  fetches again
     */
    public double rate(String currency) throws Exception {
        throw new UnsupportedOperationException("Rates.rate is not written yet (see the README)");
    }
}
