package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import course.kit.Prediction.Model;
import course.kit.experiments.HttpService;
import course.kit.models.PoolModel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The class view, against a real HTTP server on 127.0.0.1; the environment is a map, never this machine's. */
class ClassViewTest {
    private static final String PATH = "/services/class-view/api/events";
    private static final String TOKEN = "secret-token-of-this-learner";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request as the server got it. */
    private record Request(String method, String path, String authorization, String contentType, String body) {
        JsonNode json() throws IOException {
            return JSON.readTree(body);
        }

        Set<String> fields() throws IOException {
            var names = new TreeSet<String>();
            json().fieldNames().forEachRemaining(names::add);
            return names;
        }
    }

    @TempDir
    Path dir;

    private HttpServer server;
    private final ConcurrentLinkedQueue<Request> requests = new ConcurrentLinkedQueue<>();
    private volatile int status = 204;
    private final AtomicInteger clientsMade = new AtomicInteger();
    private Path settings;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            requests.add(new Request(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    new String(body, StandardCharsets.UTF_8)));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        settings = dir.resolve("home/.config/vthreads-course/settings.properties");
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
    }

    /** A hub's environment for notebook 02, with {@code more} added (or, with a null value, removed). */
    private Map<String, String> hub(String... more) {
        var env = new HashMap<String, String>();
        env.put(ClassView.URL_VARIABLE, url());
        env.put(ClassView.TOKEN_VARIABLE, TOKEN);
        env.put(ClassView.SESSION_VARIABLE, "/home/learner/notebooks/02-cafe-simulation.ipynb");
        env.put("HOME", "/nonexistent-home-of-the-test");
        for (int i = 0; i < more.length; i += 2) {
            if (more[i + 1] == null) env.remove(more[i]);
            else env.put(more[i], more[i + 1]);
        }
        return env;
    }

    /** The class view of {@code env}, counting the HTTP clients it makes (one per send that goes out). */
    private ClassView view(Map<String, String> env) {
        return ClassView.from(env, settings, () -> {
            clientsMade.incrementAndGet();
            return ClassView.newClient();
        });
    }

    /** Runs {@code cell} with {@code view} as the kernel's class view and System.out captured, then waits for it. */
    private static void inCell(ClassView view, Runnable cell) throws InterruptedException {
        ClassView before = ClassView.use(view);
        PrintStream out = System.out;
        System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try {
            cell.run();
        } finally {
            System.setOut(out);
            ClassView.use(before);
        }
        view.flush();
    }

    /** What {@code run} prints to System.err, in lines. */
    private static List<String> stderrOf(ThrowingRunnable run) throws Exception {
        PrintStream err = System.err;
        var captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            run.run();
        } finally {
            System.setErr(err);
        }
        String s = captured.toString(StandardCharsets.UTF_8);
        return s.isEmpty() ? List.of() : s.lines().toList();
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static Model cafe() {
        return Model.of("⌈N/P⌉ · t", PoolModel.batchTime(10_000, 200, Duration.ofSeconds(1)))
                .ifNear(Duration.ofSeconds(1), "one wave, t");
    }

    private Request only() {
        assertEquals(1, requests.size(), requests.toString());
        return requests.poll();
    }

    private static Map<String, Object> event(Object... kv) {
        var e = new LinkedHashMap<String, Object>();
        for (int i = 0; i < kv.length; i += 2) e.put((String) kv[i], kv[i + 1]);
        return e;
    }

    @Test
    void aGuessItsOutcomeAndASelfCheckAreEachSentOnceWithTheHubsToken() throws Exception {
        ClassView view = view(hub());
        var p = new Prediction[1];
        inCell(view, () -> p[0] = Prediction.of("10,000 customers × 1 s on a pool of 200", Duration.ofSeconds(50)));
        Request guess = only();
        assertEquals("POST", guess.method());
        assertEquals(PATH, guess.path());
        assertEquals("token " + TOKEN, guess.authorization());
        assertEquals("application/json", guess.contentType());
        assertEquals(Set.of("kind", "notebook", "question", "guess", "unit"), guess.fields());
        JsonNode g = guess.json();
        assertEquals("guess", g.get("kind").asText());
        assertEquals("02-cafe-simulation", g.get("notebook").asText());
        assertEquals(
                "10,000 customers × 1 s on a pool of 200", g.get("question").asText());
        assertEquals(50_000.0, g.get("guess").asDouble());
        assertEquals("ms", g.get("unit").asText());

        inCell(view, () -> p[0].against(cafe(), Duration.ofMillis(50_200)));
        Request outcome = only();
        assertEquals("token " + TOKEN, outcome.authorization());
        JsonNode o = outcome.json();
        assertEquals("outcome", o.get("kind").asText());
        assertEquals("02-cafe-simulation", o.get("notebook").asText());
        assertEquals(
                "10,000 customers × 1 s on a pool of 200", o.get("question").asText());
        assertTrue(o.get("given").asBoolean());
        assertEquals(50_000.0, o.get("guess").asDouble());
        assertEquals(50_000.0, o.get("model").asDouble());
        assertEquals("⌈N/P⌉ · t", o.get("formula").asText());
        assertEquals(50_200.0, o.get("measured").asDouble());
        assertEquals("ms", o.get("unit").asText());
        assertEquals("close", o.get("verdict").asText());

        inCell(view, () -> SelfCheck.answer("zz.1", Duration.ofSeconds(35)));
        Request mark = only();
        assertEquals("token " + TOKEN, mark.authorization());
        assertEquals(Set.of("kind", "notebook", "id", "answered", "correct"), mark.fields());
        JsonNode m = mark.json();
        assertEquals("selfcheck", m.get("kind").asText());
        assertEquals("02-cafe-simulation", m.get("notebook").asText());
        assertEquals("zz.1", m.get("id").asText());
        assertTrue(m.get("answered").asBoolean());
        assertTrue(m.get("correct").asBoolean());
        assertEquals(3, clientsMade.get(), "one client per send");
    }

    @Test
    void aSelfCheckSendsItsMarkButNeverTheAnswerNorTheExpectedOne() throws Exception {
        ClassView view = view(hub());
        inCell(view, () -> SelfCheck.answer("zz.2", 987.25)); // expects 21
        inCell(view, () -> SelfCheck.answer("zz.3", SelfCheck.Choice.NONE)); // the placeholder; expects B
        var wrong = requests.poll();
        assertEquals(Set.of("kind", "notebook", "id", "answered", "correct"), wrong.fields());
        assertTrue(wrong.json().get("answered").asBoolean());
        assertFalse(wrong.json().get("correct").asBoolean());
        assertFalse(wrong.body().contains("987"), wrong.body());
        assertFalse(wrong.body().contains("21"), wrong.body());
        var none = only();
        assertEquals(Set.of("kind", "notebook", "id", "answered", "correct"), none.fields());
        assertFalse(none.json().get("answered").asBoolean());
        assertFalse(none.body().contains("NONE") || none.body().contains("\"B\""), none.body());
    }

    @Test
    void aPlaceholderGuessSendsNoGuessButItsOutcomeSaysNoneWasGiven() throws Exception {
        ClassView view = view(hub());
        var p = new Prediction[1];
        inCell(view, () -> p[0] = Prediction.of("10,000 customers × 1 s on a pool of 200", Duration.ZERO));
        inCell(view, () -> Prediction.of("µs to start one platform thread", 0, "µs"));
        assertEquals(List.of(), List.copyOf(requests));
        assertEquals(0, clientsMade.get());

        inCell(view, () -> p[0].against(cafe(), Duration.ofMillis(50_200)));
        JsonNode o = only().json();
        assertEquals("outcome", o.get("kind").asText());
        assertFalse(o.get("given").asBoolean());
        assertTrue(o.has("guess") && o.get("guess").isNull(), o.toString());
        assertEquals("none", o.get("verdict").asText());
        assertEquals(50_200.0, o.get("measured").asDouble());
    }

    @Test
    void numbersThatAreNotFiniteAreWrittenAsNull() throws Exception {
        ClassView view = view(hub());
        var p = new Prediction[1];
        inCell(view, () -> p[0] = Prediction.of("a number", 5, "µs"));
        requests.clear();
        inCell(view, () -> p[0].against(Model.of("c", 5, "µs"), Double.NaN));
        Request r = only();
        assertFalse(r.body().contains("NaN"), r.body());
        JsonNode o = r.json();
        assertTrue(o.has("measured") && o.get("measured").isNull(), r.body());
        assertTrue(o.has("ratio") && o.get("ratio").isNull(), r.body());
        assertEquals(5.0, o.get("model").asDouble());

        var direct =
                event("kind", "test", "nan", Double.NaN, "inf", Double.POSITIVE_INFINITY, "f", Float.NaN, "x", 1.5);
        assertEquals("{\"kind\":\"test\",\"nan\":null,\"inf\":null,\"f\":null,\"x\":1.5}", ClassView.json(direct));
    }

    @Test
    void withoutTheUrlOrTheTokenNothingIsSentAndNoClientIsMade() throws Exception {
        List<Map<String, String>> envs = List.of(
                hub(ClassView.URL_VARIABLE, null),
                hub(ClassView.TOKEN_VARIABLE, null),
                hub(ClassView.TOKEN_VARIABLE, " "),
                hub(ClassView.URL_VARIABLE, ""),
                Map.of());
        for (var env : envs) {
            ClassView view = view(env);
            assertFalse(view.configured(), env.toString());
            var err = stderrOf(() -> {
                inCell(view, () -> {
                    Prediction.of("q", 3, "ms").against(Model.of("c", 3, "ms"), 3);
                    SelfCheck.answer("zz.4", false);
                });
                view.send(event("kind", "guess", "guess", 1.0));
                view.flush();
            });
            assertEquals(List.of(), err, env.toString());
        }
        assertEquals(List.of(), List.copyOf(requests));
        assertEquals(0, clientsMade.get(), "no network at all");
    }

    @Test
    void courseClassViewOffInTheEnvironmentSendsNothing() throws Exception {
        for (String off : List.of("off", "OFF", " Off ")) {
            ClassView view = view(hub(ClassView.SWITCH_VARIABLE, off));
            inCell(view, () -> {
                Prediction.of("q", 3, "ms").against(Model.of("c", 3, "ms"), 3);
                SelfCheck.answer("zz.4", false);
            });
        }
        assertEquals(List.of(), List.copyOf(requests));
        assertEquals(0, clientsMade.get());
        // any other value leaves it on
        ClassView on = view(hub(ClassView.SWITCH_VARIABLE, "on"));
        inCell(on, () -> SelfCheck.answer("zz.4", false));
        assertEquals("selfcheck", only().json().get("kind").asText());
    }

    @Test
    void theSettingsLineTurnsItOffAtTheNextSendAndOnTurnsItBack() throws Exception {
        ClassView view = view(hub());
        view.send(event("kind", "guess", "guess", 1.0));
        view.flush();
        assertEquals(1, requests.size());

        // off() makes the folder, keeps what else the file holds, and needs no new class view (no restart)
        String said = ClassView.off(settings);
        assertTrue(said.startsWith("class view: off; "), said);
        assertTrue(said.contains(settings.toString()), said);
        assertEquals(List.of("class-view=off"), Files.readAllLines(settings));
        Files.write(settings, List.of("# mine", "other = 1", "class-view=off"));
        view.send(event("kind", "guess", "guess", 2.0));
        view.flush();
        assertEquals(1, requests.size(), "nothing sent while the file says off");
        assertEquals(1, clientsMade.get(), "and no client made");

        said = ClassView.on(settings, hub());
        assertTrue(said.startsWith("class view: on; "), said);
        assertEquals(List.of("# mine", "other = 1"), Files.readAllLines(settings));
        view.send(event("kind", "guess", "guess", 3.0));
        view.flush();
        assertEquals(2, requests.size());

        // written by hand, with spaces and a colon, it is off as well; on() removes that line too
        Files.write(settings, List.of("class-view : OFF"));
        view.send(event("kind", "guess", "guess", 4.0));
        view.flush();
        assertEquals(2, requests.size());
        ClassView.on(settings, hub());
        assertEquals(List.of(), Files.readAllLines(settings));
        view.send(event("kind", "guess", "guess", 5.0));
        view.flush();
        assertEquals(3, requests.size());
        assertEquals(
                List.of(1.0, 3.0, 5.0),
                requests.stream()
                        .map(r -> {
                            try {
                                return r.json().get("guess").asDouble();
                            } catch (IOException e) {
                                throw new AssertionError(e);
                            }
                        })
                        .toList());
    }

    @Test
    void aSettingsFileThatCannotBeReadSendsNothingSinceItMaySayOff() throws Exception {
        Files.createDirectories(settings); // a folder where the file should be
        ClassView folder = view(hub());
        var err = stderrOf(() -> {
            folder.send(event("kind", "guess", "guess", 1.0));
            folder.flush();
        });
        assertEquals(1, err.size(), err.toString());
        assertTrue(err.getFirst().contains("cannot read " + settings), err.getFirst());
        Files.delete(settings);
        Files.writeString(settings, "class-view=\\uZZZZ\n"); // a broken \\u escape
        ClassView broken = view(hub());
        err = stderrOf(() -> {
            broken.send(event("kind", "guess", "guess", 1.0));
            broken.flush();
        });
        assertEquals(1, err.size(), err.toString());
        assertEquals(List.of(), List.copyOf(requests));
        assertEquals(0, clientsMade.get());
    }

    @Test
    void onSaysWhatStillKeepsItOff() {
        assertTrue(ClassView.on(settings, hub(ClassView.SWITCH_VARIABLE, "off")).startsWith("class view: still off: "));
        assertTrue(ClassView.on(settings, Map.of()).contains("not a JupyterHub"));
        assertFalse(Files.exists(settings), "on() without a file makes none");
    }

    @Test
    void aServerThatFailsOrIsNotThereNeverBreaksTheCellAndComplainsOnce() throws Exception {
        status = 500;
        ClassView failing = view(hub());
        var err = stderrOf(() -> {
            for (int i = 0; i < 3; i++) {
                inCell(failing, () -> {
                    Prediction.of("q", 3, "ms").against(Model.of("c", 3, "ms"), 3);
                    SelfCheck.answer("zz.4", false);
                });
            }
        });
        assertEquals(9, requests.size(), "each was tried");
        assertEquals(1, err.size(), err.toString());
        assertTrue(err.getFirst().startsWith("class view: not sent ("), err.getFirst());
        assertTrue(err.getFirst().contains("500"), err.getFirst());
        assertTrue(err.getFirst().endsWith("; the notebook is unaffected"), err.getFirst());
        assertFalse(err.getFirst().contains(TOKEN), err.getFirst());

        int port = server.getAddress().getPort();
        server.stop(0); // nothing listens there now
        ClassView nowhere = view(hub(ClassView.URL_VARIABLE, "http://127.0.0.1:" + port + PATH));
        err = stderrOf(() -> {
            for (int i = 0; i < 3; i++) {
                inCell(nowhere, () -> {
                    Prediction.of("q", 3, "ms").against(Model.of("c", 3, "ms"), 3);
                    SelfCheck.answer("zz.4", false);
                });
            }
        });
        assertEquals(1, err.size(), err.toString());
        assertTrue(err.getFirst().startsWith("class view: not sent ("), err.getFirst());

        ClassView notHttp = view(hub(ClassView.URL_VARIABLE, "file:///etc/passwd"));
        err = stderrOf(() -> {
            notHttp.send(event("kind", "guess", "guess", 1.0));
            notHttp.send(event("kind", "guess", "guess", 2.0));
            notHttp.flush();
        });
        assertEquals(1, err.size(), err.toString());
        assertTrue(err.getFirst().contains("not an http URL"), err.getFirst());
        assertEquals(9 + 9, clientsMade.get(), "one client per send tried; none for a URL that is not http");
    }

    @Test
    void noThreadOfTheHttpClientOutlivesASend() throws Exception {
        // notebook 08 counts the HTTP-client threads left in the kernel: a send must leave none
        var before = HttpService.Leftovers.now();
        ClassView view = view(hub());
        for (int i = 0; i < 3; i++) view.send(event("kind", "guess", "guess", (double) i));
        view.flush();
        assertEquals(3, requests.size());
        assertEquals(before.threadNames(), HttpService.Leftovers.now().threadNames());
    }

    @Test
    void theNotebookIsTheSessionsFileNameWithoutIpynb() throws Exception {
        assertEquals("02-cafe-simulation", ClassView.notebookName("/home/learner/notebooks/02-cafe-simulation.ipynb"));
        assertEquals("08-http-service", ClassView.notebookName("notebooks/08-http-service.ipynb"));
        assertEquals("08-http-service", ClassView.notebookName("08-http-service.ipynb"));
        assertEquals("console", ClassView.notebookName("console"));
        assertNull(ClassView.notebookName(null));
        assertNull(ClassView.notebookName(" "));

        ClassView view = view(hub(ClassView.SESSION_VARIABLE, null));
        view.send(event("kind", "guess", "guess", 1.0));
        view.flush();
        JsonNode g = only().json();
        assertTrue(g.has("notebook") && g.get("notebook").isNull(), g.toString());
        assertEquals(List.of("kind", "notebook", "guess"), fieldOrder(g));
    }

    private static List<String> fieldOrder(JsonNode n) {
        var names = new ArrayList<String>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void outsideTheCoursesKernelTheKitSendsNothingWhateverTheEnvironment() {
        // the kit's own tests and ./course, run in a hub's terminal, inherit its variables
        assertFalse(Notebook.inKernel());
        ClassView before = ClassView.use(null);
        try {
            assertSame(ClassView.NOWHERE, ClassView.current());
            assertFalse(ClassView.current().configured());
            System.setProperty("course.kernel", "test");
            try {
                assertNotSame(ClassView.NOWHERE, ClassView.current(), "in the kernel, the one of its environment");
            } finally {
                System.clearProperty("course.kernel");
            }
        } finally {
            ClassView.use(before);
        }
    }

    @Test
    void theSettingsFileIsUnderHome() {
        assertEquals(
                Path.of("/home/learner/.config/vthreads-course/settings.properties"),
                ClassView.settingsFile(Map.of("HOME", "/home/learner")));
    }

    @Test
    void aClientHasTheTimeouts() {
        try (HttpClient c = ClassView.newClient()) {
            assertEquals(Duration.ofSeconds(2), c.connectTimeout().orElseThrow());
            assertEquals(HttpClient.Version.HTTP_1_1, c.version(), "the hub's proxy drops an h2c upgrade");
        }
        assertEquals(Duration.ofSeconds(5), ClassView.REQUEST_TIMEOUT);
    }
}
