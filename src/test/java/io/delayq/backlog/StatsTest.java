package io.delayq.backlog;

import io.delayq.claim.ClaimedTask;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/** stats.lua against a brute-force count of everything in Redis. */
class StatsTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void emptyQueue() {
        try (TestQueue q = TestQueue.open(redis.url(), "orders", 4)) {
            QueueStats s = q.client().stats();
            assertThat(s.queue()).isEqualTo("orders");
            assertThat(s.shards()).extracting(ShardStats::shard).containsExactly(0, 1, 2, 3);
            assertThat(List.of(s.scheduled(), s.due(), s.inflight(), s.dead(), s.oldestOverdueMillis())).containsOnly(0L);
            assertThat(s.shards()).allSatisfy(sh -> assertThat(sh.oldestDueAt()).isEqualTo(-1));
        }
    }

    @Test
    void statsMatchABruteForceCountOfEveryShard() {
        int shards = 6;
        try (TestQueue q = TestQueue.open(redis.url(), "orders", shards)) {
            Random random = new Random(42);
            long now = q.serverNow();
            List<TaskSpec> tasks = new ArrayList<>();
            for (int i = 0; i < 600; i++) {
                // a third overdue (up to 10 min), the rest due within the next hour; all priority levels
                long due = random.nextInt(3) == 0 ? now - random.nextInt(600_000) : now + 60_000 + random.nextInt(3_600_000);
                tasks.add(TaskSpec.of("task-" + i).at(Instant.ofEpochMilli(due)).priority(random.nextInt(3)));
            }
            q.client().enqueueAll(tasks);
            for (int i = 0; i < 60; i++) {         // id-only tasks written by a bare ZADD, some overdue
                String id = "bare-" + i;
                get(q.redis().zadd(q.keys(q.shardOf(id)).due(0), i % 2 == 0 ? now - 1_000 * i : now + 100_000, id));
            }
            for (int shard = 0; shard < shards; shard++) {
                List<ClaimedTask> claimed = q.claim(shard, 20, Duration.ofMinutes(5)).tasks();
                for (int i = 0; i < claimed.size(); i += 3) {  // a third of them fail for good
                    q.kill(claimed.get(i), "boom", DeadLetterPolicy.DEFAULT);
                }
            }

            QueueStats stats = q.client().stats();
            long totalTasks = 0;
            for (ShardStats s : stats.shards()) {
                ShardKeys k = q.keys(s.shard());
                long scheduled = 0, due = 0, oldest = Long.MAX_VALUE;
                for (int level = 0; level < ShardKeys.PRIORITY_LEVELS; level++) {
                    for (ScoredValue<String> v : q.zrange(k.due(level))) {
                        long score = (long) v.getScore();
                        if (score <= s.serverNow()) {
                            due++;
                            oldest = Math.min(oldest, score);
                        } else {
                            scheduled++;
                        }
                    }
                }
                long inflight = q.zrange(k.inflight()).size();
                long dead = q.zrange(k.dead()).size();
                assertThat(s).as("shard %d", s.shard()).isEqualTo(new ShardStats(s.shard(), s.serverNow(), scheduled, due,
                        inflight, dead, oldest == Long.MAX_VALUE ? -1 : oldest));
                assertThat(s.oldestOverdueMillis()).isEqualTo(oldest == Long.MAX_VALUE ? 0 : s.serverNow() - oldest);
                totalTasks += scheduled + due + inflight + dead;
            }
            assertThat(totalTasks).isEqualTo(660);
            assertThat(stats.inflight()).isGreaterThan(0);
            assertThat(stats.dead()).isGreaterThan(0);
            assertThat(stats.due()).isGreaterThan(0);
            assertThat(stats.scheduled()).isGreaterThan(0);
            assertThat(stats.scheduled() + stats.due() + stats.inflight() + stats.dead()).isEqualTo(660);
            assertThat(stats.oldestOverdueMillis()).isEqualTo(stats.shards().stream().mapToLong(ShardStats::oldestOverdueMillis).max().orElseThrow());

            // a worker's shard range
            QueueStats range = sync(new io.delayq.backlog.StatsReader(q.protocol().scope()).stats(IntStream.rangeClosed(2, 3)));
            assertThat(range.shards()).extracting(ShardStats::shard).containsExactly(2, 3);
            assertThat(sync(new io.delayq.backlog.StatsReader(q.protocol().scope()).stats(4)).inflight()).isEqualTo(stats.shards().get(4).inflight());
        }
    }
}
