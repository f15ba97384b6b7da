package course.kit.experiments;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;

/**
 * The service notebook 05 calls: a database behind a pool with a hard limit of {@link #connections()}
 * connections. Notebook 05 and {@link Throttling} use the real one, {@link PostgresPool} (PostgreSQL behind a
 * HikariCP pool); {@link SimulatedDatabase} stands in for it where a run must not depend on a server (the appendix's
 * arrival-spread experiment, the kit's unit tests).
 *
 * <pre>{@code
 * Database db = Postgres.server().pool(50, Duration.ofMillis(250), Duration.ofMillis(400));
 * String row = db.query(17);   // "row 17", after holding a connection for 400 ms
 * }</pre>
 */
public interface Database {
    /**
     * Runs query number {@code id}: takes a connection from the pool, waiting at most
     * {@link #connectionTimeout()} for one to come free, holds it while the database works, gives it back.
     *
     * @return the query's row, {@code "row " + id}
     * @throws java.sql.SQLTransientConnectionException if no connection came free in time, as a JDBC pool
     *                                                  (HikariCP's {@code getConnection()}) reports it
     * @throws SQLException                             if the query itself failed
     * @throws InterruptedException                     if the calling thread is interrupted while it waits
     */
    String query(int id) throws SQLException, InterruptedException;

    /** The pool's shape: its size, how long a caller waits for a connection, how long a query holds one. */
    Shape shape();

    /** The pool's size: the most queries the database runs at once. */
    default int connections() {
        return shape().connections();
    }

    /** How long a caller waits for a connection before it is turned away. */
    default Duration connectionTimeout() {
        return shape().connectionTimeout();
    }

    /** How long each {@link #query} holds its connection while the database works. */
    default Duration hold() {
        return shape().hold();
    }

    /**
     * A pool of {@code connections} connections, where a caller waits at most {@code connectionTimeout} for one
     * and each query holds its connection for {@code hold}; a database may ask for more (a positive hold, a
     * longer time-out).
     */
    record Shape(int connections, Duration connectionTimeout, Duration hold) {
        public Shape {
            if (connections < 1)
                throw new IllegalArgumentException("a pool needs at least 1 connection, not " + connections);
            if (Objects.requireNonNull(connectionTimeout, "connectionTimeout").isNegative())
                throw new IllegalArgumentException("connectionTimeout cannot be negative: " + connectionTimeout);
            if (Objects.requireNonNull(hold, "hold").isNegative())
                throw new IllegalArgumentException("hold cannot be negative: " + hold);
        }
    }
}
