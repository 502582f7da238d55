package io.delayq.console.browser;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Debian's chromium, headless, driven through Debian's chromedriver. Both paths are given, so Selenium
 * Manager never looks for (or downloads) a driver or a browser. Each browser gets a fresh profile.
 */
public final class Browser implements AutoCloseable {
    public static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("CHROMIUM_BIN", "/usr/bin/chromium"));
    public static final Path CHROMEDRIVER = Path.of(System.getenv().getOrDefault("CHROMEDRIVER_BIN", "/usr/bin/chromedriver"));
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final ChromeDriver driver;
    private final Path profile;

    private Browser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /** Why no browser test can run here, or null when chromium and chromedriver are installed. */
    public static String missing() {
        if (!Files.isExecutable(CHROMIUM)) {
            return "no chromium at " + CHROMIUM + " (apt-get install chromium chromium-driver; .ci/install-browser.sh)";
        }
        if (!Files.isExecutable(CHROMEDRIVER)) {
            return "no chromedriver at " + CHROMEDRIVER + " (apt-get install chromium-driver; .ci/install-browser.sh)";
        }
        return null;
    }

    public static Browser start(int width, int height) throws IOException {
        Path profile = Files.createTempDirectory("delayq-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--user-data-dir=" + profile, "--window-size=" + width + "," + height, "--force-device-scale-factor=1");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().window().setSize(new Dimension(width, height));
        return new Browser(driver, profile);
    }

    public ChromeDriver driver() {
        return driver;
    }

    /** Opens a console URL and waits until the page rendered (the app marks {@code main[data-ready]}). */
    public void open(String url) {
        String before = readyMark();
        driver.get(url);
        waitRendered(before);
    }

    /**
     * Waits for the next render after an action or a navigation that started with {@code before}, then checks that
     * the page shows no missing value: every page a test visits is rendered through here.
     */
    public void waitRendered(String before) {
        new WebDriverWait(driver, WAIT).until(d -> {
            String now = readyMark();
            return now != null && !now.equals(before);
        });
        assertShowsNoMissingValue();
    }

    /**
     * Fails when the page shows {@code null}, {@code undefined} or {@code NaN} as a word of its text: how JavaScript
     * prints a value the page did not have (a field the API left out, a null handed to a DOM call, a sum with a gap),
     * which a person would read as data.
     */
    public void assertShowsNoMissingValue() {
        @SuppressWarnings("unchecked")
        List<String> found = (List<String>) driver.executeScript("const text = document.body.innerText;"
                + "const m = /\\b(null|undefined|NaN)\\b/.exec(text);"
                + "return m ? [m[1], text.slice(Math.max(0, m.index - 80), m.index + 80)] : null;");
        if (found != null) {
            throw new AssertionError("the page " + driver.getCurrentUrl() + " shows '" + found.get(0) + "' as text, in: …"
                    + found.get(1).replace('\n', ' ') + "…");
        }
    }

    public String readyMark() {
        try {
            List<WebElement> main = driver.findElements(By.cssSelector("main[data-ready]"));
            return main.isEmpty() ? null : main.get(0).getAttribute("data-ready");
        } catch (org.openqa.selenium.StaleElementReferenceException e) {
            return null;
        }
    }

    public WebElement find(String css) {
        return new WebDriverWait(driver, WAIT).until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
    }

    public List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    public String text(String css) {
        return find(css).getText();
    }

    /** Clicks an action button, checks the confirmation dialog names what it will touch, and confirms it. */
    public String confirm(String buttonCss, boolean yes) {
        find(buttonCss).click();
        WebElement message = find("#confirm[open] #confirm-message");
        String said = message.getText() + "\n" + driver.findElement(By.id("confirm-sample")).getText();
        String before = readyMark();
        find(yes ? "#confirm-yes" : "#confirm-no").click();
        if (yes) {
            waitRendered(before);
        }
        find("#notice");
        return said;
    }

    public void screenshot(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
    }

    /** Resizes the window so that the whole page fits, for a full-page screenshot. */
    public void fitPage(int width) {
        Number h = (Number) driver.executeScript("return Math.max(document.body.scrollHeight, document.documentElement.scrollHeight)"
                + " + (window.outerHeight - window.innerHeight)");
        driver.manage().window().setSize(new Dimension(width, Math.min(3000, h.intValue() + 4)));
    }

    @Override
    public void close() {
        driver.quit();
        try (Stream<Path> files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException e) {
            // a temp profile left behind is harmless
        }
    }
}
