package course.kit.experiments;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import course.kit.Format;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * A HikariCP pool of {@link #connections()} connections to a real PostgreSQL server ({@link Target}: {@link Postgres.Server} is one), filled before
 * the constructor returns. {@link #query} borrows a connection ({@code getConnection()}, waiting at most
 * {@link #connectionTimeout()}), runs {@code SELECT 'row ' || id, pg_sleep(hold)} (the thread waits on the socket
 * for the server's answer) and gives the connection back.
 *
 * <p>Every connection carries the application name {@link #applicationName()}, so the server's
 * {@code pg_stat_activity} tells this pool's connections apart from any other client's.
 */
public final class PostgresPool implements Database, AutoCloseable {
    /** What a pool needs of a server: where it is, who logs in, a connection for its own questions, its version. */
    public interface Target {
        /** Its JDBC URL. */
        String url();

        /** The user to log in as. */
        String user();

        /** That user's password ("" for none). */
        String password();

        /** A new connection, with the course's connect and login time-outs. */
        Connection connect() throws SQLException;

        /** The server's number, for example "PostgreSQL 18.1". */
        String shortVersion();
    }

    /** How long to wait for a server to answer before giving up (Postgres's own connections too). */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** HikariCP's floor: a {@code connectionTimeout} under 250 ms is refused. */
    public static final Duration MIN_CONNECTION_TIMEOUT = Duration.ofMillis(250);
    /** How long the pool may take to open all its connections. */
    static final Duration FILL_WAIT = Duration.ofSeconds(30);

    private static final String BLOCK_UNTIL_FILLED = "com.zaxxer.hikari.blockUntilFilled";

    private final Target server;
    private final Shape shape;
    private final String applicationName;
    private final HikariDataSource pool;
    private Duration waveOverhead;

    PostgresPool(Target server, int connections, Duration connectionTimeout, Duration hold) {
        this.server = Objects.requireNonNull(server, "server");
        this.shape = new Shape(connections, connectionTimeout, hold);
        if (connectionTimeout.compareTo(MIN_CONNECTION_TIMEOUT) < 0) {
            throw new IllegalArgumentException(
                    "HikariCP's connectionTimeout is at least 250 ms, not " + connectionTimeout);
        }
        this.applicationName = "vthreads-course-" + ProcessHandle.current().pid();
        requireRoom(server, connections);

        var config = new HikariConfig();
        config.setPoolName("course-pool");
        config.setJdbcUrl(server.url());
        config.setUsername(server.user());
        if (!server.password().isEmpty()) config.setPassword(server.password());
        config.setMaximumPoolSize(connections);
        config.setMinimumIdle(connections); // open them all now, not during the experiment
        config.setConnectionTimeout(connectionTimeout.toMillis());
        config.setInitializationFailTimeout(CONNECT_TIMEOUT.toMillis());
        config.addDataSourceProperty("ApplicationName", applicationName);
        config.addDataSourceProperty("connectTimeout", String.valueOf(CONNECT_TIMEOUT.toSeconds()));
        // HikariCP opens the connections on min(16, cores) threads, not one, when asked to block until the pool is
        // full (its own system property, read by each new pool): about 1.7 s instead of 3 s for 50 on 2 cores.
        String block = System.setProperty(BLOCK_UNTIL_FILLED, "true");
        try {
            pool = new HikariDataSource(config);
        } catch (RuntimeException e) {
            throw new DatabaseUnavailable(
                    String.format(
                            "The pool could not open a connection to %s: %s. Fix: check "
                                    + "that the server is running and accepts user %s; then run this cell again.",
                            server.url(), DatabaseUnavailable.rootMessage(e), server.user()),
                    e);
        } finally {
            if (block == null) System.clearProperty(BLOCK_UNTIL_FILLED);
            else System.setProperty(BLOCK_UNTIL_FILLED, block);
        }
        awaitFilled();
    }

    /**
     * Throws {@link DatabaseUnavailable} when the server has fewer free connection slots than {@code wanted}: its
     * {@code max_connections}, less the slots it keeps for superusers and the connections already open.
     */
    static void requireRoom(Target server, int wanted) {
        int max, reserved, open;
        try (Connection c = server.connect();
                var st = c.createStatement();
                var rs = st.executeQuery("SELECT current_setting('max_connections')::int, "
                        + "current_setting('superuser_reserved_connections')::int "
                        + "+ coalesce(current_setting('reserved_connections', true)::int, 0), "
                        + "(SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')::int - 1")) {
            rs.next();
            max = rs.getInt(1);
            reserved = rs.getInt(2);
            open = rs.getInt(3);
        } catch (SQLException e) {
            throw new DatabaseUnavailable(
                    String.format(
                            "The server at %s did not answer: %s. Fix: check that it is "
                                    + "running; then run this cell again.",
                            server.url(), DatabaseUnavailable.rootMessage(e)),
                    e);
        }
        int free = max - reserved - open;
        if (wanted > free) {
            throw new DatabaseUnavailable(
                    String.format(
                            Locale.ROOT,
                            "A pool of %d connections does not fit: the server "
                                    + "allows max_connections = %d, keeps %d of them for superusers, and %d are open already, so only %d "
                                    + "are free. The pool would wait for connections the server refuses. Fix: ask for at most %d "
                                    + "connections, or raise max_connections on the server (postgresql.conf, then restart it).",
                            wanted,
                            max,
                            reserved,
                            open,
                            Math.max(0, free),
                            Math.max(0, free)),
                    null);
        }
    }

    private void awaitFilled() {
        long deadline = System.nanoTime() + FILL_WAIT.toNanos();
        HikariPoolMXBean mx = pool.getHikariPoolMXBean();
        while (mx.getTotalConnections() < connections() || mx.getIdleConnections() < connections()) {
            if (System.nanoTime() > deadline) {
                int total = mx.getTotalConnections();
                pool.close();
                throw new DatabaseUnavailable(
                        String.format(
                                "The pool opened only %d of its %d connections to %s in %d s. "
                                        + "Fix: check the server's max_connections and load; then run this cell again.",
                                total, connections(), server.url(), FILL_WAIT.toSeconds()),
                        null);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                pool.close();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the pool opened its connections", e);
            }
        }
    }

    /**
     * Query number {@code id}: borrows a connection (waiting at most {@link #connectionTimeout()}), runs
     * {@code SELECT 'row ' || id, pg_sleep(hold)} on it, gives it back.
     *
     * @return {@code "row " + id}
     * @throws java.sql.SQLTransientConnectionException if HikariCP found no free connection in time
     */
    @Override
    public String query(int id) throws SQLException {
        try (Connection c = pool.getConnection();
                var st = c.prepareStatement("SELECT 'row ' || ?, pg_sleep(?)")) {
            st.setInt(1, id);
            st.setDouble(2, hold().toNanos() / 1e9);
            try (var rs = st.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /**
     * How long one wave of {@link #connections()} queries takes beyond its {@code pg_sleep}: the round trips, the
     * server's work and the wake-ups, measured once on this pool (the median of three waves of
     * {@code SELECT pg_sleep(0)}, one virtual thread per connection).
     */
    public synchronized Duration waveOverhead() throws InterruptedException {
        if (waveOverhead == null) {
            long[] t = new long[3];
            for (int k = 0; k < t.length; k++) {
                long t0 = System.nanoTime();
                try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
                    for (int i = 0; i < connections(); i++) {
                        threads.submit(() -> {
                            try (Connection c = pool.getConnection();
                                    var st = c.createStatement()) {
                                st.execute("SELECT pg_sleep(0)");
                            }
                            return null;
                        });
                    }
                }
                t[k] = System.nanoTime() - t0;
            }
            java.util.Arrays.sort(t);
            waveOverhead = Duration.ofNanos(t[1]);
        }
        return waveOverhead;
    }

    /** The pool's live numbers: active, idle and total connections, threads waiting for one. */
    public HikariPoolMXBean mxBean() {
        return pool.getHikariPoolMXBean();
    }

    /** The JDBC {@code DataSource} itself, for cells that write their own queries. */
    public HikariDataSource dataSource() {
        return pool;
    }

    /** The server behind the pool. */
    public Target server() {
        return server;
    }

    /** The {@code application_name} of this pool's connections, as {@code pg_stat_activity} shows it. */
    public String applicationName() {
        return applicationName;
    }

    /** The pool's shape; its {@code hold} is each {@link #query}'s {@code pg_sleep}. */
    @Override
    public Shape shape() {
        return shape;
    }

    /** Closes every connection of the pool. */
    @Override
    public void close() {
        pool.close();
    }

    @Override
    public String toString() {
        return String.format(
                "a HikariCP pool of %d connections to %s, connectionTimeout %s, %s per query",
                connections(), server.shortVersion(), Format.duration(connectionTimeout()), Format.duration(hold()));
    }
}
