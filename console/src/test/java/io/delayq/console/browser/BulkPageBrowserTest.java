package io.delayq.console.browser;

import io.delayq.console.ConsoleFixture;
import io.delayq.console.sample.SampleQueue;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The bulk page in a real browser: a filter, the preview that changes nothing, confirm, the job's progress to done, the jobs table. */
class BulkPageBrowserTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Path SHOTS = Path.of(System.getProperty("delayq.screenshots", "target/screenshots"));
    private static final String Q = SampleQueue.QUEUE;

    private ConsoleFixture f;
    private Browser browser;

    @RegisterExtension
    final ConsoleInBrowser console = new ConsoleInBrowser(redis);

    @BeforeEach
    void start() {
        f = console.fixture();
        browser = console.browser();
    }

    @Test
    void aPreviewedBulkCancelRunsToDoneAfterTheConfirmation() throws Exception {
        console.signIn();

        browser.open(f.url() + "#/q/" + Q);
        String before = browser.readyMark();
        browser.find("#bulk-link").click();
        browser.waitRendered(before);
        browser.find("#b-prefix").sendKeys("order-100");
        browser.find("#bulk-preview").click();
        assertThat(browser.text("#bulk-message")).startsWith("Cancel (delete with their records) for 100 waiting tasks (waiting tasks, id prefix 'order-100')");
        assertThat(browser.all("#bulk-sample tbody tr")).hasSize(20);
        assertThat(browser.text("#bulk-sample tbody tr:first-child")).startsWith("order-10000");
        assertThat(f.dueScore("order-10001")).as("a preview changes nothing").isNotNull();
        browser.screenshot(SHOTS.resolve("console-bulk-preview.png"));

        browser.find("#bulk-confirm").click();
        new WebDriverWait(browser.driver(), Duration.ofSeconds(20)).until(d ->
                "done".equals(d.findElement(By.id("bulk-progress-text")).getAttribute("data-status")));
        assertThat(browser.text("#bulk-progress-text")).startsWith("100 / 100 done");
        assertThat(f.dueScore("order-10001")).isNull();
        assertThat(f.dueScore("order-10100")).as("outside the prefix").isNotNull();
        assertThat(browser.text("#bulk-job-table tbody tr:first-child")).contains("100 / 100", "done", "alice@127.0.0.1");
        browser.assertShowsNoMissingValue();
        browser.screenshot(SHOTS.resolve("console-bulk-done.png"));
    }
}
