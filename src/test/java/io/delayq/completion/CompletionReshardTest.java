package io.delayq.completion;

import io.delayq.claim.ClaimedTask;
import io.delayq.reshard.Mover;
import io.delayq.shard.Sharding;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/** Completion records go with their id to its new shard when the queue grows (move_out's "done" set, move_in). */
class CompletionReshardTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    private static final int FROM = 4;
    private static final int TO = 16;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", FROM);

    @Test
    void aGrowCarriesEachRecordToItsIdsNewShardWithItsExpiry() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            ids.add("order-" + i);
            q.client().enqueue(TaskSpec.of("order-" + i));
        }
        ResultRetention keep = new ResultRetention(Duration.ofHours(1), 1000);
        for (int shard = 0; shard < FROM; shard++) {
            List<ClaimedTask> claimed = q.claim(shard, 100, Duration.ofMinutes(1)).tasks();
            List<Finished> finished = new ArrayList<>();
            for (ClaimedTask t : claimed) {
                finished.add(new Finished(7, BoundedResult.of("done " + t.id())));
            }
            if (!claimed.isEmpty()) {
                assertThat(sync(q.protocol().ack(shard, claimed, Set.of(), keep, "w-1", finished))).doesNotContain(false);
            }
        }
        List<String> moving = ids.stream().filter(id -> Sharding.shardOf(id, FROM) != Sharding.shardOf(id, TO)).toList();
        assertThat(moving).isNotEmpty();

        Mover.Result result = new Mover(Mover.Params.of(q.protocol(), TO, p -> { })).run();
        assertThat(result.to()).isEqualTo(TO);

        for (String id : ids) {
            int home = Sharding.shardOf(id, TO);
            TaskInfo info = q.client().inspect(id);
            assertThat(info.state()).as(id).isEqualTo(TaskInfo.State.SUCCEEDED);
            assertThat(info.shard()).as(id).isEqualTo(home);
            assertThat(info.completion().result()).isEqualTo("done " + id);
            assertThat(info.completion().workerId()).isEqualTo("w-1");
            assertThat(get(q.redis().zscore(q.keys(home).doneAt(), id))).as(id).isNotNull();
        }
        for (String id : moving) {
            int old = Sharding.shardOf(id, FROM);
            assertThat(get(q.redis().hget(q.keys(old).done(), id))).as(id).isNull();
            assertThat(get(q.redis().zscore(q.keys(old).doneAt(), id))).as(id).isNull();
            int home = Sharding.shardOf(id, TO);
            assertThat(get(q.redis().pttl(q.keys(home).done()))).as("expiry of shard " + home).isPositive();
            assertThat(get(q.redis().pttl(q.keys(home).doneAt()))).as("expiry of shard " + home).isPositive();
        }
        assertThat(q.allKeys()).noneMatch(k -> k.endsWith(":moving"));
    }
}
