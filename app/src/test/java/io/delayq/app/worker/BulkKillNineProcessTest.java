package io.delayq.app.worker;

import io.delayq.bulk.BulkActions;
import io.delayq.bulk.BulkJob;
import io.delayq.bulk.BulkRun;
import io.delayq.client.DelayQueueClient;
import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.delayq.redis.Replies.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * `delayq tasks bulk --yes` as its own JVM, killed with SIGKILL in the middle of a shift; `delayq tasks resume JOB`
 * finishes it from the cursors in Redis, and every task ends shifted exactly once.
 */
class BulkKillNineProcessTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aKilledBulkRunIsResumedAndNoTaskIsShiftedTwice() throws Exception {
        Map<String, String> env = Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", "orders");
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build()) {
            List<TaskSpec> tasks = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                tasks.add(TaskSpec.of("order-" + i).after(Duration.ofHours(1).plusMillis(i)));
                if (tasks.size() == 1000) {
                    client.enqueueAll(tasks);
                    tasks.clear();
                }
            }
            Map<String, Long> before = waiting(client);
            BulkActions bulk = new BulkActions(client.protocol().scope(), Duration.ofSeconds(5));
            String job;
            try (WorkerProcess first = WorkerProcess.start(env, List.of("tasks", "bulk", "--prefix", "order-", "--action", "shift",
                    "--shift", "+1h", "--yes", "--batch", "5", "--pause", "5ms"))) {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                        .until(() -> !bulk.jobs(1).isEmpty() && bulk.jobs(1).get(0).done() > 500);
                first.kill9();
                job = bulk.jobs(1).get(0).id();
            }
            BulkJob killed = bulk.job(job);
            assertThat(killed.status()).as("killed mid-run").isEqualTo(BulkJob.Status.RUNNING);
            assertThat(killed.done()).isBetween(500L, 19_999L);

            try (WorkerProcess second = WorkerProcess.start(env, List.of("tasks", "resume", job, "--batch", "200"))) {
                assertThat(second.waitFor(Duration.ofSeconds(120))).as(second.output()).isZero();
                assertThat(second.output()).contains("resuming job " + job, "done: job " + job + ": done, 20000/20000 done");
            }
            Map<String, Long> expected = new HashMap<>();
            before.forEach((id, due) -> expected.put(id, due + Duration.ofHours(1).toMillis()));
            assertThat(waiting(client)).isEqualTo(expected);
            assertThat(bulk.run(job, BulkRun.defaults()).done()).as("a finished job does nothing more").isEqualTo(20_000);
        }
    }

    private static Map<String, Long> waiting(DelayQueueClient c) {
        Map<String, Long> out = new HashMap<>();
        for (int s = 0; s < 4; s++) {
            for (ScoredValue<String> v : await(c.redis().commands().zrangeWithScores(new ShardKeys("orders", s).due(0), 0, -1), Duration.ofSeconds(5))) {
                out.put(v.getValue(), (long) v.getScore());
            }
        }
        return out;
    }
}
