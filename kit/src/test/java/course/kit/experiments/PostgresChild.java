package course.kit.experiments;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A JVM of its own for {@link PostgresTest}: starts the embedded server with its folders under {@code args[0]},
 * prints its data folder, port and server process id, and exits normally, leaving the shutdown hook to stop it;
 * with a second argument {@code wait}, it then waits until its standard input ends (or it is killed).
 */
public final class PostgresChild {
    private PostgresChild() {}

    public static void main(String[] args) throws Exception {
        Path parent = Path.of(args[0]);
        Postgres.Server server = Postgres.embedded(parent, 0);
        Path data;
        try (var dirs = Files.list(parent)) {
            data = dirs.filter(p -> p.getFileName().toString().startsWith("course-postgres-data-"))
                    .findFirst()
                    .orElseThrow();
        }
        String pid =
                Files.readAllLines(data.resolve("postmaster.pid")).getFirst().strip();
        try (var c = server.connect();
                var st = c.createStatement();
                var rs = st.executeQuery("SELECT current_user")) {
            rs.next();
            System.out.println("USER " + rs.getString(1));
        }
        System.out.println("OSUSER " + System.getProperty("user.name"));
        System.out.println("DATA " + data);
        System.out.println("PORT " + server.url().replaceAll(".*:(\\d+)/.*", "$1"));
        System.out.println("PID " + pid);
        System.out.println("STARTUP_MS " + server.startup().toMillis());
        if (args.length > 1 && args[1].equals("wait")) {
            System.out.println("WAITING");
            System.out.flush();
            System.in.read();
        }
    }
}
