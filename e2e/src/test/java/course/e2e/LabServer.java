package course.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openqa.selenium.json.Json;

/**
 * {@code ./course lab} started as a learner starts it, on a free port of 127.0.0.1 and with a known
 * token, and stopped with everything it started (the Jupyter server and its kernels).
 *
 * <p>Its output goes to a log file, and {@link #awaitUrl} reads the URL that {@code ./course lab}
 * prints for the learner. Closing sends the server SIGTERM (Jupyter then shuts its kernels down) and
 * kills whatever is left after a grace period.
 */
final class LabServer implements AutoCloseable {

    private static final Pattern URL = Pattern.compile("(http://\\S+\\?token=[0-9A-Za-z]+)");

    private final Process process;
    private final int port;
    private final String token;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread pump;

    private LabServer(Process process, int port, String token, Path log) {
        this.process = process;
        this.port = port;
        this.token = token;
        this.pump = Thread.ofPlatform().daemon().name("lab-log").start(() -> copyOutput(log));
    }

    /** Starts {@code ROOT/course lab --port PORT} with {@code env} added to this JVM's environment. */
    static LabServer start(Path root, int port, String token, Path log, Map<String, String> env) throws IOException {
        Files.createDirectories(log.getParent());
        Files.deleteIfExists(log);
        var pb = new ProcessBuilder(root.resolve("course").toString(), "lab", "--port", Integer.toString(port))
                .directory(root.toFile())
                .redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().put("JUPYTER_TOKEN", token);
        return new LabServer(pb.start(), port, token, log);
    }

    /** A TCP port nobody listens on right now. */
    static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    private void copyOutput(Path log) {
        try (var in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
                Files.writeString(
                        log,
                        line + System.lineSeparator(),
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            }
        } catch (IOException e) {
            lines.add("[log copy stopped: " + e + "]");
        }
    }

    /** The URL {@code ./course lab} printed for the learner. */
    URI awaitUrl(Duration limit) throws InterruptedException {
        Instant end = Instant.now().plus(limit);
        while (Instant.now().isBefore(end)) {
            for (String line : lines) {
                Matcher m = URL.matcher(line);
                if (m.find()) {
                    return URI.create(m.group(1));
                }
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("./course lab exited with " + process.exitValue() + ":\n" + tail());
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("./course lab printed no URL within " + limit + ":\n" + tail());
    }

    /** Waits until the server answers an authenticated API call (the token is required). */
    void awaitReady(Duration limit) throws InterruptedException {
        var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        var status = URI.create("http://127.0.0.1:" + port + "/api/status");
        Instant end = Instant.now().plus(limit);
        while (Instant.now().isBefore(end)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("./course lab exited with " + process.exitValue() + ":\n" + tail());
            }
            try {
                var withToken = HttpRequest.newBuilder(status)
                        .header("Authorization", "token " + token)
                        .timeout(Duration.ofSeconds(5))
                        .build();
                if (http.send(withToken, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(300);
        }
        throw new IllegalStateException("the server did not answer within " + limit + ":\n" + tail());
    }

    /** The status code of an API call made without the token (the server must refuse it). */
    int statusWithoutToken() throws IOException, InterruptedException {
        var http = HttpClient.newHttpClient();
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/contents"))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /**
     * Shuts down every kernel the server runs, through its REST API (DELETE of each session, then of any kernel
     * left): what a learner's "Shut Down All Kernels" does, so that the next page starts a kernel of its own.
     */
    void shutDownKernels() throws IOException, InterruptedException {
        var http = HttpClient.newHttpClient();
        for (String what : List.of("sessions", "kernels")) {
            var list = http.send(api("GET", what), HttpResponse.BodyHandlers.ofString());
            if (list.statusCode() != 200) {
                throw new IOException("GET /api/" + what + ": " + list.statusCode() + " " + list.body());
            }
            List<Map<String, Object>> items = new Json().toType(list.body(), Json.LIST_OF_MAPS_TYPE);
            for (Map<String, Object> item : items) {
                var gone = http.send(api("DELETE", what + "/" + item.get("id")), HttpResponse.BodyHandlers.ofString());
                if (gone.statusCode() != 204 && gone.statusCode() != 404) {
                    throw new IOException("DELETE /api/" + what + "/" + item.get("id") + ": " + gone.statusCode());
                }
            }
        }
    }

    private HttpRequest api(String method, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/" + path))
                .header("Authorization", "token " + token)
                .timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build();
    }

    String tail() {
        int from = Math.max(0, lines.size() - 40);
        return String.join("\n", lines.subList(from, lines.size()));
    }

    @Override
    public void close() throws InterruptedException {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy(); // SIGTERM: the server stops its kernels
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        for (ProcessHandle child : children) {
            if (child.isAlive()) {
                child.destroyForcibly();
            }
        }
        pump.join(Duration.ofSeconds(5));
        for (ProcessHandle child : children) {
            try {
                child.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception stillThere) {
                throw new IllegalStateException("process " + child.pid() + " outlived the test", stillThere);
            }
        }
    }

    static void checkExecutable(Path p) {
        if (!Files.isExecutable(p)) {
            throw new UncheckedIOException(new IOException(p + " is missing or not executable"));
        }
    }
}
