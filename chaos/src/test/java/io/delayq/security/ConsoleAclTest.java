package io.delayq.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.claim.RateLimit;
import io.delayq.client.DelayQueueClient;
import io.delayq.console.Console;
import io.delayq.console.ConsoleSettings;
import io.delayq.console.sample.SampleQueue;
import io.delayq.queue.QueueProtocol;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The console's ACL user exactly as docs/security.md prints it, on a real redis-server: every page and
 * every action of the console works without one denied command, and the user cannot claim, flush,
 * reconfigure or read keys outside dq:*.
 */
class ConsoleAclTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    private static final String PASSWORD = "console-secret-4e2a";
    private static final String TOKEN = "acl-test-token";
    private static final String Q = SampleQueue.QUEUE;
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private final HttpClient http = HttpClient.newHttpClient();

    /** The console's documented line for the queues this class creates: protocol 2's, without protocol 3's part. */
    String consoleLine(String password) throws Exception {
        return DocumentedAcl.lineForProtocol2("delayq-console", "console", password);
    }

    @BeforeEach
    void createDocumentedUser() throws Exception {
        DocumentedAcl.apply(redis.admin(), consoleLine(PASSWORD));
        redis.admin().commands().aclLogReset().get(5, TimeUnit.SECONDS);
    }

    private String url() {
        return "redis://delayq-console:" + PASSWORD + "@127.0.0.1:" + redis.server().port();
    }

    @Test
    void everyPageAndEveryActionRunsWithTheDocumentedUserAndNoDeniedCommand() throws Exception {
        SampleQueue.fill(redis.admin(), 200);
        // a worker in the presence registry holding nothing: the queue page lists it, a task page looks for its leases
        new io.delayq.presence.PresenceRegistry(redis.admin(), Q, Duration.ofSeconds(5)).beat("worker-acl", new io.delayq.shard.ShardRange(0,
                SampleQueue.SHARDS - 1), "test", "node", Duration.ofMinutes(5), 0, List.of());
        try (Console console = Console.start(new ConsoleSettings(url(), "127.0.0.1", 0, TOKEN, List.of(), Duration.ofMillis(200),
                Duration.ofMinutes(1)))) {
            String base = console.url() + "api/";
            for (String page : List.of("overview", "queues/" + Q, "queues/" + Q + "/schedules", "queues/" + Q + "/tasks/payout-501",
                    "queues/" + Q + "/tasks/order-10001",
                    "queues/" + Q + "/tasks/coupon-expire-77")) {
                assertThat(get(base + page).statusCode()).as(page).isEqualTo(200);
            }
            // the queue page's next hour: forecast.lua (ZCARD, ZRANGE BYSCORE, ZCOUNT) on every shard, as the console user
            JsonNode forecast = JSON.readTree(get(base + "queues/" + Q).body()).get("forecast");
            assertThat(forecast.get("dueNextHour").asLong()).as("the sample's scheduled tasks, due within the hour").isPositive();
            for (String state : List.of("scheduled", "due", "inflight", "dead")) {
                assertThat(get(base + "queues/" + Q + "/tasks?state=" + state + "&prefix=o&from=0&to=99999999999999&limit=5").statusCode())
                        .as(state).isEqualTo(200);
            }
            HttpResponse<String> in = post(base + "session", "{\"token\":\"" + TOKEN + "\",\"name\":\"acl\"}", null, null);
            String cookie = in.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
            String csrf = JSON.readTree(in.body()).get("csrf").asText();
            List<Map.Entry<String, String>> actions = List.of(
                    Map.entry("cancel", "{\"id\":\"order-10001\"}"),
                    Map.entry("reschedule", "{\"id\":\"order-10002\",\"at\":\"2031-01-01T00:00:00Z\"}"),
                    Map.entry("run-now", "{\"id\":\"order-10003\"}"),
                    Map.entry("dead-replay", "{\"id\":\"payout-500\"}"),
                    Map.entry("dead-purge", "{\"filter\":{\"prefix\":\"payout-51\"}}"),
                    Map.entry("dead-replay", "{\"all\":true}"),
                    Map.entry("pause", "{}"),
                    Map.entry("resume", "{}"),
                    Map.entry("schedule-pause", "{\"name\":\"" + SampleQueue.SCHEDULE + "\"}"),
                    Map.entry("schedule-resume", "{\"name\":\"" + SampleQueue.SCHEDULE + "\"}"));
            for (Map.Entry<String, String> a : actions) {
                // a filtered or all-dead-letters action is confirmed with the selection its preview returned
                JsonNode preview = JSON.readTree(post(base + "queues/" + Q + "/actions/" + a.getKey(), a.getValue(), cookie, csrf).body());
                String selection = preview.has("selection") ? ",\"selection\":\"" + preview.get("selection").asText() + "\"" : "";
                String confirmed = a.getValue().replaceFirst("\\{", "{\"confirm\":true" + selection + ",").replace(",}", "}");
                HttpResponse<String> r = post(base + "queues/" + Q + "/actions/" + a.getKey(), confirmed, cookie, csrf);
                assertThat(r.statusCode()).as(a.getKey() + " " + r.body()).isEqualTo(200);
                JsonNode done = JSON.readTree(r.body());
                assertThat(done.get("touched").asLong()).as(a.getKey()).isPositive();
            }
            // a bulk action: preview, then a job run to its end, as the console user
            String bulk = "{\"filter\":{\"prefix\":\"order-1\"},\"action\":{\"kind\":\"shift\",\"shift\":\"+1m\"}}";
            assertThat(post(base + "queues/" + Q + "/bulk", bulk, cookie, csrf).statusCode()).as("bulk preview").isEqualTo(200);
            HttpResponse<String> job = post(base + "queues/" + Q + "/bulk", bulk.replaceFirst("\\{", "{\"confirm\":true,"), cookie, csrf);
            assertThat(job.statusCode()).as(job.body()).isEqualTo(200);
            String jobUrl = base + "queues/" + Q + "/bulk/" + JSON.readTree(job.body()).get("id").asText();
            await().atMost(Duration.ofSeconds(10)).until(() -> JSON.readTree(get(jobUrl).body()).get("status").asText().equals("done"));
            assertThat(get(base + "queues/" + Q + "/bulk").statusCode()).isEqualTo(200);
            // a couple more history samples taken as the console user
            int samples = historyPoints(base);
            await().atMost(Duration.ofSeconds(10)).until(() -> historyPoints(base) >= samples + 2);
        }
        assertThat(aclLog()).as("commands Redis denied to the documented console user").isEmpty();
    }

    @Test
    void theConsoleUserCannotClaimFlushReconfigureOrReadOtherKeys() throws Exception {
        SampleQueue.fill(redis.admin(), 10);
        redis.admin().commands().set("billing:api-key", "sk_live_do_not_read").get(5, TimeUnit.SECONDS);
        try (RedisEndpoint asConsole = RedisEndpoint.connect(url())) {
            QueueProtocol p = new QueueProtocol(asConsole, Q, SampleQueue.SHARDS);
            // as a worker starts: the meta decides which protocol's claim runs
            Replies.await(p.verifyMeta(), Duration.ofSeconds(5));
            int shard = p.shardOf("order-9000");
            assertThatThrownBy(() -> Replies.await(p.claim(shard, 10, Duration.ofSeconds(30), RateLimit.NONE), Duration.ofSeconds(5)))
                    .satisfies(RedisAclTest::deniedByAcl);
            assertThatThrownBy(() -> Replies.await(p.claim(shard, 1, Duration.ofSeconds(30), RateLimit.NONE), Duration.ofSeconds(5)))
                    .satisfies(RedisAclTest::deniedByAcl);
            var c = asConsole.commands();
            assertThatThrownBy(() -> c.flushall().get(5, TimeUnit.SECONDS)).satisfies(RedisAclTest::deniedByAcl);
            assertThatThrownBy(() -> c.configSet("appendonly", "no").get(5, TimeUnit.SECONDS)).satisfies(RedisAclTest::deniedByAcl);
            assertThatThrownBy(() -> c.get("billing:api-key").get(5, TimeUnit.SECONDS)).satisfies(RedisAclTest::deniedByAcl);
            assertThatThrownBy(() -> c.hgetall("billing:api-key").get(5, TimeUnit.SECONDS)).satisfies(RedisAclTest::deniedByAcl);
        }
        try (DelayQueueClient admin = DelayQueueClient.builder().redis(redis.admin()).queue(Q).shards(SampleQueue.SHARDS).build()) {
            assertThat(admin.stats().due()).as("nothing was claimed").isEqualTo(40);
        }
        assertThat(redis.admin().commands().get("billing:api-key").get(5, TimeUnit.SECONDS)).isEqualTo("sk_live_do_not_read");
    }

    private int historyPoints(String base) throws Exception {
        for (JsonNode q : JSON.readTree(get(base + "overview").body()).get("queues")) {
            if (q.get("name").asText().equals(Q)) {
                return q.get("history").size();
            }
        }
        throw new AssertionError("queue " + Q + " not in the overview");
    }

        private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String url, String body, String cookie, String csrf) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        if (cookie != null) {
            b.header("Cookie", cookie).header("X-CSRF-Token", csrf);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private List<Map<String, Object>> aclLog() throws Exception {
        List<Map<String, Object>> log = redis.admin().commands().aclLog().get(5, TimeUnit.SECONDS);
        log.forEach(e -> System.out.println("ACL LOG: " + e));
        return log;
    }
}
