package io.delayq.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.shard.Sharding;
import io.delayq.task.TaskInfo;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReshardCommandTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final QueueFixture queue = QueueFixture.eachTest(redis, "orders", 4);

    @Test
    void growsTheQueuePrintingProgressAndStatsShowsTheNewLayout() {
        for (int i = 0; i < 300; i++) {
            queue.schedule("o-" + i, Duration.ofHours(1), "p");
        }
        queue.dead("boom", "d-1");

        CliRun r = CliRun.run("reshard", "orders", "--redis", redis.url(), "--to", "16", "--batch", "20");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("reshard orders 4 -> 16: moving, pass 1", "finished: queue 'orders' now has 16 shards (was 4)");
        for (String id : List.of("o-7", "o-150", "d-1")) {
            TaskInfo info = queue.client().inspect(id);
            assertThat(info.shard()).as(id).isEqualTo(Sharding.shardOf(id, 16));
        }
        assertThat(queue.client().inspect("d-1").lastError()).isEqualTo("boom");

        CliRun stats = CliRun.run("stats", "--redis", redis.url(), "--queue", "orders");
        assertThat(stats.out()).contains("queue orders (16 shards)", "layout epoch 2, shard counts so far [4, 16]");

        CliRun again = CliRun.run("reshard", "orders", "--redis", redis.url(), "--to", "16");
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(again.out()).contains("queue 'orders' already has 16 shards: nothing to move");
    }

    @Test
    void afterAReshardTheOldShardCountIsRefusedSayingToLeaveItOutAndHowTheCountChanges() {
        CliRun grow = CliRun.run("reshard", "orders", "--redis", redis.url(), "--to", "6");
        assertThat(grow.exitCode()).as(grow.toString()).isZero();

        CliRun stale = CliRun.run("stats", "--redis", redis.url(), "--queue", "orders", "--shards", "4");

        assertThat(stale.exitCode()).isEqualTo(ExitCodes.REDIS);
        assertThat(stale.oneErrorLine()).isTrue();
        assertThat(stale.err()).contains("delayq stats: shards: queue 'orders' has 6 shards in Redis (dq:{orders}:meta), but "
                + "--shards (or DELAYQ_SHARDS) says 4; leave it out: the CLI reads the queue's layout from Redis (--shards only "
                + "sets the count of a new queue), and the count changes only through a reshard (delayq reshard orders --to N)");
        assertThat(stale.err()).doesNotContain("cannot change");
        assertThat(stale.out()).isEmpty();

        CliRun stats = CliRun.run("stats", "--redis", redis.url(), "--queue", "orders");
        assertThat(stats.exitCode()).as(stats.toString()).isZero();
        assertThat(stats.out()).contains("queue orders (6 shards)");
    }

    @Test
    void statsShowsBothLayoutsWhileAMigrationRuns() throws Exception {
        io.delayq.redis.Replies.await(new io.delayq.reshard.ReshardScripts(queue.protocol().scope()).reshardBegin(16), Duration.ofSeconds(5));

        CliRun r = CliRun.run("stats", "--redis", redis.url(), "--queue", "orders");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("RESHARDING: old layout 4 shards (0..3), new layout 16 shards (0..15), epoch 1; moved 0, left not measured yet");

        JsonNode json = new ObjectMapper().readTree(CliRun.run("stats", "--redis", redis.url(), "--queue", "orders", "--output", "json").out());
        assertThat(json.at("/layout/migratingFrom").asInt()).isEqualTo(4);
        assertThat(json.at("/layout/shards").asInt()).isEqualTo(16);
        assertThat(json.at("/layout/history").toString()).isEqualTo("[4,16]");
    }

    @Test
    void refusesAShrinkASecondMigrationAndBadInputWithTheRule() throws Exception {
        CliRun shrink = CliRun.run("reshard", "orders", "--redis", redis.url(), "--to", "2");
        assertThat(shrink.exitCode()).as(shrink.toString()).isEqualTo(2);
        assertThat(shrink.err()).contains("shrinking is not supported (4 -> 2)");
        assertThat(shrink.oneErrorLine()).isTrue();

        CliRun range = CliRun.run("reshard", "orders", "--redis", redis.url(), "--to", "5000");
        assertThat(range.exitCode()).isEqualTo(2);
        assertThat(range.err()).contains("to: must be between 1 and 1024, got 5000");

        CliRun pause = CliRun.run("reshard", "orders", "--redis", redis.url(), "--to", "8", "--pause", "5s");
        assertThat(pause.exitCode()).as(pause.toString()).isEqualTo(2);
        assertThat(pause.err()).contains("pause: must be between 0 and 1s, got PT5S");
        assertThat(queue.protocol().refreshLayout().toCompletableFuture().get(5, java.util.concurrent.TimeUnit.SECONDS).shards())
                .as("a refused pause starts nothing").isEqualTo(4);

        io.delayq.redis.Replies.await(new io.delayq.reshard.ReshardScripts(queue.protocol().scope()).reshardBegin(16), Duration.ofSeconds(5));
        CliRun second = CliRun.run("reshard", "orders", "--redis", redis.url(), "--to", "32");
        assertThat(second.exitCode()).as(second.toString()).isEqualTo(2);
        assertThat(second.err()).contains("a migration from 4 to 16 shards is running", "--to 16 resumes it");

        CliRun missing = CliRun.run("reshard", "nosuch", "--redis", redis.url(), "--to", "8");
        assertThat(missing.exitCode()).isEqualTo(1);
    }
}
