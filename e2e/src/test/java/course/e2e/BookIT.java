package course.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.FileTrees;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The course as a book ({@code ./course book}), read in a real browser from its files: every page loads with a
 * title, every link between the book's pages resolves (its page exists, and so does the anchor it names), every
 * image decodes, nothing is fetched from a network (every resource is a {@code file:} or {@code data:} URL), the
 * formulas are typeset by the site's own MathJax, the search box finds a chapter by its words, and the contents page
 * links every notebook. It saves full-page
 * screenshots of the contents and of one chapter ({@code book-index.png}, {@code book-chapter.png}).
 *
 * <p>It runs when {@code -Dbook.dir=FOLDER} names a built book ({@code ./course test} does that after its
 * notebooks); otherwise it is skipped. Debian's Chromium and chromedriver ({@link Chromium}).
 */
class BookIT {

    private static final Path ROOT =
            Path.of(System.getProperty("course.root", "..")).toAbsolutePath().normalize();
    private static final String BOOK = System.getProperty("book.dir", "");
    private static final Path OUT = Path.of(System.getProperty(
                    "book.screenshots", ROOT.resolve("target/e2e").toString()))
            .toAbsolutePath()
            .normalize();
    private static final String CHAPTER = System.getProperty("book.chapter", "02-cafe-simulation.html");

    /** What the page's script reports: its title, ids, links, images and resources. */
    private static final String INSPECT = """
            const ids = [...document.querySelectorAll('[id]')].map(e => e.id)
                .concat([...document.querySelectorAll('a[name]')].map(e => e.name));
            const links = [...document.querySelectorAll('a[href]')].map(a => a.href);
            const images = [...document.querySelectorAll('img')].map(i =>
                i.complete && i.naturalWidth > 0 ? '' : (i.src || '').slice(0, 80));
            const resources = performance.getEntriesByType('resource').map(r => r.name);
            return {title: document.title, ids: ids, links: links, broken: images.filter(s => s !== ''),
                    images: images.length, resources: resources,
                    math: document.querySelectorAll('.MathJax_CHTML').length,
                    mathSource: (document.body.innerText.match(/\\$[^$\\n]+\\$/g) || []).length};
            """;

    @Test
    @SuppressWarnings("unchecked")
    void everyPageLoadsEveryLinkResolvesEveryImageDecodes() throws Exception {
        Assumptions.assumeFalse(BOOK.isBlank(), "no -Dbook.dir: build the book first (./course book)");
        Logger.getLogger("org.openqa.selenium").setLevel(Level.WARNING);
        Path book = Path.of(BOOK).toAbsolutePath().normalize();
        assertTrue(Files.isRegularFile(book.resolve("index.html")), "no index.html in " + book);
        LabServer.checkExecutable(Chromium.BINARY);
        LabServer.checkExecutable(Chromium.DRIVER);
        Files.createDirectories(OUT);

        List<Path> pages;
        try (Stream<Path> s = Files.list(book)) {
            pages = s.filter(p -> p.getFileName().toString().endsWith(".html"))
                    .sorted()
                    .toList();
        }
        Path profile = Files.createTempDirectory(OUT, "chromium-book-");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Chromium.DRIVER.toFile())
                .usingAnyFreePort()
                .withLogFile(OUT.resolve("chromedriver-book.log").toFile())
                .build();
        ChromeOptions options = Chromium.options(profile);
        options.addArguments("--allow-file-access-from-files"); // MathJax's fonts from file: pages
        ChromeDriver driver = new ChromeDriver(service, options);
        Map<Path, Set<String>> anchors = new LinkedHashMap<>();
        Map<String, List<String>> linksFrom = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        int images = 0;
        int math = 0;
        try {
            for (Path page : pages) {
                driver.get(page.toUri().toString());
                waitForMath(driver);
                var seen = (Map<String, Object>) ((JavascriptExecutor) driver).executeScript(INSPECT);
                String name = page.getFileName().toString();
                if (String.valueOf(seen.get("title")).isBlank()) problems.add(name + ": no title");
                anchors.put(page, new HashSet<>((List<String>) seen.get("ids")));
                linksFrom.put(name, (List<String>) seen.get("links"));
                for (Object broken : (List<Object>) seen.get("broken")) {
                    problems.add(name + ": an image that does not decode: " + broken);
                }
                images += ((Number) seen.get("images")).intValue();
                for (Object r : (List<Object>) seen.get("resources")) {
                    String url = String.valueOf(r);
                    if (!url.startsWith("file:") && !url.startsWith("data:")) {
                        problems.add(name + ": fetched from a network: " + url);
                    }
                }
                int typeset = ((Number) seen.get("math")).intValue();
                math += typeset;
                if (typeset == 0 && ((Number) seen.get("mathSource")).intValue() > 0) {
                    problems.add(name + ": $…$ formulas left as text, MathJax typeset none");
                }
                if (name.equals("index.html")) {
                    problems.addAll(search(driver, book, "semaphore throttling", "05-semaphore-throttling.html"));
                    screenshot(driver, OUT.resolve("book-index.png"));
                }
                if (name.equals(CHAPTER)) screenshot(driver, OUT.resolve("book-chapter.png"));
            }
        } finally {
            driver.quit();
            FileTrees.delete(profile);
        }

        int internal = 0;
        for (var e : linksFrom.entrySet()) {
            for (String link : e.getValue()) {
                URI uri = URI.create(link);
                if (!"file".equals(uri.getScheme())) continue;
                internal++;
                Path target = Path.of(uri.getPath());
                if (!target.startsWith(book) || !Files.isRegularFile(target)) {
                    problems.add(e.getKey() + ": a link to no page of the book: " + link);
                    continue;
                }
                String fragment = uri.getRawFragment();
                if (fragment != null && !fragment.isEmpty() && anchors.containsKey(target)) {
                    // a browser looks for the decoded fragment, then for it as written (nbconvert's heading ids
                    // keep the percent-encoding: id="08-%C2%B7-An-HTTP-service")
                    String id = URLDecoder.decode(fragment.replace("+", "%2B"), StandardCharsets.UTF_8);
                    Set<String> ids = anchors.get(target);
                    if (!ids.contains(id) && !ids.contains(fragment)) {
                        problems.add(e.getKey() + ": a link to no anchor of " + target.getFileName() + ": #" + id);
                    }
                }
            }
        }

        List<String> contents = linksFrom.getOrDefault("index.html", List.of());
        try (Stream<Path> s = Files.list(ROOT.resolve("notebooks"))) {
            for (Path nb : s.filter(p -> p.getFileName().toString().matches("\\d\\d-.*\\.ipynb"))
                    .toList()) {
                String html = nb.getFileName().toString().replaceFirst("\\.ipynb$", ".html");
                if (contents.stream().noneMatch(l -> l.endsWith("/" + html))) {
                    problems.add("index.html: no link to the chapter " + html);
                }
            }
        }
        System.out.printf(
                "[book] %d pages, %d links between them, %d images, %d formulas typeset%n",
                pages.size(), internal, images, math);
        assertTrue(problems.isEmpty(), () -> String.join("\n", problems));
        assertTrue(images > 0, "no image in the whole book");
        assertTrue(math > 0, "no formula typeset in the whole book");
        assertTrue(Files.size(OUT.resolve("book-index.png")) > 0);
        assertEquals(true, Files.size(OUT.resolve("book-chapter.png")) > 0, "no screenshot of " + CHAPTER);
    }

    /** Types {@code words} into the search box: the pages it lists exist, and {@code expected} is among them. */
    private static List<String> search(ChromeDriver driver, Path book, String words, String expected) {
        driver.findElement(By.id("book-search")).sendKeys(words);
        List<WebElement> found = new WebDriverWait(driver, Duration.ofSeconds(30)).until(d -> {
            var links = d.findElements(By.cssSelector("#book-search-results a"));
            return links.isEmpty() ? null : links;
        });
        List<String> problems = new ArrayList<>();
        List<String> pages = found.stream()
                .map(a -> Path.of(URI.create(a.getAttribute("href")).getPath()))
                .peek(p -> {
                    if (!Files.isRegularFile(p)) problems.add("search: a result that is no page: " + p);
                })
                .map(p -> p.getFileName().toString())
                .toList();
        if (!pages.contains(expected)) problems.add("search for '" + words + "': " + expected + " not in " + pages);
        return problems;
    }

    /** MathJax typesets after the load event; it is done when its queue has run (or the page has no MathJax). */
    private static void waitForMath(ChromeDriver driver) {
        new WebDriverWait(driver, Duration.ofSeconds(30))
                .until(d -> (Boolean) ((JavascriptExecutor) d).executeAsyncScript("""
                                const done = arguments[arguments.length - 1];
                                if (document.readyState !== 'complete') { done(false); return; }
                                if (!window.MathJax || !MathJax.Hub) { done(true); return; }
                                MathJax.Hub.Queue(() => done(true));
                                """));
    }

    private static void screenshot(ChromeDriver driver, Path png) throws IOException {
        Number height =
                (Number) ((JavascriptExecutor) driver).executeScript("return document.documentElement.scrollHeight;");
        driver.manage().window().setSize(new Dimension(1280, Math.min(Math.max(height.intValue(), 800), 16000)));
        Path shot = driver.getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, png, StandardCopyOption.REPLACE_EXISTING);
        driver.manage().window().setSize(new Dimension(1280, 1000));
    }
}
