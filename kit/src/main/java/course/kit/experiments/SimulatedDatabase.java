package course.kit.experiments;

import course.kit.Format;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A database that answers every query after {@code latency}, behind a pool of {@code connections}
 * connections: a caller waits at most {@code connectionTimeout} for a free one, then gets a
 * {@link SQLTransientConnectionException}, as from a JDBC pool whose connection time-out ran out.
 * A query's thread sleeps while the database works, as it would wait on a socket.
 */
public final class SimulatedDatabase implements Database {
    private final Shape shape;
    private final Semaphore idle; // one permit per connection not in use
    private final AtomicInteger inUse = new AtomicInteger(), peakInUse = new AtomicInteger();

    /** A pool of {@code connections} to a database that takes {@code latency} per query. */
    public SimulatedDatabase(int connections, Duration latency, Duration connectionTimeout) {
        if (Objects.requireNonNull(latency, "latency").isNegative() || latency.isZero()) {
            throw new IllegalArgumentException("latency must be positive, not " + latency);
        }
        this.shape = new Shape(connections, connectionTimeout, latency);
        this.idle = new Semaphore(connections, true); // first come, first served, as a pool's waiters are
    }

    @Override
    public String query(int id) throws SQLTransientConnectionException, InterruptedException {
        if (!idle.tryAcquire(connectionTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
            throw new SQLTransientConnectionException(String.format(
                    "Connection is not available, request timed out after %d ms (total=%d, active=%d)",
                    connectionTimeout().toMillis(), connections(), inUse.get()));
        }
        peakInUse.accumulateAndGet(inUse.incrementAndGet(), Math::max);
        try {
            Thread.sleep(hold()); // the database works; the caller's thread waits
            return "row " + id;
        } finally {
            inUse.decrementAndGet();
            idle.release();
        }
    }

    /** The pool's shape; its {@code hold} is the latency of every query. */
    @Override
    public Shape shape() {
        return shape;
    }

    /** Connections in use right now. */
    public int inUse() {
        return inUse.get();
    }

    /** The most connections that were in use at once, since this database was made. */
    public int peakInUse() {
        return peakInUse.get();
    }

    @Override
    public String toString() {
        return String.format(
                "a database with %d connections, %s per query, %s connection time-out",
                connections(), Format.duration(hold()), Format.duration(connectionTimeout()));
    }
}
