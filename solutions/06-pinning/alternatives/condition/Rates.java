package course.exercises.pinning;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Exercise 06, another shape: a {@link ReentrantLock} guards a "fetching" flag, the fetch runs outside the lock,
 * and callers that find a fetch under way await a {@link Condition}.
 */
public final class Rates {

    /** Where the rates come from: a slow call (it blocks), for example a web service. */
    @FunctionalInterface
    public interface Source {
        /** Fetches every currency's rate. @throws Exception when the call fails */
        Map<String, Double> fetch() throws Exception;
    }

    private final Source source;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition done = lock.newCondition();
    private boolean fetching;
    private Map<String, Double> table;

    public Rates(Source source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    public double rate(String currency) throws Exception {
        Objects.requireNonNull(currency, "currency");
        Map<String, Double> t;
        lock.lock();
        try {
            while (table == null && fetching) done.await();
            t = table;
            if (t == null) fetching = true;
        } finally {
            lock.unlock();
        }
        if (t == null) {
            Map<String, Double> fetched = null;
            try {
                fetched = Map.copyOf(source.fetch());
            } finally {
                lock.lock();
                try {
                    table = fetched; // null again if the fetch failed: the next caller fetches
                    fetching = false;
                    done.signalAll();
                } finally {
                    lock.unlock();
                }
            }
            t = fetched;
        }
        Double r = t.get(currency);
        if (r == null) throw new IllegalArgumentException("no rate for " + currency);
        return r;
    }
}
