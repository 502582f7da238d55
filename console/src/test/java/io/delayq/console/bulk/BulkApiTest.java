package io.delayq.console.bulk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.console.ConsoleFixture;
import io.delayq.testing.RedisServerExtension;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's bulk API over real HTTP: preview changes nothing, bad input names its field, a confirmed job runs to its end and is audited. */
class BulkApiTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final ObjectMapper JSON = new ObjectMapper();
    private ConsoleFixture f;
    private String session;
    private String csrf;

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return f.get(path);
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return session == null ? f.post(path, body) : f.post(path, body, "Cookie", session, "X-CSRF-Token", csrf);
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body());
    }

    private void signIn() throws Exception {
        HttpResponse<String> in = post("api/session", "{\"token\":\"" + ConsoleFixture.TOKEN + "\",\"name\":\"alice\"}");
        String cookie = in.headers().firstValue("Set-Cookie").orElseThrow();
        session = cookie.substring(0, cookie.indexOf(';'));
        csrf = json(in).get("csrf").asText();
    }

    @Test
    void previewThenAConfirmedJobRunsToItsEndAndIsAudited() throws Exception {
        f = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        String body = "{\"filter\":{\"prefix\":\"order-1\",\"state\":\"scheduled\"},\"action\":{\"kind\":\"shift\",\"shift\":\"+1h\"}}";
        assertThat(post("api/queues/shop-orders/bulk", body).statusCode()).as("no session").isEqualTo(401);
        signIn();
        Double before = f.dueScore("order-10000");
        HttpResponse<String> preview = post("api/queues/shop-orders/bulk", body);
        assertThat(preview.statusCode()).as(preview.body()).isEqualTo(200);
        JsonNode p = json(preview);
        int scheduled = p.get("matched").asInt();
        assertThat(scheduled).as("the sample queue's scheduled orders").isGreaterThan(100);
        assertThat(p.get("sample").size()).isEqualTo(Math.min(20, scheduled));
        assertThat(p.get("sample").get(0).get("id").asText()).isEqualTo("order-10000");
        assertThat(p.get("message").asText()).startsWith("Shift later by 1h 00m for " + scheduled + " waiting tasks");
        assertThat(f.dueScore("order-10000")).as("a preview changes nothing").isEqualTo(before);

        HttpResponse<String> started = post("api/queues/shop-orders/bulk", body.replace("{\"filter\"", "{\"confirm\":true,\"filter\""));
        assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
        String job = json(started).get("id").asText();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> json(get("api/queues/shop-orders/bulk/" + job)).get("status").asText().equals("done"));
        JsonNode done = json(get("api/queues/shop-orders/bulk/" + job));
        assertThat(done.get("done").asInt()).isEqualTo(scheduled);
        assertThat(done.get("by").asText()).isEqualTo("alice@127.0.0.1");
        assertThat(f.dueScore("order-10000")).isEqualTo(before + Duration.ofHours(1).toMillis());
        assertThat(json(get("api/queues/shop-orders/bulk")).get("jobs").get(0).get("id").asText()).isEqualTo(job);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> actions().contains("bulk-done"));
        assertThat(actions()).contains("bulk-start", "bulk-done");
    }

    private List<String> actions() throws Exception {
        List<String> out = new ArrayList<>();
        json(get("api/audit")).get("actions").forEach(a -> out.add(a.get("action").asText() + (a.get("who").asText().equals("alice@127.0.0.1") ? "" : "?")));
        return out;
    }

    @Test
    void badInputIsRefusedNamingTheField() throws Exception {
        f = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        signIn();
        assertField(post("api/queues/shop-orders/bulk", "{\"filter\":{\"from\":\"2030-01-02T00:00:00Z\",\"to\":\"2030-01-01T00:00:00Z\"},\"action\":\"cancel\"}"),
                400, "to", "the due window [from, to) must end after it starts");
        assertField(post("api/queues/shop-orders/bulk", "{\"filter\":{},\"action\":\"explode\"}"), 400, "action", "must be cancel, reschedule");
        assertField(post("api/queues/shop-orders/bulk", "{\"filter\":{\"group\":\"nobody\"},\"action\":\"cancel\"}"), 400, "group", "no task waits in group 'nobody'");
        assertField(post("api/queues/shop-orders/bulk", "{\"filter\":{\"prefix\":\"nope-\"},\"action\":\"cancel\",\"confirm\":true}"), 404, "filter",
                "nothing was done");
        assertField(post("api/queues/shop-orders/bulk", "{\"filter\":{},\"action\":{\"kind\":\"shift\",\"shift\":\"sideways\"}}"), 400, "shift",
                "must be a duration with an optional sign");
        assertField(post("api/queues/shop-orders/bulk", "{\"filter\":{},\"action\":{\"kind\":\"reschedule\"}}"), 400, "at", "is required");
        assertThat(json(get("api/queues/shop-orders/bulk")).get("jobs").size()).isZero();
    }

    private static void assertField(HttpResponse<String> r, int status, String field, String text) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(json(r).get("error").get("field").asText()).as(r.body()).isEqualTo(field);
        assertThat(r.body()).contains(text);
    }
}
