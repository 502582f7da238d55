package io.delayq.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.console.sample.SampleQueue;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's JSON API over real HTTP: read-only mode, sign-in, CSRF and origin checks, clear errors, redaction. */
class ConsoleApiTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
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

    @Test
    void withoutATokenEveryActionIsRefusedAndNothingChanges() throws Exception {
        f = ConsoleFixture.start(redis, null);
        assertThat(json(get("api/session")).get("readOnly").asBoolean()).isTrue();
        HttpResponse<String> r = post("api/queues/shop-orders/actions/pause", "{\"confirm\":true}", "X-CSRF-Token", "anything");
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(json(r).at("/error/message").asText()).contains("read-only");
        assertThat(post("api/session", "{\"token\":\"x\",\"name\":\"eve\"}").statusCode()).isEqualTo(403);
        assertThat(f.orders.pauseState().paused()).isFalse();
    }

    @Test
    void anActionNeedsTheSessionCookieTheCsrfHeaderAndOurOrigin() throws Exception {
        f = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        assertThat(post("api/session", "{\"token\":\"wrong\",\"name\":\"eve\"}").statusCode()).isEqualTo(401);
        HttpResponse<String> in = post("api/session", "{\"token\":\"" + ConsoleFixture.TOKEN + "\",\"name\":\"alice\"}");
        assertThat(in.statusCode()).isEqualTo(200);
        String cookie = in.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).contains("HttpOnly").contains("SameSite=Strict");
        String session = cookie.substring(0, cookie.indexOf(';'));
        String csrf = json(in).get("csrf").asText();

        String body = "{\"confirm\":true}";
        String action = "api/queues/shop-orders/actions/pause";
        assertThat(post(action, body).statusCode()).as("no session").isEqualTo(401);
        assertThat(post(action, body, "Cookie", session).statusCode()).as("no CSRF header").isEqualTo(403);
        assertThat(post(action, body, "Cookie", session, "X-CSRF-Token", "forged").statusCode()).as("wrong CSRF").isEqualTo(403);
        assertThat(post(action, body, "Cookie", session, "X-CSRF-Token", csrf, "Origin", "https://evil.example").statusCode())
                .as("foreign origin").isEqualTo(403);
        assertThat(f.orders.pauseState().paused()).isFalse();

        HttpResponse<String> preview = post(action, "{}", "Cookie", session, "X-CSRF-Token", csrf);
        assertThat(json(preview).get("confirmed").asBoolean()).isFalse();
        assertThat(json(preview).get("message").asText()).contains("Pause queue 'shop-orders' (8 shards)");
        assertThat(f.orders.pauseState().paused()).as("a preview touches nothing").isFalse();

        HttpResponse<String> done = post(action, body, "Cookie", session, "X-CSRF-Token", csrf);
        assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
        assertThat(f.orders.pauseState().paused()).isTrue();
        assertThat(f.orders.pauseState().by()).startsWith("console:alice@127.0.0.1");
        JsonNode audit = json(get("api/audit")).get("actions").get(0);
        assertThat(audit.get("who").asText()).isEqualTo("alice@127.0.0.1");
        assertThat(audit.get("action").asText()).isEqualTo("pause");
    }

    @Test
    void aTasksPerTaskOptionsComeStructuredAsTheProducerSetThem() throws Exception {
        f = ConsoleFixture.start(redis, null);
        io.delayq.task.TaskSpec sent = f.filled().withOptions().stream().filter(t -> t.id().equals(SampleQueue.CAPTURE)).findFirst().orElseThrow();
        JsonNode t = json(get("api/queues/shop-orders/tasks/" + SampleQueue.CAPTURE));
        JsonNode o = t.get("options");
        assertThat(o.at("/expiry/expiresAt").asLong()).isEqualTo(sent.options().expiresAt());
        assertThat(o.at("/expiry/onExpiry").asText()).isEqualTo("discard");
        assertThat(o.at("/expiry/defaultAction").asBoolean()).isFalse();
        assertThat(o.at("/expiry/expired").asBoolean()).isFalse();
        assertThat(o.at("/retry/maxAttempts").asInt()).isEqualTo(sent.options().maxAttempts()).isEqualTo(10);
        assertThat(o.at("/retry/backoffMs").asLong()).isEqualTo(sent.options().backoffMs()).isEqualTo(2000);
        assertThat(o.at("/retry/backoffMaxMs").asLong()).isEqualTo(sent.options().backoffMaxMs()).isEqualTo(600_000);
        assertThat(o.at("/retry/backoffMultiplier").asDouble()).isEqualTo(sent.options().backoffMultiplier()).isEqualTo(3.0);
        assertThat(o.at("/trace/traceparent").asText()).isEqualTo(SampleQueue.TRACEPARENT);
        assertThat(o.at("/trace/traceId").asText()).isEqualTo(SampleQueue.TRACEPARENT.split("-")[1]);
        assertThat(o.at("/trace/parentId").asText()).isEqualTo(SampleQueue.TRACEPARENT.split("-")[2]);
        assertThat(o.at("/trace/sampled").asBoolean()).isTrue();
        assertThat(o.at("/trace/tracestate").asText()).isEqualTo(SampleQueue.TRACESTATE);
        assertThat(o.at("/trace/url").asText())
                .isEqualTo(ConsoleFixture.TRACE_URL.replace("{traceId}", SampleQueue.TRACEPARENT.split("-")[1]));
        assertThat(o.has("other")).isFalse();

        // the trace viewer setting: a URL with {traceId}, else a clear error naming the variable
        assertThat(ConsoleSettings.fromEnv(java.util.Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_CONSOLE_TRACE_URL",
                "https://jaeger.example/trace/{traceId}")).traceUrl()).isEqualTo("https://jaeger.example/trace/{traceId}");
        assertThat(ConsoleSettings.fromEnv(java.util.Map.of("DELAYQ_REDIS_URL", redis.url())).traceUrl()).isNull();
        for (String bad : java.util.List.of("https://jaeger.example/trace/", "javascript:alert({traceId})")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> ConsoleSettings.fromEnv(java.util.Map.of("DELAYQ_REDIS_URL", redis.url(),
                    "DELAYQ_CONSOLE_TRACE_URL", bad))).hasMessageStartingWith("DELAYQ_CONSOLE_TRACE_URL: must be an http:// or https:// URL with {traceId}");
        }

        // only an expiry and attempts: the default action is named as such, no backoff or trace entries
        JsonNode reminder = json(get("api/queues/shop-orders/tasks/" + SampleQueue.REMINDER)).get("options");
        assertThat(reminder.at("/expiry/onExpiry").asText()).isEqualTo("dead-letter");
        assertThat(reminder.at("/expiry/defaultAction").asBoolean()).isTrue();
        assertThat(reminder.at("/retry/maxAttempts").asInt()).isEqualTo(2);
        assertThat(reminder.at("/retry").has("backoffMs")).isFalse();
        assertThat(reminder.has("trace")).isFalse();

        // a hand-written record's other fields (a group key, a field no delayq version knows) come as stored
        JsonNode grouped = json(get("api/queues/shop-orders/tasks/" + SampleQueue.GROUPED));
        assertThat(grouped.get("record").asText()).isEqualTo(SampleQueue.GROUPED_RECORD);
        assertThat(grouped.get("score").asLong()).isEqualTo(f.filled().groupedDueAt());
        JsonNode other = grouped.at("/options/other");
        assertThat(other.get("group").asText()).isEqualTo("tenant-42");
        assertThat(other.get("region")).isEqualTo(JSON.readTree(SampleQueue.GROUPED_RECORD).get("region"));
        assertThat(other.has("payload")).isFalse();
        assertThat(grouped.get("options").has("expiry")).isFalse();

        // a compact record without options: an empty object
        assertThat(json(get("api/queues/shop-orders/tasks/order-10001")).get("options").size()).isZero();
    }

    @Test
    void badInputGetsAClearErrorNamingTheFieldNeverAStackTrace() throws Exception {
        f = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        HttpResponse<String> cursor = get("api/queues/shop-orders/tasks?state=due&cursor=!!not*base64");
        assertThat(cursor.statusCode()).isEqualTo(400);
        HttpResponse<String> cursor2 = get("api/queues/shop-orders/tasks?state=due&cursor=bm90LWEtY3Vyc29y");
        assertThat(json(cursor2).at("/error/field").asText()).isEqualTo("cursor");
        HttpResponse<String> huge = get("api/queues/shop-orders/tasks?limit=1000000");
        assertThat(huge.statusCode()).isEqualTo(400);
        assertThat(json(huge).at("/error/message").asText()).isEqualTo("must be between 1 and 500, got 1000000");
        assertThat(json(huge).at("/error/field").asText()).isEqualTo("limit");
        HttpResponse<String> unknown = get("api/queues/no-such-queue");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).at("/error/message").asText()).contains("no queue 'no-such-queue'");
        assertThat(get("api/queues/Bad_Name").statusCode()).isEqualTo(400);
        assertThat(get("api/queues/shop-orders/tasks?from=yesterday").body()).contains("\"field\":\"from\"");
        assertThat(get("api/queues/shop-orders/tasks/nobody").statusCode()).isEqualTo(404);
        assertThat(get("api/nothing-here").statusCode()).isEqualTo(404);
        HttpResponse<String> page = get("no-such-page.html");
        assertThat(page.statusCode()).isEqualTo(404);
        assertThat(page.body()).contains("Not found");
        for (HttpResponse<String> r : java.util.List.of(cursor, cursor2, huge, unknown)) {
            assertThat(r.body()).doesNotContain("Exception").doesNotContain("\tat ");
        }
    }

    @Test
    void redisCredentialsAreNeverShown() throws Exception {
        String withPassword = redis.url().replace("redis://", "redis://default:hunter2-secret@");
        f = ConsoleFixture.start(redis, withPassword, null);
        HttpResponse<String> overview = get("api/overview");
        assertThat(overview.statusCode()).isEqualTo(200);
        assertThat(overview.body()).doesNotContain("hunter2-secret").contains("***");
        assertThat(json(overview).get("queues")).extracting(q -> q.get("name").asText()).containsExactly("coupons", SampleQueue.QUEUE);

        HttpResponse<String> session = get("api/session");
        assertThat(json(session).get("redis").asText()).contains("***").doesNotContain("hunter2-secret");

        // a Redis failure (a shard key of the wrong type: stats.lua fails) answers 502 without the password
        f.raw().commands().hset("dq:{wrongtype}:meta", java.util.Map.of("shards", "1", "protocol", "2")).get();
        f.raw().commands().set("dq:{wrongtype:0}:due", "not a sorted set").get();
        HttpResponse<String> failed = get("api/queues/wrongtype");
        assertThat(failed.statusCode()).as(failed.body()).isEqualTo(502);
        assertThat(json(failed).at("/error/field").asText()).isEqualTo("redis");
        assertThat(failed.body()).doesNotContain("hunter2-secret").doesNotContain("\tat ");
        // and an error that quotes what Redis holds cannot leak it either
        f.raw().commands().hset("dq:{quoting}:meta", java.util.Map.of("shards", "hunter2-secret", "protocol", "2")).get();
        HttpResponse<String> quoting = get("api/queues/quoting");
        assertThat(quoting.statusCode()).isEqualTo(502);
        assertThat(quoting.body()).doesNotContain("hunter2-secret").contains("shards='***'");
    }

    @Test
    void oneBrokenQueueLeavesTheOthersOverviewAndHistoryIntact() throws Exception {
        // sorts first, so that a sampler stopping at the first failure would record nothing for the others
        redis.admin().commands().hset("dq:{broken}:meta", java.util.Map.of("shards", "many", "protocol", "2")).get();
        f = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> f.historySamples(SampleQueue.QUEUE) >= 2 && f.historySamples("coupons") >= 2);
        assertThat(f.historySamples("broken")).isZero();
        HttpResponse<String> overview = get("api/overview");
        assertThat(overview.statusCode()).as(overview.body()).isEqualTo(200);
        JsonNode queues = json(overview).get("queues");
        assertThat(queues).extracting(q -> q.get("name").asText()).containsExactly("broken", "coupons", SampleQueue.QUEUE);
        assertThat(queues.get(0).get("error").asText()).contains("shards='many', not a number");
        assertThat(queues.get(1).get("scheduled").asLong()).isEqualTo(ConsoleFixture.COUPONS);
    }

    @Test
    void aReshardInProgressIsInTheQueueAndOverviewAnswers() throws Exception {
        f = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        assertThat(json(get("api/queues/coupons")).get("reshard").isNull()).as("no migration recorded").isTrue();

        // the first step of every mover (core's reshard_begin): the meta hash records the migration, nothing moved yet
        try (io.delayq.client.DelayQueueClient coupons = io.delayq.client.DelayQueueClient.builder().redis(f.raw()).queue("coupons").shards(2).build()) {
            io.delayq.redis.Replies.await(new io.delayq.reshard.ReshardScripts(coupons.protocol().scope()).reshardBegin(4), java.time.Duration.ofSeconds(5));
        }
        JsonNode q = json(get("api/queues/coupons"));
        assertThat(q.get("shards").asInt()).isEqualTo(4);
        assertThat(q.get("shardTable")).as("every shard of the new layout").hasSize(4);
        assertThat(q.get("scheduled").asLong()).isEqualTo(ConsoleFixture.COUPONS);
        JsonNode reshard = q.get("reshard");
        assertThat(reshard.get("from").asInt()).isEqualTo(2);
        assertThat(reshard.get("to").asInt()).isEqualTo(4);
        assertThat(reshard.get("epoch").asLong()).isEqualTo(1);
        assertThat(reshard.get("moved").asLong()).isZero();
        assertThat(reshard.get("left").asLong()).as("not measured yet").isEqualTo(-1);
        JsonNode overview = json(get("api/overview")).get("queues");
        assertThat(overview.get(0).get("name").asText()).isEqualTo("coupons");
        assertThat(overview.get(0).get("reshard")).isEqualTo(reshard);
        assertThat(overview.get(1).get("reshard").isNull()).isTrue();
    }

    @Test
    void theQueueAnswersItsNextHourInFiveMinuteBinsAndTheOverviewItsTotal() throws Exception {
        AheadQueue.Filled ahead = AheadQueue.fill(redis.admin());
        try (io.delayq.client.DelayQueueClient idle = io.delayq.client.DelayQueueClient.builder().redis(redis.admin()).queue("idle").shards(1).build()) {
            idle.enqueue(io.delayq.task.TaskSpec.of("late").at(java.time.Instant.ofEpochMilli(ahead.filledAt() - 5_000)));
        }
        f = ConsoleFixture.start(redis, null);

        JsonNode forecast = json(get("api/queues/" + AheadQueue.QUEUE)).get("forecast");
        long at = forecast.get("at").asLong();
        assertThat(at).isGreaterThanOrEqualTo(ahead.filledAt());
        assertThat(forecast.get("binMs").asLong()).isEqualTo(300_000);
        JsonNode bins = forecast.get("bins");
        assertThat(bins).hasSize(12);
        List<Long> counts = new java.util.ArrayList<>();
        for (int i = 0; i < bins.size(); i++) {
            JsonNode bin = bins.get(i);
            assertThat(bin.get("from").asLong()).as("bin %d", i).isEqualTo(at + i * 300_000L);
            assertThat(bin.get("to").asLong()).as("bin %d", i).isEqualTo(at + (i + 1) * 300_000L);
            assertThat(bin.get("tasks").asLong()).as("bin %d", i)
                    .isEqualTo(AheadQueue.count(ahead.dueAt().values(), bin.get("from").asLong(), bin.get("to").asLong()));
            counts.add(bin.get("tasks").asLong());
        }
        // 3 tasks 2 minutes ahead, 5 (grouped) 12 minutes ahead, 2 at 31, 1 at 59; the overdue and those 90 minutes ahead in none
        assertThat(counts).containsExactly(3L, 0L, 5L, 0L, 0L, 0L, 2L, 0L, 0L, 0L, 0L, 1L);
        assertThat(forecast.get("dueNextHour").asLong()).isEqualTo(ahead.dueWithinHour(at)).isEqualTo(11);
        assertThat(forecast.get("nextDueAt").asLong()).isEqualTo(ahead.nextDueAt());

        JsonNode coupons = json(get("api/queues/coupons")).get("forecast");
        assertThat(coupons.get("bins")).extracting(b -> b.get("tasks").asLong()).containsOnly(0L);
        assertThat(coupons.get("dueNextHour").asLong()).isZero();
        assertThat(coupons.get("nextDueAt").asLong()).as("its first coupon, 2 hours ahead").isGreaterThan(coupons.get("at").asLong() + 3_600_000);
        JsonNode idle = json(get("api/queues/idle")).get("forecast");
        assertThat(idle.get("dueNextHour").asLong()).isZero();
        assertThat(idle.get("nextDueAt").asLong()).as("nothing waits for a later time").isEqualTo(-1);

        java.util.Map<String, JsonNode> rows = new java.util.HashMap<>();
        json(get("api/overview")).get("queues").forEach(q -> rows.put(q.get("name").asText(), q));
        assertThat(rows.get(AheadQueue.QUEUE).get("dueNextHour").asLong()).isEqualTo(11);
        assertThat(rows.get(AheadQueue.QUEUE).get("nextDueAt").asLong()).isEqualTo(ahead.nextDueAt());
        assertThat(rows.get("coupons").get("dueNextHour").asLong()).isZero();
        assertThat(rows.get("coupons").get("nextDueAt").asLong()).isEqualTo(coupons.get("nextDueAt").asLong());
        assertThat(rows.get("idle").get("nextDueAt").asLong()).isEqualTo(-1);
    }

    @Test
    void aQueueListCutByTheCapSaysItIsTruncated() throws Exception {
        f = ConsoleFixture.start(redis, redis.url(), null, new ConsoleFixture.Options(java.util.List.of(), "/", 1));
        JsonNode overview = json(get("api/overview"));
        assertThat(overview.get("queues")).extracting(q -> q.get("name").asText()).containsExactly("coupons");
        assertThat(overview.get("truncated").asBoolean()).isTrue();
        assertThat(overview.get("truncatedWhy").asText()).contains("more than 1 queues found (DELAYQ_CONSOLE_MAX_QUEUES)");

        f.close();
        f = ConsoleFixture.start(redis, redis.url(), null, new ConsoleFixture.Options(java.util.List.of(), "/", 2));
        assertThat(json(get("api/overview")).get("truncated").asBoolean()).isFalse();
    }

    @Test
    void failedSignInsAreAuditedWithoutTheTokenAndSlowTheAddressDown() throws Exception {
        f = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        for (int i = 1; i <= io.delayq.console.safety.SignInThrottle.FREE_FAILURES + 1; i++) {
            HttpResponse<String> r = post("api/session", "{\"token\":\"guess-" + i + "-xyzzy\",\"name\":\"mallory\"}");
            assertThat(r.statusCode()).as("guess %d", i).isEqualTo(401);
        }
        HttpResponse<String> blocked = post("api/session", "{\"token\":\"" + ConsoleFixture.TOKEN + "\",\"name\":\"mallory\"}");
        assertThat(blocked.statusCode()).as("even the right token waits").isEqualTo(429);
        assertThat(blocked.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(json(blocked).at("/error/message").asText()).startsWith("too many failed sign-ins from 127.0.0.1");
        assertThat(blocked.headers().firstValue("Set-Cookie")).isEmpty();

        String audit = get("api/audit").body();
        JsonNode last = json(get("api/audit")).get("actions").get(0);
        assertThat(last.get("action").asText()).isEqualTo("sign-in");
        assertThat(last.get("who").asText()).isEqualTo("mallory@127.0.0.1");
        assertThat(last.get("result").asText()).startsWith("refused: wrong token (6 in a row from this address; next try in 1 s)");
        assertThat(json(get("api/audit")).get("actions")).hasSize(6);
        assertThat(audit).doesNotContain("xyzzy").doesNotContain(ConsoleFixture.TOKEN);
    }

    @Test
    void anAllowedHostsListDecidesWhichHostNamesAreAnswered() throws Exception {
        f = ConsoleFixture.start(redis, redis.url(), null, new ConsoleFixture.Options(java.util.List.of("delayq.example.com", "127.0.0.1"), "/",
                ConsoleSettings.DEFAULT_MAX_QUEUES));
        int port = URI.create(f.url()).getPort();
        assertThat(raw("/api/overview", "delayq.example.com")).startsWith("HTTP/1.1 200");
        assertThat(raw("/api/overview", "DELAYQ.example.com:443")).as("any port of a name listed without one").startsWith("HTTP/1.1 200");
        assertThat(raw("/api/overview", "127.0.0.1:" + port)).startsWith("HTTP/1.1 200");
        String refused = raw("/api/overview", "localhost:" + port);
        assertThat(refused).startsWith("HTTP/1.1 421").contains("DELAYQ_CONSOLE_ALLOWED_HOSTS (delayq.example.com, 127.0.0.1)")
                .doesNotContain("shop-orders");
        assertThat(raw("/api/overview", "evil.example")).startsWith("HTTP/1.1 421");
        assertThat(raw("/api/healthz", "10.1.2.3:8090")).as("the kubelet's probe asks with the pod IP").startsWith("HTTP/1.1 200");
        assertThat(raw("/api/readyz", "10.1.2.3:8090")).startsWith("HTTP/1.1 200");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ConsoleSettings.fromEnv(java.util.Map.of("DELAYQ_REDIS_URL", redis.url(),
                "DELAYQ_CONSOLE_ALLOWED_HOSTS", "ok.example,not a host"))).hasMessage("DELAYQ_CONSOLE_ALLOWED_HOSTS: 'not a host' is not a host name, host:port, [IPv6] or *");
    }

    @Test
    void underAPathPrefixEveryLinkAndCallStaysUnderIt() throws Exception {
        f = ConsoleFixture.start(redis, redis.url(), ConsoleFixture.TOKEN, new ConsoleFixture.Options(java.util.List.of(), "/ops/delayq/",
                ConsoleSettings.DEFAULT_MAX_QUEUES));
        assertThat(f.url()).endsWith("/ops/delayq/");
        HttpResponse<String> index = get("");
        assertThat(index.statusCode()).isEqualTo(200);
        assertThat(index.body()).contains("src=\"app.js\"").contains("href=\"app.css\"").doesNotContain("=\"/");
        assertThat(get("app.js").body()).contains("fetch('api/'").doesNotContain("fetch('/");
        assertThat(get("api/overview").statusCode()).isEqualTo(200);
        HttpResponse<String> in = post("api/session", "{\"token\":\"" + ConsoleFixture.TOKEN + "\",\"name\":\"alice\"}");
        assertThat(in.headers().firstValue("Set-Cookie").orElseThrow()).contains("Path=/ops/delayq/;");
        String root = "http://127.0.0.1:" + URI.create(f.url()).getPort();
        HttpResponse<String> bare = http.send(HttpRequest.newBuilder(URI.create(root + "/ops/delayq")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(bare.statusCode()).isEqualTo(308);
        assertThat(bare.headers().firstValue("Location")).hasValue("/ops/delayq/");
        HttpResponse<String> outside = http.send(HttpRequest.newBuilder(URI.create(root + "/api/overview")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(outside.statusCode()).isEqualTo(404);
        assertThat(outside.body()).contains("href=\"/ops/delayq/\"");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ConsoleSettings.fromEnv(java.util.Map.of("DELAYQ_REDIS_URL", redis.url(),
                "DELAYQ_CONSOLE_PATH", "/ops/../admin"))).hasMessageStartingWith("DELAYQ_CONSOLE_PATH: must be an absolute path");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ConsoleSettings.fromEnv(java.util.Map.of("DELAYQ_REDIS_URL", redis.url(),
                "DELAYQ_CONSOLE_PATH", "delayq"))).hasMessageStartingWith("DELAYQ_CONSOLE_PATH: must be an absolute path");
    }

    /** Signs in; answers the Cookie and X-CSRF-Token header pairs an action needs. */
    private String[] signIn() throws Exception {
        HttpResponse<String> in = post("api/session", "{\"token\":\"" + ConsoleFixture.TOKEN + "\",\"name\":\"alice\"}");
        String cookie = in.headers().firstValue("Set-Cookie").orElseThrow();
        return new String[] {"Cookie", cookie.substring(0, cookie.indexOf(';')), "X-CSRF-Token", json(in).get("csrf").asText()};
    }

    @Test
    void aConfirmedPurgeTouchesOnlyTheDeadLettersItsPreviewShowed() throws Exception {
        f = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        String[] auth = signIn();
        String action = "api/queues/shop-orders/actions/dead-purge";
        String filter = "{\"filter\":{\"prefix\":\"payout-51\"}";
        HttpResponse<String> preview = post(action, filter + "}", auth);
        assertThat(json(preview).get("count").asLong()).isEqualTo(10);
        String selection = json(preview).get("selection").asText();
        assertThat(selection).isNotBlank();

        // a letter that dies after the person approved "10 dead letters"
        String late = "payout-51-late";
        f.addDeadLetter(late);
        HttpResponse<String> stale = post(action, filter + ",\"confirm\":true,\"selection\":\"" + selection + "\"}", auth);
        assertThat(stale.statusCode()).as(stale.body()).isEqualTo(409);
        assertThat(json(stale).at("/error/field").asText()).isEqualTo("selection");
        assertThat(json(stale).at("/error/message").asText()).contains("changed since the preview (11 match now)").contains("preview again");
        assertThat(f.isDead(late)).isTrue();
        assertThat(f.isDead("payout-510")).as("nothing was purged").isTrue();

        HttpResponse<String> unsigned = post(action, filter + ",\"confirm\":true}", auth);
        assertThat(unsigned.statusCode()).isEqualTo(400);
        assertThat(json(unsigned).at("/error/field").asText()).isEqualTo("selection");

        HttpResponse<String> again = post(action, filter + "}", auth);
        assertThat(json(again).get("count").asLong()).isEqualTo(11);
        HttpResponse<String> done = post(action, filter + ",\"confirm\":true,\"selection\":\"" + json(again).get("selection").asText() + "\"}", auth);
        assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
        assertThat(json(done).get("touched").asLong()).isEqualTo(11);
        assertThat(f.isDead(late)).isFalse();
        assertThat(f.isDead("payout-520")).as("outside the filter").isTrue();
    }

    @Test
    void aSucceededTaskShowsItsCompletionAndTheQueueListsTheNewestCompletions() throws Exception {
        f = ConsoleFixture.start(redis, null);
        assertThat(json(get("api/queues/shop-orders/completions")).get("completions")).isEmpty();
        f.completed("refund-1", "refund r-1 issued");
        f.completed("refund-2", "refund r-2 issued");

        JsonNode task = json(get("api/queues/shop-orders/tasks/refund-2"));
        assertThat(task.get("state").asText()).isEqualTo("succeeded");
        JsonNode c = task.get("completion");
        assertThat(c.get("attempts").asInt()).isEqualTo(1);
        assertThat(c.get("worker").asText()).isEqualTo(ConsoleFixture.WORKER_LOW);
        assertThat(c.get("handlerMillis").asLong()).isEqualTo(12);
        assertThat(c.get("result").asText()).isEqualTo("refund r-2 issued");
        assertThat(c.get("resultTruncated").asBoolean()).isFalse();
        assertThat(c.get("finishedAt").asLong()).isEqualTo(task.get("score").asLong()).isLessThanOrEqualTo(task.get("serverTime").asLong());

        JsonNode list = json(get("api/queues/shop-orders/completions?limit=5")).get("completions");
        assertThat(list).hasSize(2);
        assertThat(list.get(0).get("finishedAt").asLong()).isGreaterThanOrEqualTo(list.get(1).get("finishedAt").asLong());
        assertThat(List.of(list.get(0).get("id").asText(), list.get(1).get("id").asText())).containsExactlyInAnyOrder("refund-1", "refund-2");
        assertThat(json(get("api/queues/shop-orders/tasks/" + ConsoleFixture.HELD)).get("completion").isNull()).isTrue();
    }

    @Test
    void anInFlightTaskSaysWhoRunsItInTheWordsOfTheClisInspect() throws Exception {
        f = ConsoleFixture.start(redis, null);
        int heldShard = f.orders.protocol().shardOf(ConsoleFixture.HELD);
        String holder = heldShard <= 3 ? ConsoleFixture.WORKER_LOW : ConsoleFixture.WORKER_HIGH;
        JsonNode held = json(get("api/queues/shop-orders/tasks/" + ConsoleFixture.HELD)).get("lease");
        assertThat(held.get("holder").asText()).isEqualTo(holder);
        assertThat(held.get("summary").asText()).startsWith("a worker (" + holder + " on node-" + (heldShard <= 3 ? "a" : "b")
                + ") is running it (attempt 1); lease expires at ");

        assertThat(json(get("api/queues/shop-orders/tasks/" + ConsoleFixture.HELD)).get("progress").isNull()).isTrue();
        f.reportProgress(ConsoleFixture.HELD, 62.5, "5 of 8 payout files");
        JsonNode progress = json(get("api/queues/shop-orders/tasks/" + ConsoleFixture.HELD)).get("progress");
        assertThat(progress.get("percent").asDouble()).isEqualTo(62.5);
        assertThat(progress.get("note").asText()).isEqualTo("5 of 8 payout files");
        assertThat(progress.get("at").asLong()).isPositive();

        String other = "coupon-expire-78";
        int shard = f.orders.protocol().shardOf(other);
        JsonNode unreported = json(get("api/queues/shop-orders/tasks/" + other)).get("lease");
        assertThat(unreported.get("holder").isNull()).isTrue();
        assertThat(unreported.get("summary").asText()).contains("; not reported by the live workers owning shard " + shard + " ("
                + (shard <= 3 ? ConsoleFixture.WORKER_LOW : ConsoleFixture.WORKER_HIGH) + ")");

        // every worker gone: the shard has no live owner, and the page says what happens then
        f.raw().commands().del(io.delayq.presence.PresenceRegistry.key(SampleQueue.QUEUE)).get();
        JsonNode orphan = json(get("api/queues/shop-orders/tasks/" + other)).get("lease");
        assertThat(orphan.get("owners")).isEmpty();
        assertThat(orphan.get("summary").asText()).startsWith("in flight (attempt 1); lease expires at ")
                .endsWith("; no live worker owns shard " + shard + " — it will be reclaimed when the lease expires and run when a worker "
                        + "for that shard starts");
    }

    @Test
    void reschedulingToAPastTimeSaysThatTheTaskFiresAtOnce() throws Exception {
        f = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        f.orders.enqueue(io.delayq.task.TaskSpec.of("typo-2020").after(java.time.Duration.ofHours(1)));
        String[] auth = signIn();
        String action = "api/queues/shop-orders/actions/reschedule";
        String body = "{\"id\":\"typo-2020\",\"at\":\"2020-01-01T00:00:00Z\"";

        HttpResponse<String> preview = post(action, body + "}", auth);
        assertThat(preview.statusCode()).as(preview.body()).isEqualTo(200);
        assertThat(json(preview).get("message").asText()).contains("to 2020-01-01T00:00:00Z? Note: 2020-01-01T00:00:00Z is in the past (")
                .endsWith("): the task is due now and fires at once.");

        HttpResponse<String> done = post(action, body + ",\"confirm\":true}", auth);
        assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
        assertThat(json(done).get("message").asText()).startsWith("Moved typo-2020 to 2020-01-01T00:00:00Z. Note: 2020-01-01T00:00:00Z is in the past (")
                .endsWith("): the task is due now and fires at once.");
        assertThat(f.orders.inspect("typo-2020").overdue()).isTrue();

        // a future time needs no note
        HttpResponse<String> later = post(action, "{\"id\":\"typo-2020\",\"at\":\"2099-01-01T00:00:00Z\"}", auth);
        assertThat(json(later).get("message").asText()).doesNotContain("Note:");
    }

    @Test
    void idsThatAreNotAnArrayAreRefusedNamingTheField() throws Exception {
        f = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        HttpResponse<String> r = post("api/queues/shop-orders/actions/dead-replay", "{\"ids\":\"payout-510\"}", signIn());
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(json(r).at("/error/field").asText()).isEqualTo("ids");
        assertThat(json(r).at("/error/message").asText()).isEqualTo("must be an array of task ids");
    }

    /** A request written by hand, so that the Host header and the path are exactly what a hostile page could send. */
    private String raw(String path, String host) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", URI.create(f.url()).getPort())) {
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void boundToLoopbackItAnswersOnlyToLoopbackHostNames() throws Exception {
        f = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        int port = URI.create(f.url()).getPort();
        String rebound = raw("/api/overview", "evil.example:" + port);
        assertThat(rebound).startsWith("HTTP/1.1 421").contains("\"field\":\"Host\"").doesNotContain("shop-orders");
        assertThat(raw("/", "evil.example")).startsWith("HTTP/1.1 421");
        for (String ok : new String[] {"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port}) {
            assertThat(raw("/api/overview", ok)).as(ok).startsWith("HTTP/1.1 200").contains("shop-orders");
        }
    }

    @Test
    void schedulesAreListedAndPausedThroughTheConfirmationAndTheAudit() throws Exception {
        f = ConsoleFixture.start(redis, ConsoleFixture.TOKEN);
        JsonNode list = json(get("api/queues/shop-orders/schedules")).get("schedules");
        assertThat(list).extracting(s -> s.get("name").asText()).containsExactly(SampleQueue.SCHEDULE, ConsoleFixture.MANAGED_SCHEDULE);
        io.delayq.schedule.ScheduleStatus stored = io.delayq.schedule.Schedules.of(f.orders()).get(SampleQueue.SCHEDULE).orElseThrow();
        JsonNode books = list.get(0);
        assertThat(books.get("cron").asText()).isEqualTo("5 0 * * *");
        assertThat(books.get("timeZone").asText()).isEqualTo("Asia/Shanghai");
        assertThat(books.get("nextFire").asLong()).isEqualTo(stored.nextFire().toEpochMilli());
        assertThat(books.get("lastFired").isNull()).isTrue();
        assertThat(books.get("lastOutcome").asText()).isEqualTo("none");
        assertThat(books.get("paused").asBoolean()).isFalse();

        String[] auth = signIn();
        String action = "api/queues/shop-orders/actions/schedule-pause";
        HttpResponse<String> preview = post(action, "{\"name\":\"" + SampleQueue.SCHEDULE + "\"}", auth);
        assertThat(json(preview).get("message").asText()).startsWith("Pause schedule 'close-books' (5 0 * * *, Asia/Shanghai)?");
        assertThat(io.delayq.schedule.Schedules.of(f.orders()).get(SampleQueue.SCHEDULE).orElseThrow().definition().paused()).as("a preview touches nothing").isFalse();
        HttpResponse<String> done = post(action, "{\"name\":\"" + SampleQueue.SCHEDULE + "\",\"confirm\":true}", auth);
        assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
        io.delayq.schedule.ScheduleStatus paused = io.delayq.schedule.Schedules.of(f.orders()).get(SampleQueue.SCHEDULE).orElseThrow();
        assertThat(paused.definition().paused()).isTrue();
        assertThat(paused.revision()).isEqualTo(stored.revision() + 1);
        assertThat(json(get("api/queues/shop-orders/schedules")).at("/schedules/0/nextFire").isNull()).as("paused: no next fire").isTrue();
        JsonNode audit = json(get("api/audit")).get("actions").get(0);
        assertThat(audit.get("action").asText()).isEqualTo("schedule-pause");
        assertThat(audit.get("target").asText()).isEqualTo("schedule close-books");
        assertThat(audit.get("who").asText()).isEqualTo("alice@127.0.0.1");

        HttpResponse<String> again = post(action, "{\"name\":\"" + SampleQueue.SCHEDULE + "\",\"confirm\":true}", auth);
        assertThat(again.statusCode()).isEqualTo(409);
        HttpResponse<String> managed = post(action, "{\"name\":\"" + ConsoleFixture.MANAGED_SCHEDULE + "\"}", auth);
        assertThat(managed.statusCode()).isEqualTo(409);
        assertThat(json(managed).at("/error/message").asText()).contains("managed by the operator").contains("spec.schedules");
        assertThat(post(action, "{\"name\":\"no-such\"}", auth).statusCode()).isEqualTo(404);
        assertThat(json(post(action, "{\"name\":\"Bad Name\"}", auth)).at("/error/field").asText()).isEqualTo("name");
        assertThat(post("api/queues/shop-orders/actions/schedule-resume", "{\"name\":\"close-books\",\"confirm\":true}").statusCode())
                .as("no session").isEqualTo(401);
    }
}
