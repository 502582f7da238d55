package io.delayq.console.browser;

import io.delayq.calendar.BusinessCalendar;
import io.delayq.calendar.Calendars;
import io.delayq.console.ConsoleFixture;
import io.delayq.console.sample.SampleQueue;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The queue page's business calendars in a real browser: one is added through the form, edited, and deleted, each confirmed. */
class CalendarBrowserTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

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

    private void signIn() {
        console.signIn();
    }

    @Test
    void aCalendarIsAddedEditedAndDeletedFromTheQueuePage() throws Exception {
        signIn();
        browser.open(f.url() + "#/q/" + Q);
        assertThat(browser.text("#no-calendars")).startsWith("No business calendar in this queue");

        browser.find("#cal-name").sendKeys("de-bank");
        browser.find("#cal-zone").sendKeys("Europe/Berlin");
        browser.find("#cal-holidays").sendKeys("2026-12-24\n2026-12-25");
        String said = browser.confirm("#calendar-save", true);
        assertThat(said).startsWith("Create calendar 'de-bank' (Europe/Berlin, 5 weekdays, 2 holidays)?");
        assertThat(browser.text("#notice")).startsWith("Created calendar 'de-bank'");
        BusinessCalendar stored = Calendars.of(f.orders()).require("de-bank");
        assertThat(stored.holidays()).containsExactly(LocalDate.parse("2026-12-24"), LocalDate.parse("2026-12-25"));
        assertThat(browser.text("#calendars tr[data-calendar='de-bank']")).contains("de-bank", "Europe/Berlin", "MON,TUE,WED,THU,FRI");

        // Edit fills the form with the stored calendar; a changed weekday set replaces it
        browser.find("#calendar-edit-de-bank").click();
        assertThat(browser.find("#cal-holidays").getAttribute("value")).isEqualTo("2026-12-24\n2026-12-25");
        browser.find("#cal-weekdays").clear();
        browser.find("#cal-weekdays").sendKeys("sun,mon,tue,wed,thu");
        said = browser.confirm("#calendar-save", true);
        assertThat(said).startsWith("Replace calendar 'de-bank'");
        assertThat(Calendars.of(f.orders()).require("de-bank").weekdays()).hasSize(5).contains(java.time.DayOfWeek.SUNDAY);

        // a bad zone is an error naming the field; nothing is written
        browser.find("#cal-name").clear();
        browser.find("#cal-name").sendKeys("mars");
        browser.find("#cal-zone").clear();
        browser.find("#cal-zone").sendKeys("Mars/Olympus");
        browser.find("#calendar-save").click();
        org.awaitility.Awaitility.await().until(() -> !browser.all("#flash .error, #flash [role='alert']").isEmpty());
        assertThat(browser.text("#flash")).contains("timeZone").contains("Mars/Olympus");
        assertThat(Calendars.of(f.orders()).get("mars")).isEmpty();

        browser.confirm("#calendar-delete-de-bank", true);
        assertThat(Calendars.of(f.orders()).list()).isEmpty();
        assertThat(browser.all("#calendars")).isEmpty();
        List<String> none = browser.all("#no-calendars").stream().map(e -> e.getText()).toList();
        assertThat(none).hasSize(1);
    }
}
