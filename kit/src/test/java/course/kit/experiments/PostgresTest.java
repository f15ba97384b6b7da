package course.kit.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.FileTrees;
import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real database behind notebook 05: the embedded PostgreSQL server, the HikariCP pool, and a one-paragraph
 * error (cause and fix) for each way it can be unusable. The tests that start a server share this JVM's embedded
 * one ({@link Postgres#server()}); the exit test starts its own in a child JVM.
 */
@Timeout(180)
class PostgresTest {
    @TempDir
    Path tmp;

    @Test
    void theEmbeddedServerAnswersOnLoopbackAndThePoolLendsAtMostItsConnections() throws Exception {
        var server = Postgres.server();
        assertTrue(server.embedded());
        assertTrue(server.url().startsWith("jdbc:postgresql://127.0.0.1:"), server.url());
        assertTrue(server.version().startsWith("PostgreSQL "), server.version());
        assertEquals(Postgres.EMBEDDED_MAX_CONNECTIONS, server.maxConnections());
        try (var db = server.pool(2, Duration.ofMillis(250), Duration.ofSeconds(3))) {
            assertEquals(2, db.mxBean().getIdleConnections()); // filled before pool() returned
            var holding = new CountDownLatch(2);
            var rows = new ArrayList<String>();
            try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
                var calls = new ArrayList<java.util.concurrent.Future<String>>();
                for (int i = 0; i < 2; i++) {
                    int id = i;
                    calls.add(threads.submit(() -> {
                        holding.countDown();
                        return db.query(id);
                    }));
                }
                holding.await();
                while (db.mxBean().getActiveConnections() < 2) Thread.onSpinWait(); // both lent, both in pg_sleep(3)
                var e = assertThrows(SQLTransientConnectionException.class, () -> db.query(9));
                assertTrue(e.getMessage().contains("Connection is not available"), e.getMessage());
                try (var c = server.connect();
                        var q = c.prepareStatement(
                                "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?")) {
                    q.setString(1, db.applicationName());
                    var rs = q.executeQuery();
                    rs.next();
                    assertEquals(2, rs.getInt(1)); // the server's view: exactly the pool's connections
                }
                for (var f : calls) rows.add(f.get());
            }
            assertEquals(List.of("row 0", "row 1"), rows);
        }
    }

    @Test
    void aPoolLargerThanTheServersMaxConnectionsIsRefusedWithTheFigures() {
        var e = assertThrows(
                DatabaseUnavailable.class, () -> Postgres.server().pool(200, Duration.ofMillis(250), Duration.ZERO));
        String m = e.getMessage();
        assertTrue(m.contains("A pool of 200 connections does not fit"), m);
        assertTrue(m.contains("max_connections = " + Postgres.EMBEDDED_MAX_CONNECTIONS), m);
        assertTrue(m.contains("Fix: ask for at most"), m);
    }

    @Test
    void aForeignArchitectureIsNamedWithTheWayOut() {
        Postgres.requirePlatform("Linux", "amd64");
        Postgres.requirePlatform("Linux", "aarch64");
        var e = assertThrows(DatabaseUnavailable.class, () -> Postgres.requirePlatform("Linux", "ppc64le"));
        assertTrue(e.getMessage().contains("Linux/ppc64le"), e.getMessage());
        assertTrue(e.getMessage().contains("amd64 and arm64 only"), e.getMessage());
        assertTrue(e.getMessage().contains("set COURSE_JDBC_URL"), e.getMessage());
        var mac = assertThrows(DatabaseUnavailable.class, () -> Postgres.requirePlatform("Mac OS X", "aarch64"));
        assertTrue(mac.getMessage().contains("Mac OS X/aarch64"), mac.getMessage());
    }

    @Test
    void aPortThatIsTakenIsNamed() throws Exception {
        try (var taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = taken.getLocalPort();
            var e = assertThrows(DatabaseUnavailable.class, () -> Postgres.embedded(tmp, port));
            assertTrue(e.getMessage().contains("cannot listen on 127.0.0.1:" + port), e.getMessage());
            assertTrue(e.getMessage().contains("another program holds that port"), e.getMessage());
            assertTrue(e.getMessage().contains("Fix:"), e.getMessage());
        }
        try (var left = Files.list(tmp)) {
            assertEquals(
                    List.of(),
                    left.filter(p -> p.getFileName().toString().startsWith("course-postgres-data-"))
                            .toList());
        }
    }

    @Test
    void aFolderThatCannotBeWrittenIsNamedWithTheWayOut() throws Exception {
        Path notAFolder = Files.writeString(tmp.resolve("a-file"), "not a folder");
        var e = assertThrows(DatabaseUnavailable.class, () -> Postgres.embedded(notAFolder, 0));
        assertTrue(e.getMessage().contains("could not write there"), e.getMessage());
        assertTrue(e.getMessage().contains(notAFolder.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("free some disk space"), e.getMessage());
        assertTrue(e.getMessage().contains("-Djava.io.tmpdir="), e.getMessage());
    }

    @Test
    void anUnreachableCourseJdbcUrlIsNamedQuickly() throws Exception {
        int closed;
        try (var s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort(); // free again once closed: nothing listens there
        }
        var env = Map.of(
                Postgres.URL_VARIABLE,
                "jdbc:postgresql://127.0.0.1:" + closed + "/course",
                Postgres.USER_VARIABLE,
                "learner");
        var e = assertThrows(DatabaseUnavailable.class, () -> Postgres.fromEnvironment(env));
        String m = e.getMessage();
        assertTrue(
                m.startsWith("COURSE_JDBC_URL=jdbc:postgresql://127.0.0.1:" + closed
                        + "/course cannot be reached as user learner"),
                m);
        assertTrue(m.contains("Connection") && m.contains("refused"), m);
        assertTrue(m.contains("unset COURSE_JDBC_URL"), m);
        var bad = assertThrows(
                DatabaseUnavailable.class, () -> Postgres.fromEnvironment(Map.of(Postgres.URL_VARIABLE, "mysql://x")));
        assertTrue(bad.getMessage().contains("is not a PostgreSQL JDBC URL"), bad.getMessage());
    }

    @Test
    void whenTheJvmExitsTheServerStopsAndItsDataFolderIsDeleted() throws Exception {
        childRun(tmp, null);
    }

    /** A killed kernel runs no shutdown hook: the watcher the kit leaves behind stops the server and deletes its data. */
    @Test
    @Timeout(120)
    void whenTheJvmIsKilledTheWatcherStopsTheServerAndDeletesItsData() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        var proc = new ProcessBuilder(
                        java,
                        "-cp",
                        String.join(File.pathSeparator, classPath()),
                        PostgresChild.class.getName(),
                        tmp.toString(),
                        "wait")
                .redirectErrorStream(true)
                .start();
        var out = new HashMap<String, String>();
        var lines = new java.io.BufferedReader(new java.io.InputStreamReader(proc.getInputStream()));
        for (String line; (line = lines.readLine()) != null && !line.equals("WAITING"); ) {
            int sp = line.indexOf(' ');
            if (sp > 0) out.put(line.substring(0, sp), line.substring(sp + 1));
        }
        assertTrue(out.containsKey("DATA") && out.containsKey("PID"), "the child printed " + out);
        Path data = Path.of(out.get("DATA"));
        long pid = Long.parseLong(out.get("PID"));
        assertTrue(running(pid) && Files.isDirectory(data), "the server runs before the kill");
        proc.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook runs
        while (running(pid) || Files.exists(data)) Thread.sleep(100); // the watcher's work; @Timeout bounds it
        assertFalse(running(pid));
        assertFalse(Files.exists(data));
    }

    /** As root (CI, the development machines), also as an unprivileged user, as the Docker image's notebook user. */
    @Test
    void anUnprivilegedUserCanStartItToo() throws Exception {
        boolean root = "root".equals(System.getProperty("user.name"));
        org.junit.jupiter.api.Assumptions.assumeTrue(
                root && Files.isExecutable(Path.of("/usr/sbin/runuser")),
                "runs as root only: it starts the child JVM as user nobody with runuser");
        Path open = Files.createTempDirectory("course-postgres-test-");
        try {
            Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
            Path cp = Files.createDirectory(open.resolve("cp"));
            var entries = new ArrayList<String>();
            int k = 0;
            for (String e : classPath()) {
                Path from = Path.of(e);
                if (!Files.exists(from)) continue;
                Path to = cp.resolve((k++) + "-" + from.getFileName());
                FileTrees.copy(from, to);
                entries.add(to.toString());
            }
            try (var all = Files.walk(open)) {
                for (Path p : all.toList()) p.toFile().setReadable(true, false);
            }
            try (var dirs = Files.walk(cp)) {
                for (Path p : dirs.filter(Files::isDirectory).toList())
                    p.toFile().setExecutable(true, false);
            }
            Path parent = Files.createDirectory(open.resolve("run"));
            Files.setPosixFilePermissions(parent, PosixFilePermissions.fromString("rwxrwxrwx"));
            Map<String, String> out = childRun(parent, List.of(String.join(File.pathSeparator, entries)));
            assertEquals("nobody", out.get("OSUSER"));
        } finally {
            FileTrees.delete(open);
        }
    }

    /** Runs {@link PostgresChild} in a JVM of its own (as nobody when {@code asNobodyClassPath} is given), checks what it left. */
    private static Map<String, String> childRun(Path parent, List<String> asNobodyClassPath) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        var cmd = new ArrayList<String>();
        if (asNobodyClassPath != null) cmd.addAll(List.of("/usr/sbin/runuser", "-u", "nobody", "--"));
        cmd.addAll(List.of(
                java,
                "-cp",
                asNobodyClassPath != null ? asNobodyClassPath.getFirst() : String.join(File.pathSeparator, classPath()),
                PostgresChild.class.getName(),
                parent.toString()));
        var proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(proc.getInputStream().readAllBytes());
        assertEquals(0, proc.waitFor(), output);
        var out = new HashMap<String, String>();
        for (String line : output.lines().toList()) {
            int sp = line.indexOf(' ');
            if (sp > 0) out.put(line.substring(0, sp), line.substring(sp + 1));
        }
        assertTrue(out.containsKey("DATA") && out.containsKey("PORT") && out.containsKey("PID"), output);
        assertFalse(Files.exists(Path.of(out.get("DATA"))), "data folder left: " + out.get("DATA"));
        assertFalse(running(Long.parseLong(out.get("PID"))), "postgres process left: " + out.get("PID"));
        int port = Integer.parseInt(out.get("PORT"));
        assertThrows(
                ConnectException.class,
                () -> {
                    try (var s = new Socket()) {
                        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2_000);
                    }
                },
                "something still listens on " + port);
        return out;
    }

    /** Whether a live (not a zombie) process {@code pid} exists. */
    private static boolean running(long pid) throws IOException {
        Path stat = Path.of("/proc", String.valueOf(pid), "stat");
        if (!Files.exists(stat)) return false;
        String s;
        try {
            s = Files.readString(stat);
        } catch (IOException gone) {
            return false;
        }
        char state = s.charAt(s.lastIndexOf(')') + 2);
        return state != 'Z' && state != 'X';
    }

    private static List<String> classPath() {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return List.of(cp.split(File.pathSeparator));
    }
}
