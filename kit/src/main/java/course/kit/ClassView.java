package course.kit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Sends each guess the learner commits, each outcome and each self-check mark to the trainer's class view: a small
 * service of the course's JupyterHub that shows the class's guesses live, so that the trainer sees where the room
 * stands before the experiment runs. It only sends; the service is not part of the kit.
 *
 * <p><b>When it sends.</b> Only under a JupyterHub, and only in the course's kernel: all of these must hold, else
 * nothing is sent and no connection is ever opened.
 * <ul>
 *   <li>the environment has {@value #URL_VARIABLE}, the http URL the hub gives its service's events (for example
 *       {@code http://127.0.0.1:8000/services/class-view/api/events}), and a non-empty {@value #TOKEN_VARIABLE},
 *       the token the hub gives each learner's server, with which the service knows who sent what;</li>
 *   <li>this JVM is the course's kernel ({@link Notebook#inKernel()}): the kit's tests and {@code ./course}, run in
 *       a terminal of the hub, inherit the same variables and must not send their made-up guesses;</li>
 *   <li>the learner has not turned it off: neither {@value #SWITCH_VARIABLE}{@code =off} in the environment nor the
 *       line {@code class-view=off} in {@code $HOME/}{@value #SETTINGS}. That file is read at each send, so that
 *       {@link #off()} in a cell stops the sending at once, without a restart of the kernel.</li>
 * </ul>
 *
 * <p><b>What it sends.</b> One JSON object per event, POSTed with the hub's token, where {@code notebook} is the
 * notebook's file name without {@code .ipynb} (from {@value #SESSION_VARIABLE}, which Jupyter Server sets for the
 * kernel of a notebook), or null:
 *
 * <pre>{@code
 * {"kind":"guess","notebook":"02-cafe-simulation","question":"…","guess":50000.0,"unit":"ms"}
 * {"kind":"outcome","notebook":"02-cafe-simulation", …Prediction.Outcome.json()…}
 * {"kind":"selfcheck","notebook":"02-cafe-simulation","id":"02.1","answered":true,"correct":false}
 * }</pre>
 *
 * A guess is sent by {@link Prediction#of} once it is given (a placeholder is not a guess), an outcome by
 * {@link Prediction#against} (given or not: the trainer sees who has not guessed), a mark by
 * {@link SelfCheck#answer}. A self-check sends whether it was answered and whether it is right, never the answer
 * nor the expected one: the trainer needs to know what to explain again, not who wrote what. Numbers that are not
 * finite (no ratio, no measurement) are written as null, since JSON has no NaN.
 *
 * <p><b>Never in the way.</b> A cell does not wait for the class view: each event goes on a virtual thread of its
 * own, with a 2 s connect and a 5 s request timeout. A failure (the service down, a refused token, a timeout) is
 * swallowed; the first one in a kernel prints one line to stderr, so that a learner knows the trainer does not see
 * their guesses, and the others print nothing, so that a class view that is down does not fill every cell with
 * warnings. Each send uses an HTTP client of its own and closes it, so that no thread of {@code java.net.http}
 * outlives it: notebook 08 counts the HTTP-client threads this kernel leaves behind.
 */
public final class ClassView {
    /** The environment variable with the URL that events are POSTed to; without it nothing is sent. */
    public static final String URL_VARIABLE = "COURSE_CLASS_VIEW_URL";
    /** The environment variable with the hub's API token for this learner's server; without it nothing is sent. */
    public static final String TOKEN_VARIABLE = "JUPYTERHUB_API_TOKEN";
    /** The environment variable that turns the class view off when it is {@code off}. */
    public static final String SWITCH_VARIABLE = "COURSE_CLASS_VIEW";
    /** The environment variable Jupyter Server sets to the path of the notebook a kernel was started for. */
    public static final String SESSION_VARIABLE = "JPY_SESSION_NAME";
    /** The learner's settings file, under {@code $HOME}, in {@link Properties} format. */
    public static final String SETTINGS = ".config/vthreads-course/settings.properties";
    /** The key in the settings file that turns the class view off when its value is {@code off}. */
    public static final String SETTING = "class-view";

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

    private static final ObjectMapper JSON = new ObjectMapper();
    /** What {@link #current()} is while this JVM is not the course's kernel: it never sends. */
    static final ClassView NOWHERE = new ClassView(Map.of(), null, ClassView::newClient);

    private static volatile ClassView current;

    private final String url;
    private final String token;
    private final boolean offInEnvironment;
    private final String notebook;
    private final Path settingsFile;
    private final Supplier<HttpClient> clients;
    private final AtomicBoolean complained = new AtomicBoolean();
    private final Set<Thread> inFlight = ConcurrentHashMap.newKeySet();

    private ClassView(Map<String, String> env, Path settingsFile, Supplier<HttpClient> clients) {
        this.url = blankToNull(env.get(URL_VARIABLE));
        this.token = blankToNull(env.get(TOKEN_VARIABLE));
        this.offInEnvironment = isOff(env.get(SWITCH_VARIABLE));
        this.notebook = notebookName(env.get(SESSION_VARIABLE));
        this.settingsFile = settingsFile;
        this.clients = Objects.requireNonNull(clients, "clients");
    }

    /**
     * The class view that {@code env} and {@code settingsFile} describe; each send takes a new client from
     * {@code clients} and closes it when done. Nothing is read or opened here: the settings file at each send, a
     * client only for a send that goes out.
     */
    static ClassView from(Map<String, String> env, Path settingsFile, Supplier<HttpClient> clients) {
        return new ClassView(Map.copyOf(env), settingsFile, clients);
    }

    /** A client for one send: the timeouts above, and virtual threads for its work, so no pool of its own. */
    static HttpClient newClient() {
        // HTTP/1.1: over plain http the default (HTTP/2) sends an h2c upgrade, which the hub's proxy
        // (configurable-http-proxy) answers by closing the connection
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT)
                .executor(Executors.newThreadPerTaskExecutor(
                        Thread.ofVirtual().name("class-view-http").factory()))
                .build();
    }

    /** {@code $HOME/.config/vthreads-course/settings.properties} for {@code env} ({@code user.home} without HOME). */
    static Path settingsFile(Map<String, String> env) {
        String home = blankToNull(env.get("HOME"));
        return Path.of(home != null ? home : System.getProperty("user.home")).resolve(SETTINGS);
    }

    /**
     * The class view of this kernel, from {@link System#getenv()}, made at the first event; outside the course's
     * kernel one that never sends.
     */
    static ClassView current() {
        ClassView v = current;
        if (v != null) return v;
        if (!Notebook.inKernel()) return NOWHERE;
        synchronized (ClassView.class) {
            if (current == null) {
                Map<String, String> env = System.getenv();
                current = from(env, settingsFile(env), ClassView::newClient);
            }
            return current;
        }
    }

    /** Makes {@code view} the one {@link #current()} returns (null: the kernel's again, made anew); for tests. */
    static ClassView use(ClassView view) {
        synchronized (ClassView.class) {
            ClassView before = current;
            current = view;
            return before;
        }
    }

    // ------------------------------------------------------------------------------------------------ the events

    /** Sends a given guess: {@code question, guess, unit} (a duration in ms); {@link Prediction#of} calls it. */
    static void guess(String question, double guess, String unit) {
        var e = event("guess");
        e.put("question", question);
        e.put("guess", guess);
        e.put("unit", unit);
        deliver(e);
    }

    /** Sends an outcome, given or not: {@link Prediction.Outcome#json()}. */
    static void outcome(Map<String, Object> outcome) {
        var e = event("outcome");
        e.putAll(outcome);
        deliver(e);
    }

    /** Sends a self-check mark: {@link SelfCheck.Result#json()}, which holds neither the answer nor the expected one. */
    static void selfCheck(Map<String, Object> mark) {
        var e = event("selfcheck");
        e.putAll(mark);
        deliver(e);
    }

    /** Hands {@code e} to {@link #current()}; nothing here may fail a cell, not even making the class view. */
    private static void deliver(Map<String, Object> e) {
        try {
            current().send(e);
        } catch (RuntimeException x) {
            NOWHERE.notSent(reason(x));
        }
    }

    private static Map<String, Object> event(String kind) {
        var e = new LinkedHashMap<String, Object>();
        e.put("kind", kind);
        return e;
    }

    // ------------------------------------------------------------------------------------------------ sending

    /** Whether the environment asks for sending: a URL and a token, and no {@value #SWITCH_VARIABLE}=off. */
    boolean configured() {
        return url != null && token != null && !offInEnvironment;
    }

    /**
     * Sends {@code event} (its {@code kind} first, then {@code notebook}, then the rest) on a virtual thread, if
     * {@link #configured()} and the settings file does not turn it off; returns at once and never throws.
     */
    void send(Map<String, Object> event) {
        if (!configured()) return;
        try {
            var body = new LinkedHashMap<String, Object>();
            body.put("kind", event.get("kind"));
            body.put("notebook", notebook);
            event.forEach(body::putIfAbsent);
            Thread t = Thread.ofVirtual().name("class-view").unstarted(() -> {
                try {
                    post(body);
                } finally {
                    inFlight.remove(Thread.currentThread());
                }
            });
            inFlight.add(t);
            t.start();
        } catch (RuntimeException e) {
            notSent(reason(e));
        }
    }

    /** Waits until every send started before this call is done; for tests. */
    void flush() throws InterruptedException {
        for (Thread t : List.copyOf(inFlight)) t.join();
    }

    private void post(Map<String, Object> body) {
        try {
            if (offInSettings()) return;
            URI uri = uri();
            if (uri == null) {
                notSent(URL_VARIABLE + " is not an http URL: " + url);
                return;
            }
            HttpRequest request = HttpRequest.newBuilder(uri)
                    .timeout(REQUEST_TIMEOUT)
                    .header("Content-Type", "application/json")
                    .header("Authorization", "token " + token)
                    .POST(HttpRequest.BodyPublishers.ofString(json(body), StandardCharsets.UTF_8))
                    .build();
            int status;
            try (HttpClient client = clients.get()) {
                status = client.send(request, HttpResponse.BodyHandlers.discarding())
                        .statusCode();
            }
            if (status / 100 != 2) notSent("the class view answered HTTP " + status);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            notSent("interrupted");
        } catch (IOException | RuntimeException e) {
            notSent(reason(e));
        }
    }

    /**
     * Whether the settings file has {@code class-view=off}.
     *
     * @throws IOException if it is there but cannot be read: then nothing is sent, since it may say off
     */
    private boolean offInSettings() throws IOException {
        if (settingsFile == null) return false;
        var p = new Properties();
        try (InputStream in = Files.newInputStream(settingsFile)) {
            p.load(in);
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException | IllegalArgumentException e) {
            throw new IOException("cannot read " + settingsFile + ": " + reason(e), e);
        }
        return isOff(p.getProperty(SETTING));
    }

    private URI uri() {
        try {
            URI u = new URI(url);
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && u.getHost() != null ? u : null;
        } catch (java.net.URISyntaxException e) {
            return null;
        }
    }

    /** The first failure of this class view prints one line; the next ones print nothing. */
    private void notSent(String reason) {
        if (complained.compareAndSet(false, true)) {
            System.err.println("class view: not sent (" + reason + "); the notebook is unaffected");
        }
    }

    /** {@code ConnectException: Connection refused}: the exception's name and the first message in its causes. */
    private static String reason(Throwable e) {
        String message = null;
        for (Throwable c = e; c != null && message == null; c = c.getCause()) message = blankToNull(c.getMessage());
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /** A double or float that is not finite becomes null: JSON has no NaN, and Jackson would write a string. */
    private static Object finite(Object v) {
        if (v instanceof Double d && !Double.isFinite(d)) return null;
        if (v instanceof Float f && !Float.isFinite(f)) return null;
        return v;
    }

    /** {@code event} as it is POSTed: in JSON, with each number that is not finite written as null. */
    static String json(Map<String, Object> event) {
        var m = new LinkedHashMap<String, Object>();
        event.forEach((k, v) -> m.put(k, finite(v)));
        try {
            return JSON.writeValueAsString(m);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + event, e);
        }
    }

    /** {@code /home/a/work/02-cafe-simulation.ipynb} → {@code 02-cafe-simulation}; null or blank → null. */
    static String notebookName(String session) {
        String s = blankToNull(session);
        if (s == null) return null;
        String name = s.substring(Math.max(s.lastIndexOf('/'), s.lastIndexOf('\\')) + 1);
        if (name.endsWith(".ipynb")) name = name.substring(0, name.length() - ".ipynb".length());
        return blankToNull(name);
    }

    private static boolean isOff(String value) {
        return value != null && value.strip().equalsIgnoreCase("off");
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    // ------------------------------------------------------------------------------------------------ the switch

    /**
     * Turns the class view off for this learner, from the next event on, in this kernel and every later one: writes
     * the line {@code class-view=off} to {@code $HOME/.config/vthreads-course/settings.properties} (making the
     * folder if needed) and prints one line that says so. {@link #on()} undoes it.
     *
     * @throws UncheckedIOException if the file cannot be written: then nothing is turned off
     */
    public static void off() {
        Map<String, String> env = System.getenv();
        System.out.println(off(settingsFile(env)));
    }

    /**
     * Turns the class view back on: removes the line {@code class-view=off} from the settings file and prints one
     * line that says so, and whether anything else still keeps it off.
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    public static void on() {
        Map<String, String> env = System.getenv();
        System.out.println(on(settingsFile(env), env));
    }

    /** {@link #off()} on {@code file}; returns the line to print. */
    static String off(Path file) {
        var lines = withoutSetting(file);
        lines.add(SETTING + "=off");
        write(file, lines);
        return "class view: off; from now on nothing is sent to the trainer's class view, in this kernel and later "
                + "ones (" + SETTING + "=off in " + file + "; ClassView.on() turns it back on)";
    }

    /** {@link #on()} on {@code file}, with {@code env} to say what else keeps it off; returns the line to print. */
    static String on(Path file, Map<String, String> env) {
        boolean was = Files.exists(file);
        var lines = withoutSetting(file);
        if (was) write(file, lines);
        String done = SETTING + "=off is not in " + file;
        if (isOff(env.get(SWITCH_VARIABLE))) {
            return "class view: still off: " + done + ", but this kernel's environment has " + SWITCH_VARIABLE + "=off";
        }
        if (blankToNull(env.get(URL_VARIABLE)) == null || blankToNull(env.get(TOKEN_VARIABLE)) == null) {
            return "class view: on, but this is not a JupyterHub with a class view, so nothing is sent here (" + done
                    + ")";
        }
        return "class view: on; your guesses and self-check marks are sent to the trainer's class view again (" + done
                + ")";
    }

    /** The lines of {@code file} (none if it is not there) less those that set {@link #SETTING}. */
    private static List<String> withoutSetting(Path file) {
        List<String> lines;
        try {
            lines = Files.exists(file) ? Files.readAllLines(file, StandardCharsets.ISO_8859_1) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("class view: cannot read " + file + ": " + reason(e), e);
        }
        var kept = new ArrayList<String>();
        boolean continued = false; // the previous line removed ended in a backslash: this one is its value's rest
        for (String line : lines) {
            boolean drop = continued || SETTING.equals(key(line));
            continued = drop && endsInBackslash(line);
            if (!drop) kept.add(line);
        }
        return kept;
    }

    /** A line's key as {@link Properties} reads it (no escapes), or null for a comment or a blank line. */
    private static String key(String line) {
        String s = line.stripLeading();
        if (s.isEmpty() || s.startsWith("#") || s.startsWith("!")) return null;
        int end = 0;
        while (end < s.length() && "=: \t\f".indexOf(s.charAt(end)) < 0) end++;
        return s.substring(0, end);
    }

    private static boolean endsInBackslash(String line) {
        int n = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) n++;
        return n % 2 == 1;
    }

    private static void write(Path file, List<String> lines) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null) Files.createDirectories(dir);
            Files.write(file, lines, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "class view: cannot write " + file + ": " + reason(e) + "; set " + SWITCH_VARIABLE
                            + "=off in the kernel's environment instead",
                    e);
        }
    }

    @Override
    public String toString() {
        return "class view " + (configured() ? "to " + url : "off") + (notebook == null ? "" : " from " + notebook);
    }
}
