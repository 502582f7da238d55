package io.delayq.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.claim.ClaimedTask;
import io.delayq.presence.PresenceRegistry;
import io.delayq.shard.ShardRange;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The on-call checklist: one {@code inspect} answers where a task is and what to do. */
class InspectCommandTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final QueueFixture queue = QueueFixture.eachTest(redis, "orders", 8);

    private CliRun delayq(String... args) {
        // the shard count is not given: it is read from the queue's meta hash
        return CliRun.run(Map.of("REDIS_URL", redis.url(), "DELAYQ_QUEUE", "orders"), args);
    }

    @Test
    void scheduledTask_showsDueTimeLocalAndUtc_shardPayloadAndAttempts() {
        queue.scheduleAt("order-8812", Instant.parse("2030-06-01T10:00:00Z"), "{\"action\":\"cancel-if-unpaid\"}");

        CliRun r = delayq("inspect", "order-8812");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("state:        scheduled",
                "shard " + queue.shardOf("order-8812") + " of 8",
                "2030-06-01 12:00:00 CEST (2030-06-01T10:00:00Z)",
                "attempts:     0",
                "payload:      {\"action\":\"cancel-if-unpaid\"}",
                "waiting for its due time");
    }

    @Test
    void overdueTask_pointsAtTheWorkersOfItsShard() throws Exception {
        queue.scheduleAt("late-1", Instant.ofEpochMilli(queue.serverNow() - 90_000), "p");

        CliRun r = delayq("inspect", "late-1");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("overdue by 1m 3", "not claimed yet: is a worker running for shard " + queue.shardOf("late-1"));
    }

    @Test
    void taskInFlight_showsLeaseExpiryAndAttempt() {
        queue.inFlight(Duration.ofMinutes(5), "running-1");

        CliRun r = delayq("inspect", "running-1", "--output", "json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode json = json(r.out());
        assertThat(json.get("state").asText()).isEqualTo("in_flight");
        assertThat(json.get("attempts").asInt()).isEqualTo(1);
        assertThat(json.get("leaseExpired").asBoolean()).isFalse();
        assertThat(Instant.parse(json.get("leaseExpiresAt").asText()))
                .isAfter(Instant.parse(json.get("serverTime").asText()).plus(Duration.ofMinutes(4)));
        assertThat(json.get("payload").asText()).isEqualTo("payload of running-1");
        // no worker is alive: the claim's worker is gone, and nothing runs the task until one of its shard starts
        assertThat(json.has("leaseHolder")).isFalse();
        assertThat(json.get("hints").get(0).asText()).startsWith("in flight (attempt 1); lease expires at " + json.get("leaseExpiresAt").asText())
                .endsWith("; no live worker owns shard " + queue.shardOf("running-1")
                        + " — it will be reclaimed when the lease expires and run when a worker for that shard starts");
    }

    @Test
    void taskInFlight_showsTheProgressItsHandlerReported() {
        ClaimedTask t = queue.inFlight(Duration.ofMinutes(5), "export-1").get(0);

        assertThat(delayq("inspect", "export-1").out()).contains("progress:     - (the handler reported none)");

        io.delayq.redis.Replies.await(queue.protocol().progress(t, 40, "4,000 of 10,000 rows"), Duration.ofSeconds(5));
        CliRun text = delayq("inspect", "export-1");
        assertThat(text.out()).containsPattern("progress: {5}40 % — 4,000 of 10,000 rows \\(reported \\d+(\\.\\d)?m?s ago\\)");

        JsonNode json = json(delayq("inspect", "export-1", "--output", "json").out());
        assertThat(json.get("progress").get("percent").asDouble()).isEqualTo(40.0);
        assertThat(json.get("progress").get("note").asText()).isEqualTo("4,000 of 10,000 rows");
        assertThat(Instant.parse(json.get("progress").get("reportedAt").asText())).isBeforeOrEqualTo(Instant.parse(json.get("serverTime").asText()));

        io.delayq.redis.Replies.await(queue.protocol().ack(t.shard(), List.of(t), java.util.Set.of(t.id())), Duration.ofSeconds(5));
        assertThat(json(delayq("inspect", "export-1", "--output", "json").out()).has("progress")).isFalse();
    }

    @Test
    void succeededTask_showsWhenAfterHowManyAttemptsByWhichWorkerAndItsResult() {
        ClaimedTask t = queue.inFlight(Duration.ofMinutes(5), "refund-7").get(0);
        io.delayq.redis.Replies.await(queue.protocol().ack(t.shard(), List.of(t), java.util.Set.of(),
                new io.delayq.completion.ResultRetention(Duration.ofHours(1), 100), "node-a-1f2e3d",
                List.of(new io.delayq.completion.Finished(42, io.delayq.completion.BoundedResult.of("refund r-91 issued")))), Duration.ofSeconds(5));

        CliRun text = delayq("inspect", "refund-7");
        assertThat(text.exitCode()).as(text.toString()).isZero();
        assertThat(text.out()).contains("state:        succeeded", "after 1 attempt, by worker node-a-1f2e3d (handler 42 ms)",
                "result:       refund r-91 issued", "nothing to do");

        JsonNode json = json(delayq("inspect", "refund-7", "--output", "json").out());
        assertThat(json.get("state").asText()).isEqualTo("succeeded");
        JsonNode c = json.get("completion");
        assertThat(c.get("attempts").asInt()).isEqualTo(1);
        assertThat(c.get("worker").asText()).isEqualTo("node-a-1f2e3d");
        assertThat(c.get("handlerMillis").asLong()).isEqualTo(42);
        assertThat(c.get("result").asText()).isEqualTo("refund r-91 issued");
        assertThat(c.get("resultTruncated").asBoolean()).isFalse();
        assertThat(Instant.parse(c.get("finishedAt").asText())).isBeforeOrEqualTo(Instant.parse(json.get("serverTime").asText()));
    }

    @Test
    void taskInFlight_namesTheWorkerThatReportedItsLease() {
        ClaimedTask t = queue.inFlight(Duration.ofMinutes(5), "running-2").get(0);
        PresenceRegistry workers = new PresenceRegistry(redis.admin(), "orders", Duration.ofSeconds(5));
        workers.beat("node-a-1f2e3d", new ShardRange(0, 7), "test", "node-a", Duration.ofMinutes(1), 1,
                List.of(new PresenceRegistry.HeldLease(t.id(), t.token())));

        CliRun json = delayq("inspect", "running-2", "--output", "json");
        assertThat(json(json.out()).get("leaseHolder").asText()).isEqualTo("node-a-1f2e3d");

        CliRun text = delayq("inspect", "running-2");
        assertThat(text.out()).containsPattern(java.util.regex.Pattern.quote("next:         a worker (node-a-1f2e3d on node-a) is running it "
                + "(attempt 1); lease expires at " + Instant.ofEpochMilli(t.token()) + " (in ") + "4m \\d\\ds\\) unless it extends it");
    }

    @Test
    void taskInFlight_withLiveWorkersOfItsShardThatDidNotReportIt() {
        queue.inFlight(Duration.ofMinutes(5), "running-3");
        int shard = queue.shardOf("running-3");
        new PresenceRegistry(redis.admin(), "orders", Duration.ofSeconds(5))
                .beat("node-b-4a5b6c", new ShardRange(shard, shard), "test", "node-b", Duration.ofMinutes(1), 0, List.of());

        CliRun r = delayq("inspect", "running-3");

        assertThat(r.out()).contains("not reported by the live workers owning shard " + shard + " (node-b-4a5b6c)");
    }

    @Test
    void deadTask_showsLastErrorAndHowToReplay() {
        queue.dead("webhook answered HTTP 410 Gone", "gone-1");

        CliRun r = delayq("inspect", "gone-1");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("state:        dead", "died at:", "attempts:     1",
                "last error:   webhook answered HTTP 410 Gone", "delayq dead replay gone-1");
    }

    @Test
    void unknownId_exitsOneAndSaysWhatThatMeans() {
        CliRun r = delayq("inspect", "never-enqueued");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(r.out()).contains("state:        unknown", "no task 'never-enqueued' in queue 'orders'");

        CliRun json = delayq("inspect", "never-enqueued", "--output", "json");
        assertThat(json.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(json(json.out()).get("state").asText()).isEqualTo("unknown");
    }

    @Test
    void bareZaddTaskWithoutRecordIsShownWithAnEmptyPayload() throws Exception {
        // the "store only the id" style of other producers: ZADD dq:{q:i}:due <ms> <id>, no record
        String due = queue.protocol().keys(queue.shardOf("bare-1")).due(0);
        redis.admin().commands().zadd(due, (double) Instant.parse("2030-01-01T00:00:00Z").toEpochMilli(), "bare-1").get();

        CliRun r = delayq("inspect", "bare-1");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("state:        scheduled", "2030-01-01T00:00:00Z", "payload:      -", "written by a bare ZADD");
    }

    @Test
    void wrongShardCountIsRefusedBeforeAnyRead() {
        queue.schedule("order-1", Duration.ofHours(1), "p");

        CliRun r = delayq("inspect", "order-1", "--shards", "4");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.REDIS);
        assertThat(r.oneErrorLine()).isTrue();
        assertThat(r.err()).contains("delayq inspect: shards: queue 'orders' has 8 shards in Redis");
        assertThat(r.out()).isEmpty();
    }

    private static JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }
}
