package io.delayq.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code check} against a Redis configured as production should be: AOF on, noeviction. */
class CheckCommandTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension("--appendonly", "yes", "--maxmemory-policy", "noeviction");

    @Test
    void safeRedisPassesEveryCheck() {
        try (QueueFixture q = new QueueFixture(redis, "orders", 4)) {
            CliRun r = CliRun.run("check", "--redis", redis.url(), "--queue", "orders", "--shards", "4");

            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).containsPattern("(?m)^PASS  connection\\s+redis://127\\.0\\.0\\.1:\\d+ answers$")
                    .containsPattern("(?m)^PASS  version\\s+Redis \\d+\\.\\d+")
                    .containsPattern("(?m)^PASS  queue\\s+queue 'orders': 4 shards, protocol 3$")
                    .containsPattern("(?m)^PASS  eviction\\s+maxmemory-policy is noeviction$")
                    .containsPattern("(?m)^PASS  persistence\\s+AOF on")
                    .containsPattern("(?m)^PASS  scripts\\s+all " + io.delayq.script.LuaScript.values().length + " scripts load")
                    .containsPattern("(?m)^PASS  keys\\s+every shard key of 'orders' has its type \\(4 shards\\)$")
                    .contains("check: 7 passed, 0 warning(s), 0 failed");
        }
    }

    @Test
    void aShardKeyOfTheWrongTypeFailsNamingTheKey() throws Exception {
        try (QueueFixture q = new QueueFixture(redis, "orders", 4)) {
            redis.admin().commands().set("dq:{orders:2}:due", "written by a script that meant ZADD").get();
            redis.admin().commands().hset("dq:{orders:3}:inflight", "a", "b").get();

            CliRun r = CliRun.run("check", "--redis", redis.url(), "--queue", "orders");

            assertThat(r.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
            assertThat(r.out()).containsPattern("(?m)^FAIL  keys\\s+dq:\\{orders:2\\}:due is a string, not a zset; "
                            + "dq:\\{orders:3\\}:inflight is a hash, not a zset: workers cannot claim from those shards")
                    .contains("fix: something other than delayq wrote the key");
        }
    }

    @Test
    void aQueueOnEitherProtocolPassesNamingItsProtocolAndAnotherFailsNamingBoth() throws Exception {
        redis.admin().commands().hset("dq:{bucketed}:meta", java.util.Map.of("shards", "4", "protocol", "3")).get();
        redis.admin().commands().hset("dq:{legacy}:meta", java.util.Map.of("shards", "4", "protocol", "2")).get();
        redis.admin().commands().hset("dq:{future}:meta", java.util.Map.of("shards", "4", "protocol", "4")).get();

        assertThat(CliRun.run("check", "--redis", redis.url(), "--queue", "bucketed").out())
                .containsPattern("(?m)^PASS  queue\\s+queue 'bucketed': 4 shards, protocol 3$");
        assertThat(CliRun.run("check", "--redis", redis.url(), "--queue", "legacy").out())
                .containsPattern("(?m)^PASS  queue\\s+queue 'legacy': 4 shards, protocol 2$");
        CliRun future = CliRun.run("check", "--redis", redis.url(), "--queue", "future");
        assertThat(future.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(future.out()).containsPattern("(?m)^FAIL  queue\\s+queue 'future' uses delayq protocol version 4, "
                + "this delayq speaks versions 2 and 3$");
    }

    @Test
    void wrongShardCountFailsWithTheCountToUse() {
        try (QueueFixture q = new QueueFixture(redis, "orders", 4)) {
            CliRun r = CliRun.run("check", "--redis", redis.url(), "--queue", "orders", "--shards", "16");

            assertThat(r.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
            assertThat(r.out()).containsPattern("(?m)^FAIL  queue\\s+queue 'orders' has 4 shards in Redis, but 16 are configured$")
                    .contains("fix: use --shards 4 (or DELAYQ_SHARDS=4): clients and workers read the queue's layout from Redis, "
                            + "and the count changes only through a reshard (delayq reshard orders --to N)");
        }
    }

    @Test
    void queueThatDoesNotExistYetOnlyWarns() {
        CliRun r = CliRun.run("check", "--redis", redis.url(), "--queue", "new-queue");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).containsPattern("(?m)^WARN  queue\\s+queue 'new-queue' does not exist in Redis yet");
    }

    @Test
    void persistenceOffFails() throws Exception {
        redis.admin().commands().configSet("appendonly", "no").get();
        try {
            CliRun r = CliRun.run("check", "--redis", redis.url(), "--output", "json");

            assertThat(r.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
            JsonNode json = new ObjectMapper().readTree(r.out());
            JsonNode persistence = find(json, "persistence");
            assertThat(persistence.get("status").asText()).isEqualTo("FAIL");
            assertThat(persistence.get("hint").asText()).contains("CONFIG SET appendonly yes");
            assertThat(find(json, "queue").get("status").asText()).isEqualTo("WARN");
            assertThat(json.get("failed").asInt()).isEqualTo(1);
        } finally {
            redis.admin().commands().configSet("appendonly", "yes").get();
        }
    }

    @Test
    void unreachableRedisFailsTheConnectionCheckAndSkipsTheRest() {
        String closed = "redis://127.0.0.1:" + LocalRedisServer.freePort();

        CliRun r = CliRun.run("check", "--redis", closed);

        assertThat(r.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(r.out()).containsPattern("(?m)^FAIL  connection\\s+cannot connect to " + closed.replace(".", "\\.") + " \\(Connection refused")
                .contains("fix: is Redis running and reachable from here?", "skipped", "check: 0 passed, 0 warning(s), 1 failed");
    }

    private static JsonNode find(JsonNode report, String name) {
        for (JsonNode c : report.get("checks")) {
            if (c.get("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no check " + name + " in " + report);
    }
}
