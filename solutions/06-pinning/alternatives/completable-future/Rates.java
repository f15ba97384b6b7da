package course.exercises.pinning;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Exercise 06, another shape: the first caller installs a {@link CompletableFuture} and completes it with the
 * fetch; the others {@code join()} it.
 */
public final class Rates {

    /** Where the rates come from: a slow call (it blocks), for example a web service. */
    @FunctionalInterface
    public interface Source {
        /** Fetches every currency's rate. @throws Exception when the call fails */
        Map<String, Double> fetch() throws Exception;
    }

    private final Source source;
    private final AtomicReference<CompletableFuture<Map<String, Double>>> table = new AtomicReference<>();

    public Rates(Source source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    public double rate(String currency) throws Exception {
        Objects.requireNonNull(currency, "currency");
        var mine = new CompletableFuture<Map<String, Double>>();
        CompletableFuture<Map<String, Double>> shared = table.compareAndExchange(null, mine);
        Map<String, Double> t;
        if (shared == null) {
            try {
                t = Map.copyOf(source.fetch());
                mine.complete(t);
            } catch (Throwable e) { // an Error too: the waiters must hear of every failure
                table.set(null); // forgotten before anyone hears of it: the next call fetches again
                mine.completeExceptionally(e);
                throw e;
            }
        } else {
            try {
                t = shared.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof Exception cause) throw cause;
                throw e;
            }
        }
        Double r = t.get(currency);
        if (r == null) throw new IllegalArgumentException("no rate for " + currency);
        return r;
    }
}
