package io.delayq.pause;

import io.delayq.backlog.QueueStats;
import io.delayq.claim.ClaimBatch;
import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;

/** pause.lua, shard_pause.lua and the claim's pause check. */
class PauseTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 2);

    @Test
    void aPausedQueueHandsOutNothingKeepsDueTimesAndFiresOverdueTasksOnceResumed() {
        Instant later = Instant.parse("2030-01-01T00:00:00Z");
        q.client().enqueue(TaskSpec.of("due-now").after(Duration.ZERO));
        q.client().enqueue(TaskSpec.of("later").at(later));
        int shard = q.shardOf("due-now");

        PauseState paused = q.client().pause("test:alice");
        assertThat(paused.paused()).isTrue();
        assertThat(paused.by()).isEqualTo("test:alice");
        assertThat(paused.pausedAt()).isGreaterThan(0);
        assertThat(get(q.redis().hget(ShardKeys.meta("orders"), "pausedBy"))).isEqualTo("test:alice");
        assertThat(get(q.redis().exists(q.keys(0).paused(), q.keys(1).paused()))).isEqualTo(2);

        ClaimBatch none = q.claim(shard, 10, Duration.ofSeconds(30));
        assertThat(none.tasks()).isEmpty();
        assertThat(none.hasNext()).as("a paused shard tells workers nothing is due, so they sleep").isFalse();
        QueueStats stats = q.client().stats();
        assertThat(stats.due()).as("backlog keeps being reported").isEqualTo(1);
        assertThat(stats.scheduled()).isEqualTo(1);
        assertThat(stats.pausedShards()).isEqualTo(2);
        assertThat(stats.oldestOverdueMillis()).isGreaterThanOrEqualTo(0);
        assertThat(q.client().pauseState()).isEqualTo(paused);
        assertThat(q.client().pause("test:bob").by()).as("a second pause keeps the first record").isEqualTo("test:alice");

        get(q.redis().del(q.keys(shard).marker()));
        PauseState resumed = q.client().resume("test:alice");
        assertThat(resumed.paused()).isFalse();
        assertThat(get(q.redis().hget(ShardKeys.meta("orders"), "paused"))).isNull();
        assertThat(get(q.redis().zscore(q.keys(shard).marker(), "next"))).as("resume wakes the shard's workers").isNotNull();
        assertThat(q.claim(shard, 10, Duration.ofSeconds(30)).tasks()).extracting(t -> t.id()).containsExactly("due-now");
        assertThat(q.client().inspect("later").score()).isEqualTo(later.toEpochMilli());
        assertThat(q.client().stats().pausedShards()).isZero();
    }

    @Test
    void aClaimWithoutThePauseKeyIsUnaffected() {
        // stats called with the ten shard keys of older callers: paused reads as 0
        q.client().pause("x");
        java.util.List<Object> r = get(q.redis().eval(io.delayq.script.LuaScript.STATS.source(), io.lettuce.core.ScriptOutputType.MULTI,
                q.keys(0).scriptKeys().toArray(String[]::new)));
        assertThat(r).hasSize(7);
        assertThat(r.get(6)).isEqualTo(0L);
    }
}
