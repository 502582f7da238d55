package io.delayq.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.calendar.BusinessCalendar;
import io.delayq.calendar.Calendars;
import io.delayq.schedule.CalendarRule;
import io.delayq.schedule.CronSchedule;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's business calendars over real HTTP and a real Redis: the list, and put and delete as confirm-then-act actions. */
class CalendarConsoleTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PUT = "api/queues/shop-orders/actions/calendar-put";
    private static final String DELETE = "api/queues/shop-orders/actions/calendar-delete";
    private ConsoleFixture f;

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return f.get(path);
    }

    private HttpResponse<String> post(String path, String body, String... headers) throws Exception {
        return f.post(path, body, headers);
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body());
    }

    private String[] signIn() throws Exception {
        HttpResponse<String> in = post("api/session", "{\"token\":\"" + ConsoleFixture.TOKEN + "\",\"name\":\"alice\"}");
        String cookie = in.headers().firstValue("Set-Cookie").orElseThrow();
        return new String[] {"Cookie", cookie.substring(0, cookie.indexOf(';')), "X-CSRF-Token", json(in).get("csrf").asText()};
    }

    @Test
    void calendarsAreListedAndPutAndDeletedAfterAPreview() throws Exception {
        f = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        String[] auth = signIn();
        String calendar = "{\"calendar\":{\"name\":\"de-bank\",\"timeZone\":\"Europe/Berlin\",\"weekdays\":[\"MON\",\"TUE\",\"WED\",\"THU\",\"FRI\"],"
                + "\"holidays\":[\"2026-12-25\",\"2026-12-24\"]}";
        HttpResponse<String> preview = post(PUT, calendar + "}", auth);
        assertThat(preview.statusCode()).as(preview.body()).isEqualTo(200);
        assertThat(json(preview).get("message").asText()).startsWith("Create calendar 'de-bank' (Europe/Berlin, 5 weekdays, 2 holidays)?");
        assertThat(Calendars.of(f.orders()).get("de-bank")).as("a preview writes nothing").isEmpty();

        HttpResponse<String> done = post(PUT, calendar + ",\"confirm\":true}", auth);
        assertThat(json(done).get("touched").asInt()).as(done.body()).isEqualTo(1);
        BusinessCalendar stored = Calendars.of(f.orders()).require("de-bank");
        assertThat(stored.holidays()).hasSize(2);

        JsonNode list = json(get("api/queues/shop-orders/calendars"));
        JsonNode row = list.get("calendars").get(0);
        assertThat(row.get("name").asText()).isEqualTo("de-bank");
        assertThat(row.get("holidays").toString()).isEqualTo("[\"2026-12-24\",\"2026-12-25\"]");
        assertThat(row.has("businessToday")).isTrue();
        assertThat(row.get("nextBusinessDay").asText()).matches("\\d{4}-\\d{2}-\\d{2}");

        // a schedule that keeps to it is named in the preview of a change, and gets the new copy
        io.delayq.schedule.Schedules.of(f.orders()).put(CronSchedule.of("settle", "0 10 * * *").calendar(stored, CalendarRule.ROLL));
        String changed = calendar.replace("\"2026-12-24\"]", "\"2026-12-24\",\"2026-12-31\"]");
        HttpResponse<String> change = post(PUT, changed + "}", auth);
        assertThat(json(change).get("message").asText()).startsWith("Replace calendar 'de-bank'").contains("planned again");
        assertThat(json(change).get("sample").toString()).isEqualTo("[\"settle\"]");
        post(PUT, changed + ",\"confirm\":true}", auth);
        assertThat(io.delayq.schedule.Schedules.of(f.orders()).get("settle").orElseThrow().definition().calendar().holidays()).hasSize(3);
        assertThat(json(get("api/queues/shop-orders/schedules")).toString()).contains("\"calendar\":\"de-bank\",\"calendarRule\":\"roll\"");

        HttpResponse<String> same = post(PUT, changed + "}", auth);
        assertThat(same.statusCode()).isEqualTo(409);

        HttpResponse<String> del = post(DELETE, "{\"name\":\"de-bank\",\"confirm\":true}", auth);
        assertThat(json(del).get("message").asText()).as(del.body()).isEqualTo("Deleted calendar 'de-bank'.");
        assertThat(json(get("api/queues/shop-orders/calendars")).get("calendars")).isEmpty();
        assertThat(post(DELETE, "{\"name\":\"de-bank\"}", auth).statusCode()).isEqualTo(404);
        assertThat(get("api/audit").body()).contains("calendar-put", "calendar-delete");
    }

    @Test
    void aBadCalendarGetsAnErrorNamingTheFieldAndRule() throws Exception {
        f = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        String[] auth = signIn();
        HttpResponse<String> zone = post(PUT, "{\"calendar\":{\"name\":\"x\",\"timeZone\":\"Mars/Olympus\",\"weekdays\":[\"MON\"]}}", auth);
        assertThat(zone.statusCode()).isEqualTo(400);
        assertThat(json(zone).at("/error/field").asText()).isEqualTo("timeZone");
        assertThat(json(zone).at("/error/message").asText()).isEqualTo("must be an IANA time zone such as Europe/Berlin or UTC, got \"Mars/Olympus\"");
        HttpResponse<String> days = post(PUT, "{\"calendar\":{\"name\":\"x\",\"timeZone\":\"UTC\",\"weekdays\":[]}}", auth);
        assertThat(json(days).at("/error/field").asText()).isEqualTo("weekdays");
        HttpResponse<String> date = post(PUT, "{\"calendar\":{\"name\":\"x\",\"timeZone\":\"UTC\",\"weekdays\":[\"MON\"],\"holidays\":[\"2026-02-30\"]}}", auth);
        assertThat(json(date).at("/error/field").asText()).isEqualTo("holidays");
        HttpResponse<String> unsigned = post(PUT, "{\"calendar\":{\"name\":\"x\",\"timeZone\":\"UTC\",\"weekdays\":[\"MON\"]},\"confirm\":true}");
        assertThat(unsigned.statusCode()).isIn(401, 403);
        assertThat(Calendars.of(f.orders()).list()).isEmpty();
    }
}
