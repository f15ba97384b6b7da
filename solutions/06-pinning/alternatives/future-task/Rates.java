package course.exercises.pinning;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicReference;

/** Exercise 06, another shape: the callers share one {@link FutureTask}; the first runs it, the others wait in get. */
public final class Rates {

    /** Where the rates come from: a slow call (it blocks), for example a web service. */
    @FunctionalInterface
    public interface Source {
        /** Fetches every currency's rate. @throws Exception when the call fails */
        Map<String, Double> fetch() throws Exception;
    }

    private final Source source;
    private final AtomicReference<FutureTask<Map<String, Double>>> table = new AtomicReference<>();

    public Rates(Source source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    public double rate(String currency) throws Exception {
        Objects.requireNonNull(currency, "currency");
        FutureTask<Map<String, Double>> task = table.get();
        if (task == null) {
            var mine = new FutureTask<>(() -> Map.copyOf(source.fetch()));
            if (table.compareAndSet(null, mine)) {
                mine.run(); // this caller fetches; the others park in get() until it is done
                task = mine;
            } else {
                task = table.get();
            }
        }
        Map<String, Double> t;
        try {
            t = task.get();
        } catch (ExecutionException e) {
            table.compareAndSet(task, null); // a failed fetch is forgotten: the next call fetches again
            if (e.getCause() instanceof Exception cause) throw cause;
            throw e;
        }
        Double r = t.get(currency);
        if (r == null) throw new IllegalArgumentException("no rate for " + currency);
        return r;
    }
}
