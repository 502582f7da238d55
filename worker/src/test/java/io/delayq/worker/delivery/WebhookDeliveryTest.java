package io.delayq.worker.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import io.delayq.deadletter.DeadLetter;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Webhook delivery end to end: a running worker POSTs due tasks to a real local HTTP server, and the
 * status it answers decides ack, retry (with backoff or Retry-After) or dead-letter.
 */
class WebhookDeliveryTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "hooks";
    @RegisterExtension
    @Order(1) // closed after the workers: extensions close in reverse order
    final Receivers receivers = new Receivers(redis, Q, 2, Duration.ofSeconds(2));
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 2);
    @RegisterExtension
    @Order(2)
    final RunningWorkers workers = RunningWorkers.on(queue);

    private long serverNow() {
        return receivers.serverNow();
    }

    private Receiver receiver(Receiver.Behaviour b) {
        return receivers.start(b);
    }

    private Map<String, String> env(Receiver r) {
        return receivers.env(r);
    }

    /** A worker as the process builds it: the path (asynchronous or blocking) follows the JVM's common pool. */
    Worker start(Map<String, String> env) {
        return workers.startConfigured(env);
    }

    private TaskInfo inspect(String id) {
        return queue.client().inspect(id);
    }

    private void awaitGone(String... ids) {
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            for (String id : ids) {
                assertThat(inspect(id).state()).as(id).isEqualTo(TaskInfo.State.UNKNOWN);
            }
        });
    }

    private TaskInfo awaitDead(String id) {
        await().atMost(Duration.ofSeconds(15)).until(() -> inspect(id).state() == TaskInfo.State.DEAD);
        return inspect(id);
    }

    @Test
    void twoHundredsAckAndThePostCarriesTheTaskAsJsonWithItsIdAsIdempotencyKey() {
        Receiver r = receiver((req, ex) -> {
            String payload = req.json().path("payload").asText("");
            int status = payload.startsWith("2") ? Integer.parseInt(payload.substring(0, 3)) : 200;
            Receiver.reply(ex, status, status == 204 ? "" : "ok");
        });
        Worker w = start(env(r));
        long base = serverNow() - 1000;
        List<String> ids = List.of("order-200", "order-201", "order-202", "order-204", "order-json");
        List<String> payloads = List.of("200", "201 created", "202", "204", "{\"order\":8812,\"action\":\"cancel-if-unpaid\"}");
        for (int i = 0; i < ids.size(); i++) {
            queue.client().enqueue(TaskSpec.of(ids.get(i)).at(Instant.ofEpochMilli(base + i)).payload(payloads.get(i)));
        }
        // a bare ZADD (id only, data in the business table) is a valid task with no payload
        TestQueue.get(queue.redis().zadd(queue.keys(queue.shardOf("order-bare")).due(0), base + 10, "order-bare"));

        awaitGone("order-200", "order-201", "order-202", "order-204", "order-json", "order-bare");
        await().untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(6));
        assertThat(outcomes(w, "retried") + outcomes(w, "dead")).isZero();

        assertThat(r.requests()).hasSize(6);
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            assertThat(r.requestsFor(id)).as(id).hasSize(1);
            Receiver.Request req = r.requestsFor(id).get(0);
            assertThat(req.header("Idempotency-Key")).isEqualTo(id);
            assertThat(req.header("Content-Type")).startsWith("application/json");
            assertThat(req.header("X-Delayq-Attempt")).isEqualTo("1");
            JsonNode body = req.json();
            assertThat(body.path("id").asText()).isEqualTo(id);
            assertThat(body.path("queue").asText()).isEqualTo(Q);
            assertThat(body.path("attempt").asInt()).isEqualTo(1);
            assertThat(body.path("dueAt").asLong()).isEqualTo(base + i);
            assertThat(body.path("payload").isTextual()).isTrue();
            assertThat(body.path("payload").asText()).isEqualTo(payloads.get(i));
            assertThat(body.path("shard").asInt()).isEqualTo(queue.shardOf(id));
        }
        JsonNode bare = r.requestsFor("order-bare").get(0).json();
        assertThat(bare.path("dueAt").asLong()).isEqualTo(base + 10);
        assertThat(bare.path("payload").isNull()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 404, 422})
    void clientErrorsDeadLetterAtOnceWithTheStatusAndABodyExcerpt(int status) {
        Receiver r = receiver((req, ex) -> Receiver.reply(ex, status, "order 8812 not found:\n  it was deleted"));
        Worker w = start(env(r));
        queue.client().enqueue(TaskSpec.of("order-8812").payload("cancel"));

        TaskInfo dead = awaitDead("order-8812");
        assertThat(dead.attempts()).isEqualTo(1);
        assertThat(dead.lastError()).contains("HTTP " + status).contains("order 8812 not found: it was deleted");
        List<DeadLetter> letters = queue.client().deadLetters(queue.shardOf("order-8812"), 0, 10).entries();
        assertThat(letters).singleElement().satisfies(d -> {
            assertThat(d.id()).isEqualTo("order-8812");
            assertThat(d.attempts()).isEqualTo(1);
            assertThat(d.lastError()).contains("HTTP " + status).contains("order 8812 not found");
        });
        assertThat(r.requestsFor("order-8812")).hasSize(1);
        await().untilAsserted(() -> assertThat(outcomes(w, "dead")).isEqualTo(1));
        assertThat(outcomes(w, "retried")).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {301, 307, 308})
    void redirectsAreNotFollowedAndDeadLetterNamingWhereTheyPointed(int status) {
        Receiver r = receiver((req, ex) -> Receiver.reply(ex, status, "", "Location", "https://hooks.example/orders"));
        start(env(r));
        queue.client().enqueue(TaskSpec.of("order-301").payload("cancel"));

        TaskInfo dead = awaitDead("order-301");
        assertThat(dead.attempts()).isEqualTo(1);
        assertThat(dead.lastError()).contains("HTTP " + status)
                .contains("redirect to https://hooks.example/orders not followed").contains("DELAYQ_WEBHOOK_URL");
        assertThat(r.requestsFor("order-301")).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 503, 408})
    void serverErrorsRetryWithGrowingBackoffUntilTheLastAttemptThenDie(int status) {
        Receiver r = receiver((req, ex) -> Receiver.reply(ex, status, "upstream unavailable"));
        Map<String, String> env = env(r);
        env.put("DELAYQ_RETRY_MAX_ATTEMPTS", "3");
        env.put("DELAYQ_RETRY_BACKOFF_INITIAL", "150ms");
        env.put("DELAYQ_RETRY_BACKOFF_MULTIPLIER", "2");
        env.put("DELAYQ_RETRY_BACKOFF_MAX", "1s");
        Worker w = start(env);
        queue.client().enqueue(TaskSpec.of("payout-17"));

        TaskInfo dead = awaitDead("payout-17");
        assertThat(dead.attempts()).isEqualTo(3);
        assertThat(dead.lastError()).contains("HTTP " + status).contains("upstream unavailable");
        List<Receiver.Request> seen = r.requestsFor("payout-17");
        assertThat(seen).extracting(Receiver.Request::attempt).containsExactly(1, 2, 3);
        // the retry is scheduled on the Redis clock after the answer, so arrivals are at least a backoff apart
        assertThat(seen.get(1).serverMillis() - seen.get(0).serverMillis()).isGreaterThanOrEqualTo(150);
        assertThat(seen.get(2).serverMillis() - seen.get(1).serverMillis()).isGreaterThanOrEqualTo(300);
        await().untilAsserted(() -> {
            assertThat(outcomes(w, "retried")).isEqualTo(2);
            assertThat(outcomes(w, "dead")).isEqualTo(1);
        });
        assertThat(outcomes(w, "acked")).isZero();
    }

    @Test
    void tooManyRequestsIsRetriedAfterTheRetryAfterDelayInsteadOfTheBackoff() {
        Receiver r = receiver((req, ex) -> {
            if (req.attempt() == 1) {
                Receiver.reply(ex, 429, "slow down", "Retry-After", "1");
            } else {
                Receiver.reply(ex, 200, "ok");
            }
        });
        Map<String, String> env = env(r);
        // a backoff far from Retry-After, so the test tells which one was used
        env.put("DELAYQ_RETRY_BACKOFF_INITIAL", "30s");
        env.put("DELAYQ_RETRY_BACKOFF_MAX", "30s");
        Worker w = start(env);
        queue.client().enqueue(TaskSpec.of("coupon-9"));

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .until(() -> inspect("coupon-9"), t -> t.state() == TaskInfo.State.SCHEDULED && t.attempts() == 1);
        TaskInfo waiting = inspect("coupon-9");
        long answeredAt = r.requestsFor("coupon-9").get(0).serverMillis();
        assertThat(waiting.lastError()).contains("HTTP 429").contains("slow down");
        assertThat(waiting.score()).isGreaterThanOrEqualTo(answeredAt + 1000).isLessThan(answeredAt + 1000 + 5000);

        awaitGone("coupon-9");
        List<Receiver.Request> seen = r.requestsFor("coupon-9");
        assertThat(seen).extracting(Receiver.Request::attempt).containsExactly(1, 2);
        assertThat(seen.get(1).serverMillis()).isGreaterThanOrEqualTo(answeredAt + 1000);
        assertThat(outcomes(w, "retried")).isEqualTo(1);
        await().untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(1));
    }

    @Test
    void aReceiverThatDoesNotAnswerWithinTheTimeoutIsRetriedWhileOtherTasksFlow() {
        AtomicReference<String> errorAtRetry = new AtomicReference<>();
        Receiver r = receiver((req, ex) -> {
            if (req.id().equals("slow-1") && req.attempt() == 1) {
                req.hang();
                return;
            }
            if (req.id().equals("slow-1")) {
                errorAtRetry.set(inspect("slow-1").lastError());
            }
            Receiver.reply(ex, 200, "ok");
        });
        Map<String, String> env = env(r);
        env.put("DELAYQ_WEBHOOK_TIMEOUT", "300ms");
        Worker w = start(env);
        queue.client().enqueue(TaskSpec.of("slow-1"));
        List<String> others = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            others.add("fast-" + i);
            queue.client().enqueue(TaskSpec.of("fast-" + i));
        }

        awaitGone(others.toArray(String[]::new));
        awaitGone("slow-1");
        assertThat(r.requestsFor("slow-1")).extracting(Receiver.Request::attempt).containsExactly(1, 2);
        assertThat(errorAtRetry.get()).contains("timed out after 300 ms");
        assertThat(outcomes(w, "retried")).isEqualTo(1);
        await().untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(11));
    }

    @Test
    void connectionRefusedIsRetriedUntilTheReceiverIsUp() {
        int port = LocalRedisServer.freePort();
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 2);
        env.put("DELAYQ_DELIVERY", "webhook");
        env.put("DELAYQ_WEBHOOK_URL", "http://127.0.0.1:" + port + "/tasks");
        env.put("DELAYQ_RETRY_MAX_ATTEMPTS", "100");
        env.put("DELAYQ_RETRY_BACKOFF_INITIAL", "100ms");
        env.put("DELAYQ_RETRY_BACKOFF_MAX", "200ms");
        Worker w = start(env);
        queue.client().enqueue(TaskSpec.of("order-1"));

        await().atMost(Duration.ofSeconds(10)).until(() -> inspect("order-1"),
                t -> t.attempts() >= 2 && t.lastError() != null && t.lastError().contains("unreachable"));
        assertThat(inspect("order-1").state()).isIn(TaskInfo.State.SCHEDULED, TaskInfo.State.IN_FLIGHT);

        Receiver r = receivers.keep(Receiver.start(port, this::serverNow, (req, ex) -> Receiver.reply(ex, 200, "ok")));
        awaitGone("order-1");
        // an attempt that failed came first; the one in flight when the receiver came up may be the one that got through
        assertThat(r.requestsFor("order-1")).singleElement().satisfies(req -> assertThat(req.attempt()).isGreaterThanOrEqualTo(2));
        assertThat(outcomes(w, "retried")).isGreaterThanOrEqualTo(1);
        assertThat(outcomes(w, "dead")).isZero();
    }

    @Test
    void hugeOrStalledResponseBodiesDoNotHoldTheWorker() {
        byte[] fiveMb = new byte[5 * 1024 * 1024];
        Arrays.fill(fiveMb, (byte) 'x');
        Receiver r = receiver((req, ex) -> {
            String kind = req.json().path("payload").asText();
            switch (kind) {
                case "huge-ok" -> streamBody(ex, 200, "done ", fiveMb);
                case "huge-error" -> streamBody(ex, 500, "quota exceeded ", fiveMb);
                case "stall-ok", "stall-error" -> {
                    ex.sendResponseHeaders(kind.equals("stall-ok") ? 200 : 500, 0);
                    OutputStream out = ex.getResponseBody();
                    out.write("partial".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    req.hang();
                }
                case "not-found" -> Receiver.reply(ex, 404, "order 7 not found");
                default -> Receiver.reply(ex, 200, "ok");
            }
        });
        Map<String, String> env = env(r);
        env.put("DELAYQ_CONCURRENCY", "2");
        env.put("DELAYQ_WEBHOOK_TIMEOUT", "500ms");
        env.put("DELAYQ_RETRY_MAX_ATTEMPTS", "1");
        Worker w = start(env);
        List<String> ok = new ArrayList<>();
        for (String kind : List.of("huge-ok", "huge-error", "stall-ok", "stall-error")) {
            for (int i = 0; i < 3; i++) {
                queue.client().enqueue(TaskSpec.of(kind + "-" + i).payload(kind));
            }
        }
        for (int i = 0; i < 20; i++) {
            ok.add("plain-" + i);
            queue.client().enqueue(TaskSpec.of("plain-" + i).payload("plain"));
        }
        // due after the stalled ones, so their excerpts are read after the stalls happened
        for (int i = 0; i < 3; i++) {
            queue.client().enqueue(TaskSpec.of("not-found-" + i).after(Duration.ofMillis(1500)).payload("not-found"));
        }

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            for (String id : ok) {
                assertThat(inspect(id).state()).as(id).isEqualTo(TaskInfo.State.UNKNOWN);
            }
            for (int i = 0; i < 3; i++) {
                assertThat(inspect("huge-ok-" + i).state()).isEqualTo(TaskInfo.State.UNKNOWN);
                assertThat(inspect("stall-ok-" + i).state()).isEqualTo(TaskInfo.State.UNKNOWN);
                assertThat(inspect("huge-error-" + i).state()).isEqualTo(TaskInfo.State.DEAD);
                assertThat(inspect("stall-error-" + i).state()).isEqualTo(TaskInfo.State.DEAD);
                assertThat(inspect("not-found-" + i).state()).isEqualTo(TaskInfo.State.DEAD);
            }
        });
        for (int i = 0; i < 3; i++) {
            String huge = inspect("huge-error-" + i).lastError();
            assertThat(huge).startsWith("webhook answered HTTP 500: quota exceeded xxx").hasSizeLessThan(600);
            assertThat(inspect("stall-error-" + i).lastError()).contains("HTTP 500");
            assertThat(inspect("not-found-" + i).lastError()).isEqualTo("webhook answered HTTP 404: order 7 not found");
        }
        assertThat(outcomes(w, "acked")).isEqualTo(26);
    }

    private static void streamBody(HttpExchange ex, int status, String head, byte[] rest) throws IOException {
        ex.sendResponseHeaders(status, head.length() + rest.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(head.getBytes(StandardCharsets.UTF_8));
            out.write(rest);
        }
    }

    @Test
    void retryAfterIsReadAsSecondsOrAsAnHttpDate() {
        assertThat(WebhookDelivery.retryAfter("1")).isEqualTo(Duration.ofSeconds(1));
        assertThat(WebhookDelivery.retryAfter(" 120 ")).isEqualTo(Duration.ofSeconds(120));
        assertThat(WebhookDelivery.retryAfter(null)).isNull();
        assertThat(WebhookDelivery.retryAfter("soon")).isNull();
        String inOneMinute = java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME
                .format(java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).plusSeconds(60));
        assertThat(WebhookDelivery.retryAfter(inOneMinute)).isBetween(Duration.ofSeconds(55), Duration.ofSeconds(61));
        String past = java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME
                .format(java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).minusSeconds(60));
        assertThat(WebhookDelivery.retryAfter(past)).isEqualTo(Duration.ZERO);
    }
}
