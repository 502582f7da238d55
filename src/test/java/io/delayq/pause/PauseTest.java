package io.delayq.pause;

import io.delayq.backlog.QueueStats;
import io.delayq.claim.ClaimBatch;
import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;

import io.delayq.queue.QueueProtocol;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/** pause.lua, shard_pause.lua and the claim's pause check. */
class PauseTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

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
        assertThat(flags()).containsExactly(true, true);

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

    /** Each shard's claim-side flag (field {@code at} of its pause hash). */
    private java.util.List<Boolean> flags() {
        java.util.List<Boolean> out = new java.util.ArrayList<>();
        for (int s = 0; s < q.protocol().shards(); s++) {
            out.add(get(q.redis().hget(q.keys(s).paused(), "at")) != null);
        }
        return out;
    }

    private boolean recordSaysPaused() {
        return q.client().pauseState().paused();
    }

    @Test
    void aResumeOvertakenByAPauseEndsPausedEverywhere() {
        PauseScripts p = new PauseScripts(q.protocol().scope());
        // B starts resuming, A pauses in full, then B's shard writes and its final step arrive
        PauseRecord b = sync(p.recordPause(PauseStep.RESUME, "bob", 0));
        PauseRecord a = sync(p.recordPause(PauseStep.PAUSE, "alice", 0));
        assertThat(a.epoch()).isGreaterThan(b.epoch());
        for (int s = 0; s < 2; s++) {
            assertThat(sync(p.pauseShard(s, true, a.epoch()))).isTrue();
        }
        for (int s = 0; s < 2; s++) {
            assertThat(sync(p.pauseShard(s, false, b.epoch()))).as("an older call's write changes nothing").isFalse();
        }
        PauseRecord end = sync(p.recordPause(PauseStep.RESUMED, "bob", b.epoch()));
        assertThat(end.state().paused()).as("the resume says it was overtaken").isTrue();
        assertThat(recordSaysPaused()).isTrue();
        assertThat(q.client().pauseState().by()).isEqualTo("alice");
        assertThat(flags()).containsExactly(true, true);
    }

    @Test
    void aPauseOvertakenByAResumeEndsRunningEverywhere() {
        PauseScripts p = new PauseScripts(q.protocol().scope());
        // A records its pause, B resumes in full, then A's shard writes arrive late
        PauseRecord a = sync(p.recordPause(PauseStep.PAUSE, "alice", 0));
        PauseRecord b = sync(p.recordPause(PauseStep.RESUME, "bob", 0));
        sync(p.pauseShard(1, true, a.epoch()));
        for (int s = 0; s < 2; s++) {
            sync(p.pauseShard(s, false, b.epoch()));
        }
        assertThat(sync(p.recordPause(PauseStep.RESUMED, "bob", b.epoch())).state().paused()).isFalse();
        assertThat(sync(p.pauseShard(0, true, a.epoch()))).as("a late write of the overtaken pause").isFalse();
        assertThat(recordSaysPaused()).isFalse();
        assertThat(flags()).containsExactly(false, false);
    }

    @Test
    void twoOperatorsPressingPauseAndResumeAtOnceAlwaysEndConsistent() throws Exception {
        try (io.delayq.redis.RedisEndpoint other = io.delayq.redis.RedisEndpoint.connect(redis.url());
             io.delayq.client.DelayQueueClient second = io.delayq.client.DelayQueueClient.builder().redis(other).queue("orders").shards(2).build()) {
            java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
            try {
                java.util.Random random = new java.util.Random(42);
                for (int round = 0; round < 60; round++) {
                    boolean firstPauses = random.nextBoolean();
                    boolean secondPauses = random.nextBoolean();
                    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
                    var x = two.submit(() -> {
                        start.await();
                        return firstPauses ? q.client().pause("alice") : q.client().resume("alice");
                    });
                    var y = two.submit(() -> {
                        start.await();
                        return secondPauses ? second.pause("bob") : second.resume("bob");
                    });
                    x.get(10, java.util.concurrent.TimeUnit.SECONDS);
                    y.get(10, java.util.concurrent.TimeUnit.SECONDS);
                    boolean paused = recordSaysPaused();
                    assertThat(flags()).as("round %d: %s / %s, record says paused=%s", round, firstPauses ? "pause" : "resume",
                            secondPauses ? "pause" : "resume", paused).containsOnly(paused);
                    if (firstPauses == secondPauses) {
                        assertThat(paused).isEqualTo(firstPauses);
                    }
                }
            } finally {
                two.shutdownNow();
            }
        }
    }
}
