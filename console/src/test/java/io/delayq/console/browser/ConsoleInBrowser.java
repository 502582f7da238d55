package io.delayq.console.browser;

import io.delayq.console.ConsoleFixture;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A console on a real Redis and a real browser for each test (register it as an instance field). Without a browser
 * the test is skipped, except where {@code delayq.requireBrowser} is set (CI's second pass installs chromium and sets
 * it): there a missing browser is a failure.
 */
final class ConsoleInBrowser implements BeforeEachCallback, AfterEachCallback {
    private final RedisServerExtension redis;
    private ConsoleFixture fixture;
    private Browser browser;

    ConsoleInBrowser(RedisServerExtension redis) {
        this.redis = redis;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        String missing = Browser.missing();
        if (missing != null && Boolean.getBoolean("delayq.requireBrowser")) {
            throw new IllegalStateException("delayq.requireBrowser is set but " + missing);
        }
        assumeTrue(missing == null, () -> "browser tests skipped: " + missing);
        fixture = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        browser = Browser.start(1280, 900);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (browser != null) {
            browser.close();
            browser = null;
        }
        closeFixture();
    }

    ConsoleFixture fixture() {
        return fixture;
    }

    /** Closes the console started for the test, so that the test can start one of its own ({@link #use}). */
    void closeFixture() {
        if (fixture != null) {
            fixture.close();
            fixture = null;
        }
    }

    /** A console the test started itself: the one {@link #signIn()} signs in to, closed after the test. */
    ConsoleFixture use(ConsoleFixture started) {
        closeFixture();
        fixture = started;
        return started;
    }

    Browser browser() {
        return browser;
    }

    /** Signs in on the start page as alice with the console's token. */
    void signIn() {
        browser.open(fixture.url() + "#/");
        browser.find("#user").sendKeys("alice");
        browser.find("#token").sendKeys(ConsoleFixture.TOKEN);
        String before = browser.readyMark();
        browser.find("#sign-in button").click();
        browser.waitRendered(before);
        assertThat(browser.text("#signed-in")).isEqualTo("signed in as alice");
    }
}
