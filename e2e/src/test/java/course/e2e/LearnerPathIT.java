package course.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import course.base.FileTrees;
import course.e2e.NotebookPage.Cell;
import course.e2e.NotebookPage.Output;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.json.Json;

/**
 * A learner's whole path through notebook 02 in a real browser on JupyterLab 4, and the welcome notebook 00 on
 * Notebook 7, both served by one {@code ./course lab} at the quick scale.
 *
 * <p>In JupyterLab: the notebook opened from the file browser starts the course kernel; <em>Run → Run All
 * Cells</em> draws every chart as a decoded PNG, shows the tables as HTML tables and the checks' ✔ lines, and no
 * error; the {@code %exercise} cell, the stub's "not written yet" line and the grade cell's score show; a guess typed
 * into a prediction cell shows beside the model when the experiment runs again; the toolbar's ■ stops a sleeping
 * cell within {@code e2e.interrupt.ms} (2 s) and the next cell runs; Shift+Tab shows the Javadoc of
 * {@code Executors.newFixedThreadPool} and Tab after {@code Thread.ofVirtual().} offers {@code name}. In Notebook 7
 * ({@code /notebooks/00-welcome.ipynb}): Run All with the checks every notebook must pass (every cell run, no error,
 * every image decoded, a chart, a table, a ✔ line), and ■ on a CPU loop.
 *
 * <p>Each UI gets a browser of its own and a kernel of its own (the server's kernels are shut down after each).
 * Screenshots: {@code target/e2e/jupyterlab-02.png} and {@code notebook7-00.png} (with {@code -failed} when a step
 * failed, of the page as it was then); the time of each step goes to {@code target/e2e/timings.txt}. The notebook file
 * files must be unchanged afterwards: the test's own Jupyter configuration turns autosave off.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LearnerPathIT {

    private static final Path ROOT =
            Path.of(System.getProperty("course.root", "..")).toAbsolutePath().normalize();
    private static final Path NOTEBOOK = ROOT.resolve(
                    System.getProperty("e2e.notebook", "notebooks/02-cafe-simulation.ipynb"))
            .normalize();
    /**
     * Notebook 7's notebook: the welcome, whose Run All (a chart, a table, ✔ checks) takes a fifth of notebook 02's;
     * JupyterLab has already walked a lesson through, and ./course test runs every notebook headless.
     */
    private static final Path NOTEBOOK7 = ROOT.resolve(
                    System.getProperty("e2e.notebook7", "notebooks/00-welcome.ipynb"))
            .normalize();
    // Normalised: chromedriver refuses to read a profile path that contains "..".
    private static final Path OUT = Path.of(
                    System.getProperty("e2e.out", ROOT.resolve("target/e2e").toString()))
            .toAbsolutePath()
            .normalize();
    private static final Duration RUN_LIMIT = Duration.ofSeconds(Long.getLong("e2e.timeout", 420));
    /** How soon after ■ the cell must have stopped and the kernel be idle. */
    private static final Duration INTERRUPT_LIMIT = Duration.ofMillis(Long.getLong("e2e.interrupt.ms", 2000));

    private static final String KERNEL_DISPLAY_NAME = "Java 25 (virtual threads course)";

    /**
     * Notebook 02's cells that draw, each by a piece of its source, and how many charts it shows with the exercise's
     * stub (the cell that runs the learner's {@code Cafe.serve} draws only once it is written).
     */
    private static final Map<String, Integer> CHARTS = Map.of(
            "Charts.timelines(pool, virt)", 1,
            "Charts.inFlight(", 1,
            "Charts.carriers(carriers)", 2, // the pool's lanes (Notebook.display), then the carriers
            "CafeViews.sweepChart(", 1,
            "Charts.timelines(mine, mineVirtual)", 1);
    /** Every cell with this in its source shows an HTML table. */
    private static final String TABLE = "CafeViews.table(";
    /**
     * The prediction the test fills in: its experiment, the pool sweep ({@code bigPoolGuess.against(…)}), is the
     * cheapest of the notebook's to run again (2 s at the quick scale, against 10 s for the pool of 200).
     */
    private static final String GUESS = "bigPoolGuess";

    private static final String GUESS_MS = "400";
    private static final Pattern SCORE = Pattern.compile("02-cafe: 0/\\d+ points");

    private final Map<String, Double> seconds = new LinkedHashMap<>();
    private final long t0 = System.nanoTime();
    private List<String> sources; // the notebook file's cells, null for a markdown cell
    private List<String> sources7; // NOTEBOOK7's
    private String before;
    private String before7;
    private LabServer lab;
    private URI url;
    private String token;
    private ChromeDriver driver;
    private Path profile;
    private NotebookPage page;

    @BeforeAll
    void startLab() throws Exception {
        assertTrue(Files.isRegularFile(NOTEBOOK), "no notebook at " + NOTEBOOK);
        assertTrue(NOTEBOOK.startsWith(ROOT.resolve("notebooks")), "./course lab serves notebooks/ only: " + NOTEBOOK);
        assertTrue(
                NOTEBOOK7.startsWith(ROOT.resolve("notebooks")), "./course lab serves notebooks/ only: " + NOTEBOOK7);
        sources = codeSources(NOTEBOOK);
        sources7 = codeSources(NOTEBOOK7);
        before = sha256(NOTEBOOK);
        before7 = sha256(NOTEBOOK7);
        Files.createDirectories(OUT);
        for (String old : List.of("jupyterlab-02", "notebook7-02", "notebook7-00")) {
            for (String suffix : List.of(".png", ".html", "-failed.png", "-failed.html")) {
                Files.deleteIfExists(OUT.resolve(old + suffix));
            }
        }

        int port = LabServer.freePort();
        token = HexFormat.of().formatHex(randomBytes(24));
        Map<String, String> env = Map.of(
                "COURSE_SCALE", "quick", // notebooks pick their quick sizes
                "JUPYTER_RUNTIME_DIR", OUT.resolve("runtime").toString(), // connection files stay in target/
                "JUPYTER_CONFIG_DIR", jupyterConfig(OUT.resolve("config")).toString());
        lab = LabServer.start(ROOT, port, token, OUT.resolve("lab.log"), env);
        url = lab.awaitUrl(Duration.ofMinutes(10)); // ./course lab may build the course first
        assertEquals("127.0.0.1", url.getHost(), "the server must listen on loopback by default: " + url);
        assertEquals(port, url.getPort());
        assertEquals("/lab", url.getPath(), "./course lab must start JupyterLab (it printed " + url + ")");
        assertEquals("token=" + token, url.getQuery(), "the printed URL carries the token: " + url);
        lab.awaitReady(Duration.ofMinutes(2));
        assertEquals(403, lab.statusWithoutToken(), "the server must refuse a request without the token");
        lap("./course lab ready");
    }

    @AfterAll
    void stopLab() throws Exception {
        try {
            if (lab != null) lab.close();
        } finally {
            lap("total");
            Files.writeString(
                    OUT.resolve("timings.txt"),
                    "# seconds: since the test started (./course lab ready, total), since each UI's test began (its"
                            + " steps, cumulative), from the click (■ to idle)\n"
                            + seconds.entrySet().stream()
                                    .map(e -> "%-52s %7.2f s%n".formatted(e.getKey(), e.getValue()))
                                    .reduce("", String::concat));
            System.out.println("[e2e] " + seconds);
        }
        assertEquals(before, sha256(NOTEBOOK), "the test must not save anything into " + NOTEBOOK);
        assertEquals(before7, sha256(NOTEBOOK7), "the test must not save anything into " + NOTEBOOK7);
    }

    @BeforeEach
    void openBrowser(TestInfo test) throws IOException {
        String name = test.getTestMethod().orElseThrow().getName();
        profile = Files.createTempDirectory(OUT, "chromium-" + name + "-");
        driver = Chromium.start(profile, OUT.resolve("chromedriver-" + name + ".log"));
        page = new NotebookPage(driver);
    }

    @AfterEach
    void closeBrowser() throws Exception {
        try {
            driver.quit();
            FileTrees.delete(profile);
        } finally {
            lab.shutDownKernels(); // the next UI starts a kernel of its own
        }
    }

    @Test
    @Order(1)
    void jupyterLab() throws Exception {
        long t = System.nanoTime();
        evidence("jupyterlab-02", () -> {
            driver.get(url.toString());
            openFromFileBrowser(NOTEBOOK.getFileName().toString());
            page.awaitKernel(KERNEL_DISPLAY_NAME, Duration.ofMinutes(2));
            lap("JupyterLab: notebook open, kernel idle", t);

            runAll("JupyterLab", "jupyterlab-02.png", sources);
            lap("JupyterLab: Run All, outputs checked", t);

            predictAndRerun();
            lap("JupyterLab: a guess beside the model", t);

            interrupt("JupyterLab", "System.out.println(\"sleeping\"); Thread.sleep(60_000);", "sleeping");
            lap("JupyterLab: ■ on a sleep, the next cell", t);

            helpAndCompletion();
            lap("JupyterLab: Shift+Tab, Tab", t);
        });
    }

    @Test
    @Order(2)
    void notebook7() throws Exception {
        long t = System.nanoTime();
        evidence("notebook7-00", () -> {
            String relative =
                    ROOT.resolve("notebooks").relativize(NOTEBOOK7).toString().replace(File.separatorChar, '/');
            driver.get(url.resolve("/notebooks/" + relative) + "?token=" + token);
            page.awaitKernel(KERNEL_DISPLAY_NAME, Duration.ofMinutes(2));
            lap("Notebook 7: notebook open, kernel idle", t);

            runAll("Notebook 7", "notebook7-00.png", sources7);
            lap("Notebook 7: Run All, outputs checked", t);

            interrupt(
                    "Notebook 7",
                    "System.out.println(\"spinning\"); long spins = 0; while (true) spins++;",
                    "spinning");
            lap("Notebook 7: ■ on a CPU loop, the next cell", t);
        });
    }

    /** Double-clicks the notebook in JupyterLab's file browser, until its panel opens. */
    private void openFromFileBrowser(String name) {
        page.await(Duration.ofSeconds(60), name + " in the file browser, opened", d -> {
            if (!d.findElements(By.cssSelector(NotebookPage.PANEL)).isEmpty()) return true;
            WebElement item = d.findElements(By.cssSelector(".jp-DirListing-item")).stream()
                    .filter(e -> e.getAttribute("title").startsWith("Name: " + name + "\n")
                            && e.isDisplayed()
                            && e.getSize().getHeight() > 0)
                    .findFirst()
                    .orElse(null);
            if (item == null) return false; // the listing is still loading, or not laid out yet
            new Actions(d).doubleClick(item).perform();
            return page.await(
                    Duration.ofSeconds(20),
                    "its notebook panel",
                    d2 -> !d2.findElements(By.cssSelector(NotebookPage.PANEL)).isEmpty());
        });
    }

    /**
     * Run → Run All Cells, then what every learner must see: every cell run, no error or stderr, every image
     * decoded, a chart, a table and a ✔ line; in notebook 02 (JupyterLab's), each drawing cell's charts, its
     * tables, the {@code %exercise} cell, the stub's line and the grade cell's score.
     */
    private void runAll(String ui, String screenshot, List<String> sources) throws IOException {
        long codeCells = sources.stream().filter(s -> s != null).count();
        page.menu("Run", "runmenu:run-all");
        page.awaitRunAll((int) codeCells, RUN_LIMIT);
        // An image decodes a moment after its output arrives.
        page.await(
                Duration.ofSeconds(30),
                "every image to decode",
                () -> "not decoded: " + undecoded(page.cells()),
                d -> undecoded(page.cells()).isEmpty());
        List<Cell> cells = page.cells();
        page.screenshot(OUT.resolve(screenshot));
        assertEquals(sources.size(), cells.size(), ui + " shows another number of cells than the notebook has");

        List<String> problems = new ArrayList<>();
        for (Cell c : cells) {
            boolean code = sources.get(c.index()) != null;
            if (c.code() != code) problems.add(c.name() + " is not a " + (code ? "code" : "markdown") + " cell");
            if (code && c.count() < 0) problems.add(c.name() + " did not run");
            for (Output o : c.outputs()) {
                if (o.stderr()) problems.add(c.name() + " shows an error or stderr: " + head(o.text()));
            }
        }
        if (cells.stream()
                        .flatMap(c -> c.outputs().stream())
                        .mapToInt(Output::decoded)
                        .sum()
                == 0) {
            problems.add("no chart in any output");
        }
        if (cells.stream()
                .flatMap(c -> c.outputs().stream())
                .noneMatch(o -> o.mime().equals("text/html") && o.tables() > 0)) {
            problems.add("no HTML table in any output");
        }
        if (cells.stream().flatMap(c -> c.text().lines()).noneMatch(l -> l.startsWith("✔"))) {
            problems.add("no ✔ line in any output");
        }
        if (sources == this.sources) { // notebook 02, the lesson
            CHARTS.forEach((fragment, charts) -> {
                Cell c = cells.get(cellWith(fragment));
                int decoded = c.outputs().stream().mapToInt(Output::decoded).sum();
                if (decoded < charts) problems.add(c.name() + " shows " + decoded + " of its " + charts + " charts");
            });
            for (int i : cellsWith(TABLE)) {
                Cell c = cells.get(i);
                if (c.outputs().stream().noneMatch(o -> o.mime().equals("text/html") && o.tables() > 0)) {
                    problems.add(c.name() + " shows no HTML table");
                }
            }
            expect(problems, cells.get(cellWith("%exercise 02-cafe")), "loaded your");
            expect(problems, cells.get(cellWith("Yours.attempt(")), "Cafe.serve is not written yet");
            Cell grade = cells.get(cellWith("Grade.exercise(\"02-cafe\")"));
            if (!SCORE.matcher(grade.text()).find()) {
                problems.add(grade.name() + " shows no score of the stub (" + SCORE + "): " + head(grade.text()));
            }
        }
        assertTrue(problems.isEmpty(), () -> ui + ", after Run All:\n" + String.join("\n", problems));
    }

    /** The learner's guess in the prediction cell, that cell run, then its experiment: the guess beside the model. */
    private void predictAndRerun() {
        int p = cellWith("var " + GUESS + " = Prediction.of(");
        int x = cellWith(GUESS + ".against(");
        String placeholder = "/* your guess */ 0));";
        assertTrue(sources.get(p).endsWith(placeholder), "the prediction cell no longer ends with " + placeholder);
        int ranBefore = page.cell(x).count();

        // The learner's edit: to the end of the cell, back over "));", the 0 replaced by the guess.
        page.select(p);
        page.keys(Keys.ENTER);
        page.await(Duration.ofSeconds(10), "the prediction cell in edit mode", d -> page.editMode());
        new Actions(driver)
                .keyDown(Keys.CONTROL)
                .sendKeys(Keys.END)
                .keyUp(Keys.CONTROL)
                .perform();
        page.keys(Keys.LEFT, Keys.LEFT, Keys.LEFT, Keys.BACK_SPACE, GUESS_MS);
        String guessed = "/* your guess */ " + GUESS_MS + "));";
        page.await(
                Duration.ofSeconds(10),
                "the prediction cell to end with " + guessed,
                () -> "it holds " + page.cell(p).source(),
                d -> page.cell(p).source().endsWith(guessed));

        page.runAndAdvance();
        page.await(
                Duration.ofSeconds(30),
                "the prediction cell to show the guess",
                () -> page.cell(p).name() + " shows " + head(page.cell(p).text()),
                d -> page.cell(p).count() > 0 && page.cell(p).text().contains("your prediction: " + GUESS_MS + " ms"));
        page.select(x);
        page.runAndAdvance();
        page.await(
                Duration.ofSeconds(60),
                "the experiment to run again",
                () -> page.cell(x).name(),
                d -> page.cell(x).count() > ranBefore && "idle".equals(page.kernelStatus()));

        List<List<String>> outcome = page.tables(x).stream()
                .filter(t -> !t.isEmpty()
                        && !t.getFirst().isEmpty()
                        && t.getFirst().getFirst().equals("your prediction"))
                .findFirst()
                .orElseGet(() -> fail(page.cell(x).name() + " shows no prediction table: "
                        + head(page.cell(x).text())));
        assertTrue(
                outcome.size() >= 2 && outcome.get(0).size() >= 2,
                () -> "a prediction table without figures: " + outcome);
        assertEquals(GUESS_MS + " ms", outcome.get(1).get(0), () -> "the guess is not shown: " + outcome);
        assertTrue(outcome.get(0).get(1).startsWith("the model: "), () -> "no model beside the guess: " + outcome);
        assertTrue(
                outcome.get(1).get(1).matches("[\\d,.]+ (ms|s)"), () -> "the model's figure is not shown: " + outcome);
    }

    /**
     * Runs {@code code} in a new cell at the end, waits until it prints {@code marker} (it is then running), presses
     * ■, and requires the cell stopped and the kernel idle within {@link #INTERRUPT_LIMIT}; then the next cell runs.
     */
    private void interrupt(String ui, String code, String marker) {
        int i = page.appendCodeCell();
        page.type(i, code);
        page.runAndAdvance();
        page.await(
                Duration.ofSeconds(30),
                "the cell to start and print " + marker,
                () -> page.cell(i).name() + " shows " + head(page.cell(i).text()),
                d -> {
                    Cell c = page.cell(i);
                    return c.queuedOrRunning() && c.text().contains(marker) && "busy".equals(page.kernelStatus());
                });

        long pressed = System.nanoTime();
        page.pressInterrupt();
        page.await(
                INTERRUPT_LIMIT,
                "■ to stop the running cell and the kernel to go idle",
                () -> page.cell(i).name() + " is still running",
                d -> page.cell(i).count() > 0 && "idle".equals(page.kernelStatus()));
        seconds.put(ui + ": ■ to idle", (System.nanoTime() - pressed) / 1e9);
        assertTrue(
                page.cell(i).text().contains("Interrupted: the cell was stopped"),
                () -> "the stopped cell does not say so: " + head(page.cell(i).text()));

        int next = page.appendCodeCell();
        page.type(next, "System.out.println(\"after the interrupt: \" + (6 * 7));");
        page.runAndAdvance();
        page.await(
                Duration.ofSeconds(30),
                "the next cell to run after the interrupt",
                () -> page.cell(next).name() + " shows " + head(page.cell(next).text()),
                d -> page.cell(next).count() > 0 && page.cell(next).text().contains("after the interrupt: 42"));
    }

    /** Shift+Tab shows the Javadoc of a JDK method; Tab after a builder's dot offers its methods. */
    private void helpAndCompletion() {
        int i = page.appendCodeCell();
        page.type(i, "var pool = Executors.newFixedThreadPool");
        shift(Keys.TAB);
        String tip = page.await(
                Duration.ofSeconds(30),
                "Shift+Tab's tooltip",
                d -> visible(".jp-Tooltip").stream()
                        .map(e -> e.getAttribute("textContent"))
                        .filter(s -> s.contains("newFixedThreadPool"))
                        .findFirst()
                        .orElse(null));
        assertTrue(tip.contains("newFixedThreadPool(int nThreads)"), () -> "no signature in the tooltip: " + head(tip));
        assertTrue(
                tip.contains("Creates a thread pool that reuses a fixed number of threads"),
                () -> "no Javadoc in the tooltip (does the kernel's JDK have lib/src.zip?): " + head(tip));

        page.keys(Keys.ESCAPE);
        page.await(
                Duration.ofSeconds(10),
                "the tooltip to close",
                d -> visible(".jp-Tooltip").isEmpty());
        if (!page.editMode()) page.keys(Keys.ENTER); // Escape also left edit mode
        page.await(
                Duration.ofSeconds(10),
                "the cell in edit mode again",
                d -> page.editMode() && page.cell(i).active());
        new Actions(driver)
                .keyDown(Keys.CONTROL)
                .sendKeys("a")
                .keyUp(Keys.CONTROL)
                .sendKeys(Keys.BACK_SPACE)
                .perform();
        page.await(
                Duration.ofSeconds(10),
                "the cell to be empty",
                d -> page.cell(i).source().isEmpty());
        page.type(i, "Thread.ofVirtual().");
        page.keys(Keys.TAB);
        List<String> offered = page.await(Duration.ofSeconds(30), "Tab's completer", d -> {
            List<String> items = visible(".jp-Completer .jp-Completer-item").stream()
                    .map(e -> e.getAttribute("data-value"))
                    .toList();
            return items.isEmpty() ? null : items;
        });
        assertTrue(
                offered.stream().anyMatch(v -> v.equals("name") || v.startsWith("name(")),
                () -> "Tab after Thread.ofVirtual(). does not offer name: " + offered);
        page.keys(Keys.ESCAPE);
    }

    /** The cells with an image that has not decoded (yet). */
    private static List<String> undecoded(List<Cell> cells) {
        return cells.stream()
                .filter(c -> c.outputs().stream().anyMatch(o -> o.images() != o.decoded()))
                .map(Cell::name)
                .toList();
    }

    private List<WebElement> visible(String css) {
        try {
            return driver.findElements(By.cssSelector(css)).stream()
                    .filter(WebElement::isDisplayed)
                    .toList();
        } catch (StaleElementReferenceException redrawn) {
            return List.of();
        }
    }

    private void shift(Keys key) {
        new Actions(driver).keyDown(Keys.SHIFT).sendKeys(key).keyUp(Keys.SHIFT).perform();
    }

    private static void expect(List<String> problems, Cell c, String text) {
        if (!c.text().contains(text)) problems.add(c.name() + " does not show \"" + text + "\": " + head(c.text()));
    }

    /** The index of the one code cell whose source contains {@code fragment}. */
    private int cellWith(String fragment) {
        List<Integer> found = cellsWith(fragment);
        assertEquals(
                1, found.size(), () -> "cells of " + NOTEBOOK.getFileName() + " with `" + fragment + "`: " + found);
        return found.getFirst();
    }

    private List<Integer> cellsWith(String fragment) {
        return IntStream.range(0, sources.size())
                .filter(i -> sources.get(i) != null && sources.get(i).contains(fragment))
                .boxed()
                .toList();
    }

    /** Each cell of the notebook file: its source for a code cell, null for any other. */
    @SuppressWarnings("unchecked")
    private static List<String> codeSources(Path notebook) throws IOException {
        Map<String, Object> nb = new Json().toType(Files.readString(notebook), Json.MAP_TYPE);
        List<String> result = new ArrayList<>();
        for (Map<String, Object> cell : (List<Map<String, Object>>) nb.get("cells")) {
            Object source = cell.get("source");
            String text = source instanceof List<?> lines ? String.join("", (List<String>) lines) : (String) source;
            result.add("code".equals(cell.get("cell_type")) ? text : null);
        }
        return result;
    }

    /** Runs {@code step}; if it fails, saves what the browser showed as {@code name-failed.png} (and .html). */
    private void evidence(String name, Step step) throws Exception {
        try {
            step.run();
        } catch (Exception | AssertionError e) {
            try {
                page.screenshotOfActiveCell(OUT.resolve(name + "-failed.png"));
            } catch (Exception | AssertionError notSaved) {
                e.addSuppressed(notSaved);
            }
            throw e;
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    /**
     * A Jupyter configuration folder of the test's own, so that no personal configuration changes what the browser
     * sees: JupyterLab's and Notebook 7's settings with autosave off (the course's notebook must not change) and no
     * news or update check (the network is closed; their notice would cover the page). It starts empty each run,
     * so no workspace of an earlier run reopens its tabs.
     */
    private static Path jupyterConfig(Path dir) throws IOException {
        FileTrees.delete(dir);
        Path settings = dir.resolve("lab/user-settings/@jupyterlab");
        Files.createDirectories(settings.resolve("docmanager-extension"));
        Files.writeString(
                settings.resolve("docmanager-extension/plugin.jupyterlab-settings"), "{\"autosave\": false}\n");
        Files.createDirectories(settings.resolve("apputils-extension"));
        Files.writeString(
                settings.resolve("apputils-extension/notification.jupyterlab-settings"),
                "{\"fetchNews\": \"false\", \"checkForUpdates\": false}\n");
        return dir;
    }

    private static String head(String text) {
        String t = text.strip();
        return t.length() <= 400 ? t : t.substring(0, 400) + " …";
    }

    private void lap(String what) {
        seconds.put(what, (System.nanoTime() - t0) / 1e9);
    }

    private void lap(String what, long since) {
        seconds.put(what, (System.nanoTime() - since) / 1e9);
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        new SecureRandom().nextBytes(b);
        return b;
    }

    private static String sha256(Path p) throws IOException, NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
    }
}
