package course.exercises.pinning;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Exercise 06, another shape: a hand-made wait queue. The caller that wins a compare-and-set fetches; the others
 * enqueue themselves and {@link LockSupport#park} until the fetcher unparks them.
 */
public final class Rates {

    /** Where the rates come from: a slow call (it blocks), for example a web service. */
    @FunctionalInterface
    public interface Source {
        /** Fetches every currency's rate. @throws Exception when the call fails */
        Map<String, Double> fetch() throws Exception;
    }

    private final Source source;
    private final AtomicBoolean fetching = new AtomicBoolean();
    private final ConcurrentLinkedQueue<Thread> waiters = new ConcurrentLinkedQueue<>();
    private volatile Map<String, Double> table;

    public Rates(Source source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    public double rate(String currency) throws Exception {
        Objects.requireNonNull(currency, "currency");
        Map<String, Double> t;
        while ((t = table) == null) {
            if (fetching.compareAndSet(false, true)) {
                try {
                    if ((t = table) == null) {
                        t = Map.copyOf(source.fetch());
                        table = t;
                    }
                } finally {
                    fetching.set(false);
                    for (Thread w; (w = waiters.poll()) != null; ) LockSupport.unpark(w);
                }
                break;
            }
            Thread me = Thread.currentThread();
            while (table == null && fetching.get()) {
                // in the queue before each look: a fetch that ends after the look finds this thread there and
                // unparks it (a waiter woken by a failed fetch, that parks again for the next one, is polled
                // from the queue already and must add itself again)
                waiters.add(me);
                if (table == null && fetching.get()) LockSupport.park(this); // woken when the fetch ends
                waiters.remove(me);
            }
        }
        Double r = t.get(currency);
        if (r == null) throw new IllegalArgumentException("no rate for " + currency);
        return r;
    }
}
