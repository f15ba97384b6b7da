package course.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium, driven by Debian's chromedriver, as the course's browser tests run it. Selenium Manager
 * is never used: the driver is named here and in {@code webdriver.chrome.driver}, and nothing is downloaded.
 */
final class Chromium {

    static final Path BINARY = Path.of(System.getProperty("e2e.chromium", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getProperty("webdriver.chrome.driver", "/usr/bin/chromedriver"));

    private Chromium() {}

    /** The browser's options, with its profile in {@code profile} (a path without "..": chromedriver refuses one). */
    static ChromeOptions options(Path profile) {
        var options = new ChromeOptions();
        options.setBinary(BINARY.toFile());
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

    /** A browser with a new profile under {@code out}, logging to {@code out/log}; quit it, then delete the profile. */
    static ChromeDriver start(Path profile, Path log) throws IOException {
        LabServer.checkExecutable(BINARY);
        LabServer.checkExecutable(DRIVER);
        Logger.getLogger("org.openqa.selenium").setLevel(Level.WARNING);
        Logger.getLogger("org.openqa.selenium.devtools").setLevel(Level.SEVERE); // no CDP bindings needed
        Files.createDirectories(profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .withLogFile(log.toFile())
                .build();
        return new ChromeDriver(service, options(profile));
    }
}
