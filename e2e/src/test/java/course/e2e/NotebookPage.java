package course.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementClickInterceptedException;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The notebook open in the browser, in JupyterLab 4 or in Notebook 7: both build it from JupyterLab's own
 * components, so one set of selectors serves both. Everything is read from the page (the cells' prompts, their
 * outputs, the toolbar's kernel status) and every wait is on a state of the page, polled; nothing waits a fixed time.
 */
final class NotebookPage {

    /** The notebook panel on screen (JupyterLab keeps the other tabs' panels hidden). */
    static final String PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)";

    private static final Duration POLL = Duration.ofMillis(50);
    private static final Pattern COUNT = Pattern.compile("\\[(\\d+)\\]:");

    /** Every cell of the panel on screen, as {@link Cell} reads it: one script, so nothing goes stale meanwhile. */
    private static final String CELLS = """
            const panel = document.querySelector(arguments[0]);
            if (!panel) return null;
            return [...panel.querySelectorAll('.jp-Notebook .jp-Cell')].map(c => ({
              code: c.classList.contains('jp-CodeCell'),
              active: c.classList.contains('jp-mod-active'),
              prompt: ((c.querySelector('.jp-InputPrompt') || {}).textContent || '').trim(),
              source: [...c.querySelectorAll('.cm-line')].map(l => l.textContent).join('\\n'),
              outputs: [...c.querySelectorAll('.jp-OutputArea-output')].map(o => ({
                mime: o.getAttribute('data-mime-type') || '',
                text: o.textContent,
                images: o.querySelectorAll('img').length,
                decoded: [...o.querySelectorAll('img')].filter(i => i.complete && i.naturalWidth > 0).length,
                tables: o.querySelectorAll('table').length
              }))
            }));
            """;

    private final ChromeDriver driver;
    private final JavascriptExecutor js;

    NotebookPage(ChromeDriver driver) {
        this.driver = driver;
        this.js = driver;
    }

    /** One output of a cell: its MIME type, its text, its images (and how many decoded) and HTML tables. */
    record Output(String mime, String text, int images, int decoded, int tables) {
        boolean stderr() {
            return mime.equals("application/vnd.jupyter.stderr");
        }
    }

    /** One cell as the page shows it. */
    record Cell(int index, boolean code, boolean active, String prompt, String source, List<Output> outputs) {
        /** The execution count its prompt shows ({@code [12]:}), or -1 ({@code [ ]:}, {@code [*]:}). */
        int count() {
            Matcher m = COUNT.matcher(prompt);
            return m.matches() ? Integer.parseInt(m.group(1)) : -1;
        }

        boolean queuedOrRunning() {
            return prompt.contains("*");
        }

        String text() {
            return outputs.stream().map(Output::text).collect(Collectors.joining("\n"));
        }

        /** How it is named in a failure message: its number and its first line. */
        String name() {
            return "cell " + (index + 1) + " " + prompt + " `"
                    + source.lines().findFirst().orElse("").strip() + "`";
        }
    }

    @SuppressWarnings("unchecked")
    List<Cell> cells() {
        var raw = (List<Map<String, Object>>) js.executeScript(CELLS, PANEL);
        if (raw == null) return List.of();
        var cells = new java.util.ArrayList<Cell>();
        for (int i = 0; i < raw.size(); i++) {
            var c = raw.get(i);
            var outputs = ((List<Map<String, Object>>) c.get("outputs"))
                    .stream()
                            .map(o -> new Output(
                                    (String) o.get("mime"),
                                    (String) o.get("text"),
                                    ((Number) o.get("images")).intValue(),
                                    ((Number) o.get("decoded")).intValue(),
                                    ((Number) o.get("tables")).intValue()))
                            .toList();
            cells.add(new Cell(
                    i,
                    (Boolean) c.get("code"),
                    (Boolean) c.get("active"),
                    (String) c.get("prompt"),
                    (String) c.get("source"),
                    outputs));
        }
        return cells;
    }

    Cell cell(int index) {
        return cells().get(index);
    }

    /** The kernel's state as the notebook's toolbar shows it: idle, busy, starting, unknown, dead … */
    String kernelStatus() {
        return (String) js.executeScript(
                "const e = document.querySelector(arguments[0] + ' .jp-Notebook-ExecutionIndicator');"
                        + " return e ? e.getAttribute('data-status') : 'no indicator';",
                PANEL);
    }

    /** The kernel's display name in the notebook's toolbar ("No Kernel" before it starts). */
    String kernelName() {
        return (String) js.executeScript(
                "const e = document.querySelector(arguments[0] + ' .jp-KernelName');"
                        + " return e ? e.textContent.trim() : '';",
                PANEL);
    }

    boolean editMode() {
        return !driver.findElements(By.cssSelector(PANEL + " .jp-Notebook.jp-mod-editMode"))
                .isEmpty();
    }

    boolean commandMode() {
        return !driver.findElements(By.cssSelector(PANEL + " .jp-Notebook.jp-mod-commandMode"))
                .isEmpty();
    }

    /** The texts of the dialogs on screen (a kernel chooser, an error). */
    List<String> dialogs() {
        return driver.findElements(By.cssSelector(".jp-Dialog")).stream()
                .map(WebElement::getText)
                .toList();
    }

    /** Waits for the kernel named {@code displayName} to start and report idle; fails at once on a dialog. */
    void awaitKernel(String displayName, Duration limit) {
        await(limit, "the kernel " + displayName + " to start and report idle", d -> {
            if (!dialogs().isEmpty()) fail("a dialog opened instead of the kernel: " + dialogs());
            return displayName.equals(kernelName()) && "idle".equals(kernelStatus());
        });
    }

    /** Clicks {@code title} in the menu bar, then the item that runs {@code command}. */
    void menu(String title, String command) {
        WebElement item = await(
                Duration.ofSeconds(10),
                "the menu " + title,
                d -> d.findElements(By.cssSelector(".lm-MenuBar-item")).stream()
                        .filter(e -> e.getText().strip().equals(title))
                        .findFirst()
                        .orElse(null));
        item.click();
        new WebDriverWait(driver, Duration.ofSeconds(10), POLL)
                .until(ExpectedConditions.elementToBeClickable(
                        By.cssSelector(".lm-Menu-item[data-command='" + command + "']")))
                .click();
    }

    /**
     * Waits until a Run All is over: the kernel idle, no cell queued or running, and either every one of the
     * {@code codeCells} code cells numbered or an error on screen (the run stops at it). Fails at once if the
     * kernel dies.
     */
    void awaitRunAll(int codeCells, Duration limit) {
        await(limit, "Run All to finish", d -> {
            String status = kernelStatus();
            if (status.equals("dead")) fail("the kernel died during Run All");
            List<Cell> cells = cells();
            if (!status.equals("idle") || cells.stream().anyMatch(Cell::queuedOrRunning)) return false;
            long numbered =
                    cells.stream().filter(c -> c.code() && c.count() > 0).count();
            boolean error = cells.stream().flatMap(c -> c.outputs().stream()).anyMatch(Output::stderr);
            return numbered == codeCells || error;
        });
    }

    /** Makes cell {@code index} the active cell in command mode, as a click on its prompt does. */
    void select(int index) {
        // A click lands where the cell was when it was measured; cells off screen are laid out as they scroll
        // in, so the click is repeated until the page says that this cell is the active one.
        await(Duration.ofSeconds(15), "cell " + (index + 1) + " to be selected", d -> {
            WebElement prompt = (WebElement) js.executeScript(
                    "const c = document.querySelectorAll(arguments[0] + ' .jp-Notebook .jp-Cell')[arguments[1]];"
                            + " c.scrollIntoView({block: 'center'}); return c.querySelector('.jp-InputPrompt');",
                    PANEL,
                    index);
            prompt.click();
            return cell(index).active() && commandMode();
        });
    }

    /** Makes the last cell active, then adds an empty code cell below it and edits it; returns its index. */
    int appendCodeCell() {
        List<Cell> before = cells();
        int last = before.size() - 1;
        Cell end = before.getLast();
        if (end.code() && end.source().isEmpty() && end.outputs().isEmpty() && end.count() < 0) {
            select(last); // an empty cell left at the end, as Shift+Enter on the last cell leaves one
        } else {
            select(last);
            keys("b");
            await(Duration.ofSeconds(10), "a new cell below cell " + (last + 1), d -> {
                List<Cell> now = cells();
                return now.size() == before.size() + 1
                        && now.getLast().active()
                        && now.getLast().code();
            });
            last++;
        }
        keys(Keys.ENTER);
        int index = last;
        await(
                Duration.ofSeconds(10),
                "cell " + (index + 1) + " in edit mode",
                d -> editMode() && cell(index).active());
        return index;
    }

    /** Types {@code code} into the cell being edited and checks that the editor holds exactly that. */
    void type(int index, String code) {
        keys(code);
        await(
                Duration.ofSeconds(10),
                "cell " + (index + 1) + " to hold the typed code",
                d -> cell(index).source().equals(code));
    }

    /** Runs the cell being edited and selects the next one (Shift+Enter). */
    void runAndAdvance() {
        new Actions(driver)
                .keyDown(Keys.SHIFT)
                .sendKeys(Keys.ENTER)
                .keyUp(Keys.SHIFT)
                .perform();
    }

    void keys(CharSequence... keys) {
        new Actions(driver).sendKeys(keys).perform();
    }

    /** Presses the toolbar's ■ (interrupt the kernel). */
    void pressInterrupt() {
        driver.findElement(By.cssSelector(PANEL + " jp-button[data-command='notebook:interrupt-kernel']"))
                .click();
    }

    /**
     * The HTML tables in cell {@code index}'s outputs, each as its rows, each row as its cells' texts (header cells
     * and data cells alike).
     */
    @SuppressWarnings("unchecked")
    List<List<List<String>>> tables(int index) {
        return (List<List<List<String>>>) js.executeScript("""
                const c = document.querySelectorAll(arguments[0] + ' .jp-Notebook .jp-Cell')[arguments[1]];
                return [...c.querySelectorAll('.jp-OutputArea-output table')].map(t =>
                    [...t.querySelectorAll('tr')].map(r => [...r.children].map(x => x.textContent.trim())));
                """, PANEL, index);
    }

    /** Waits for {@code condition} (null or false: not yet), polling; on timeout, an assertion error naming {@code what}. */
    <T> T await(Duration limit, String what, Function<WebDriver, T> condition) {
        return await(limit, what, () -> "", condition);
    }

    /** {@link #await(Duration, String, Function)}, with {@code state} saying what the page showed at the timeout. */
    <T> T await(Duration limit, String what, Supplier<String> state, Function<WebDriver, T> condition) {
        try {
            return new WebDriverWait(driver, limit, POLL)
                    .ignoring(StaleElementReferenceException.class)
                    .ignoring(ElementClickInterceptedException.class)
                    .until(condition::apply);
        } catch (TimeoutException e) {
            String seen = state.get();
            return fail(
                    "waited " + limit.toMillis() / 1000.0 + " s for " + what + "; the kernel is " + kernelStatus()
                            + (seen.isEmpty() ? "" : "; " + seen)
                            + (dialogs().isEmpty() ? "" : "; dialogs on screen: " + dialogs()),
                    e.getCause());
        }
    }

    /** A screenshot of the window with the notebook's first chart at the top, and the page's HTML beside it. */
    void screenshot(Path png) throws IOException {
        screenshot(png, ".jp-OutputArea-output img", "start");
    }

    /** A screenshot with the active cell (where the learner was) in the middle of the window. */
    void screenshotOfActiveCell(Path png) throws IOException {
        screenshot(png, ".jp-Cell.jp-mod-active", "center");
    }

    private void screenshot(Path png, String show, String block) throws IOException {
        // Cells are laid out as they come into view, which moves what is below them: scroll until it stays in
        // place (a page without it is taken as it is).
        String scroll = """
                const e = document.querySelector(arguments[0] + ' ' + arguments[1]);
                if (!e) return true;
                e.scrollIntoView({block: arguments[2]});
                const r = e.getBoundingClientRect();
                return r.height > 0 && r.top >= 0 && r.top < window.innerHeight * 3 / 4;
                """;
        try {
            new WebDriverWait(driver, Duration.ofSeconds(5), POLL)
                    .until(d -> (Boolean) js.executeScript(scroll, PANEL, show, block));
        } catch (TimeoutException stillMoving) {
            // the screenshot is evidence, not a check: take it wherever the page is
        }
        Files.createDirectories(png.getParent());
        Path shot = driver.getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, png, StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(
                png.resolveSibling(png.getFileName().toString().replaceFirst("\\.png$", ".html")),
                driver.getPageSource());
        assertEquals(true, Files.size(png) > 0, "empty screenshot " + png);
    }
}
