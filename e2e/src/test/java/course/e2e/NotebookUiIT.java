package course.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.FileTrees;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A learner's first five minutes, in a real browser: {@code ./course lab}, the printed URL with its
 * token, notebook 00 opened from the file list, <em>Cell &gt; Run All</em> from the menu, and the
 * kit's chart drawn as an inline PNG, with no error and nothing on stderr.
 *
 * <p>It drives Debian's headless Chromium through Debian's chromedriver (Selenium Manager is never
 * used), saves a full-page screenshot ({@code target/e2e/notebook-00.png}) and the rendered page, and
 * checks that the notebook file on disk is unchanged afterwards (autosave is off for this page).
 */
class NotebookUiIT {

    private static final Path ROOT =
            Path.of(System.getProperty("course.root", "..")).toAbsolutePath().normalize();
    private static final Path NOTEBOOK = ROOT.resolve(System.getProperty("e2e.notebook", "notebooks/00-welcome.ipynb"))
            .normalize();
    // Normalised: chromedriver refuses to read a profile path that contains "..".
    private static final Path SCREENSHOT = Path.of(System.getProperty(
                    "e2e.screenshot", ROOT.resolve("target/e2e/notebook-00.png").toString()))
            .toAbsolutePath()
            .normalize();
    private static final Path OUT = SCREENSHOT.getParent();
    private static final Path CHROMIUM = Path.of(System.getProperty("e2e.chromium", "/usr/bin/chromium"));
    private static final Path CHROMEDRIVER =
            Path.of(System.getProperty("webdriver.chrome.driver", "/usr/bin/chromedriver"));
    private static final Duration RUN_LIMIT = Duration.ofSeconds(Long.getLong("e2e.timeout", 420));
    private static final String KERNEL_DISPLAY_NAME = "Java 25 (virtual threads course)";

    private final Map<String, Double> seconds = new LinkedHashMap<>();

    @Test
    void notebookZeroRunsFromTheMenuAndDrawsTheKitsChart() throws Exception {
        Logger.getLogger("org.openqa.selenium").setLevel(Level.WARNING);
        Logger.getLogger("org.openqa.selenium.devtools").setLevel(Level.SEVERE); // no CDP bindings needed
        assertTrue(Files.isRegularFile(NOTEBOOK), "no notebook at " + NOTEBOOK);
        Path notebooks = ROOT.resolve("notebooks");
        assertTrue(NOTEBOOK.startsWith(notebooks), "./course lab serves notebooks/ only: " + NOTEBOOK);
        String relative = notebooks.relativize(NOTEBOOK).toString().replace(File.separatorChar, '/');
        LabServer.checkExecutable(CHROMIUM);
        LabServer.checkExecutable(CHROMEDRIVER);
        String before = sha256(NOTEBOOK);
        Files.createDirectories(OUT);
        Files.deleteIfExists(SCREENSHOT);

        long t0 = System.nanoTime();
        try {
            runAgainstLab(t0, relative);
        } finally {
            lap("total", t0);
            Files.writeString(
                    OUT.resolve("timings.txt"),
                    seconds.entrySet().stream()
                            .map(e -> "%-28s %6.1f s%n".formatted(e.getKey(), e.getValue()))
                            .reduce("", String::concat));
            System.out.println("[e2e] " + seconds);
        }
        assertEquals(before, sha256(NOTEBOOK), "the test must not save outputs into " + NOTEBOOK);
    }

    private void runAgainstLab(long t0, String relative) throws Exception {
        int port = LabServer.freePort();
        String token = HexFormat.of().formatHex(randomBytes(24));
        Map<String, String> env = Map.of(
                "COURSE_SCALE", "quick", // notebooks pick their quick sizes
                "JUPYTER_RUNTIME_DIR", OUT.resolve("runtime").toString(), // connection files stay in target/
                "JUPYTER_CONFIG_DIR", jupyterConfig(OUT.resolve("config")).toString());
        try (LabServer lab = LabServer.start(ROOT, port, token, OUT.resolve("lab.log"), env)) {
            URI url = lab.awaitUrl(Duration.ofMinutes(10)); // ./course lab may build the course first
            assertEquals("127.0.0.1", url.getHost(), "the server must listen on loopback by default: " + url);
            assertEquals(port, url.getPort());
            assertTrue(url.getQuery().equals("token=" + token), "the printed URL carries the token: " + url);
            lab.awaitReady(Duration.ofMinutes(2));
            assertEquals(403, lab.statusWithoutToken(), "the server must refuse a request without the token");
            lap("./course lab ready", t0);

            Path profile = Files.createTempDirectory(OUT, "chromium-profile-");
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(CHROMEDRIVER.toFile())
                    .usingAnyFreePort()
                    .withLogFile(OUT.resolve("chromedriver.log").toFile())
                    .build();
            ChromeDriver driver = new ChromeDriver(service, chromeOptions(profile));
            try {
                runNotebook(driver, url, relative, t0);
            } catch (RuntimeException | AssertionError e) {
                saveEvidence(driver); // what the browser showed when it failed
                throw e;
            } finally {
                driver.quit();
                FileTrees.delete(profile);
            }
        }
    }

    private void runNotebook(ChromeDriver driver, URI url, String relative, long t0) throws IOException {
        var wait = new WebDriverWait(driver, Duration.ofSeconds(60));

        // The dashboard at the printed URL lists the notebook; clicking it opens a new tab.
        driver.get(url.toString());
        WebElement link = wait.until(ExpectedConditions.elementToBeClickable(
                By.cssSelector("#notebook_list a.item_link[href$='/notebooks/" + relative + "']")));
        String dashboard = driver.getWindowHandle();
        link.click();
        wait.until(ExpectedConditions.numberOfWindowsToBe(2));
        driver.getWindowHandles().stream()
                .filter(h -> !h.equals(dashboard))
                .findFirst()
                .ifPresent(h -> driver.switchTo().window(h));
        lap("notebook opened", t0);

        // The course kernel starts (no "kernel not found" dialog) and becomes idle.
        var kernelWait = new WebDriverWait(driver, Duration.ofSeconds(120));
        kernelWait.until(d -> !d.findElements(By.cssSelector("#kernel_indicator_icon.kernel_idle_icon"))
                        .isEmpty()
                || !d.findElements(By.cssSelector(".modal-dialog")).isEmpty());
        assertTrue(
                driver.findElements(By.cssSelector(".modal-dialog")).isEmpty(),
                () -> "a dialog opened instead of the kernel: " + texts(driver, ".modal-dialog"));
        assertEquals(
                KERNEL_DISPLAY_NAME,
                driver.findElement(By.cssSelector(".kernel_indicator_name")).getText());
        lap("kernel idle", t0);

        // Outputs must not be saved into the course's notebook: switch this page's autosave off.
        // (Notebook 6 has no menu item for it.)
        ((JavascriptExecutor) driver).executeScript("Jupyter.notebook.set_autosave_interval(0);");

        // Cell > Run All, through the menu.
        driver.findElement(By.id("celllink")).click();
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("#run_all_cells > a")))
                .click();

        var runWait = new WebDriverWait(driver, RUN_LIMIT, Duration.ofMillis(500));
        runWait.until(d -> finished(d) && sleepThen(d, 1000) && finished(d));
        lap("Run All finished", t0);

        List<String> notRun = notRunCells(driver);
        assertTrue(notRun.isEmpty(), () -> "cells that did not run: " + notRun);

        // The kit's chart: an image/png output, rendered as an <img>.
        var images = new WebDriverWait(driver, Duration.ofSeconds(30)).until(d -> {
            var found = d.findElements(By.cssSelector(".output_png img"));
            return found.isEmpty() ? null : found;
        });
        WebElement chart = images.getFirst();
        assertTrue(chart.getAttribute("src").startsWith("data:image/png;base64,"));
        Number width = (Number) ((JavascriptExecutor) driver).executeScript("return arguments[0].naturalWidth;", chart);
        assertTrue(width.intValue() > 100, "the chart is an empty image: " + width + " px wide");

        List<String> errors = texts(driver, ".output_error");
        List<String> stderr = texts(driver, ".output_stderr");

        saveEvidence(driver);
        lap("screenshot saved", t0);

        assertTrue(errors.isEmpty(), () -> "error outputs: " + errors);
        assertTrue(stderr.isEmpty(), () -> "stderr outputs: " + stderr);
    }

    /** Run All is over when the kernel is idle and no cell is queued or running. */
    private static boolean finished(WebDriver d) {
        return !d.findElements(By.cssSelector("#kernel_indicator_icon.kernel_idle_icon"))
                        .isEmpty()
                && d.findElements(By.cssSelector(".cell.running")).isEmpty()
                && !d.findElements(By.cssSelector(".code_cell .input_prompt")).stream()
                        .filter(p -> p.getText().matches("In\\s*\\[\\d+\\]:"))
                        .toList()
                        .isEmpty();
    }

    private static boolean sleepThen(WebDriver d, long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
    }

    /** Code cells with code in them whose prompt shows no execution count. */
    private static List<String> notRunCells(WebDriver d) {
        var result = new ArrayList<String>();
        var cells = d.findElements(By.cssSelector(".cell.code_cell"));
        for (int i = 0; i < cells.size(); i++) {
            WebElement cell = cells.get(i);
            String code =
                    cell.findElement(By.cssSelector(".input_area")).getText().strip();
            String prompt =
                    cell.findElement(By.cssSelector(".input_prompt")).getText().strip();
            if (!code.isEmpty() && !prompt.matches("In\\s*\\[\\d+\\]:")) {
                result.add("code cell " + (i + 1) + " (" + prompt + "): "
                        + code.lines().findFirst().orElse(""));
            }
        }
        return result;
    }

    private static List<String> texts(WebDriver d, String css) {
        return d.findElements(By.cssSelector(css)).stream()
                .map(WebElement::getText)
                .toList();
    }

    /** A full-page screenshot: Notebook scrolls inside #site, so the window grows to the notebook's height. */
    private static void saveEvidence(ChromeDriver driver) throws IOException {
        Number height = (Number) ((JavascriptExecutor) driver)
                .executeScript("return document.getElementById('header').offsetHeight"
                        + " + document.getElementById('notebook').scrollHeight + 40;");
        driver.manage().window().setSize(new Dimension(1280, Math.min(Math.max(height.intValue(), 800), 16000)));
        ((JavascriptExecutor) driver).executeScript("document.getElementById('site').scrollTop = 0;");
        sleepThen(driver, 500);
        Path png = driver.getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(png, SCREENSHOT, StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(
                SCREENSHOT.resolveSibling(SCREENSHOT.getFileName().toString().replace(".png", ".html")),
                driver.getPageSource());
    }

    /**
     * A Jupyter configuration folder of the test's own, so that no personal configuration changes what
     * the browser sees. CI runs as root, which classic Notebook refuses unless allow_root is set.
     */
    private static Path jupyterConfig(Path dir) throws IOException {
        Files.createDirectories(dir);
        boolean root = ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
        Files.writeString(
                dir.resolve("jupyter_notebook_config.json"), "{\"NotebookApp\": {\"allow_root\": " + root + "}}\n");
        return dir;
    }

    /** Headless Chromium as the course's browser tests run it (BookIT too). */
    static ChromeOptions chromeOptions(Path profile) {
        var options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // Without these, Chromium stalls on this closed network (update checks, sync, first-run UI).
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--user-data-dir=" + profile,
                "--window-size=1280,1000");
        return options;
    }

    private void lap(String what, long t0) {
        seconds.put(what, (System.nanoTime() - t0) / 1e9);
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
