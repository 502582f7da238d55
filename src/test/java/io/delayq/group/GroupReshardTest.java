package io.delayq.group;

import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.reshard.Mover;
import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskRecord;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/** Growing a queue moves grouped tasks with their group (move_out.lua's set "g", move_in.lua), keeping every group's sets whole. */
class GroupReshardTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    private static final int FROM = 2;
    private static final int TO = 8;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "tenants", FROM);

    /** A group's turn on its new shard, its earliest task due at {@code headDue}: protocol 2's is that due time. */
    Double expectedTurn(long headDue) {
        return (double) headDue;
    }

    @Test
    void groupedTasksMoveToTheirNewShardsInsideTheirGroupsAndAreClaimedThere() {
        Instant later = Instant.now().plusSeconds(3600);
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            tasks.add(TaskSpec.of("task-" + i).at(later.plusMillis(i)).payload("p" + i).group("g" + (i % 3)));
        }
        for (int i = 0; i < 30; i++) {
            tasks.add(TaskSpec.of("plain-" + i).at(later));
        }
        q.client().enqueueAll(tasks);

        Mover.Result result = new Mover(Mover.Params.of(q.protocol(), TO, p -> { }).withBatch(40)).run();
        assertThat(result.moved()).isGreaterThan(200);
        assertThat(q.protocol().layout().shards()).isEqualTo(TO);

        long grouped = 0;
        for (int shard = 0; shard < TO; shard++) {
            ShardKeys k = q.keys(shard);
            Map<String, Long> all = q.waitingGrouped(shard);
            grouped += all.size();
            long inGroups = 0;
            for (String g : List.of("g0", "g1", "g2")) {
                Map<String, Long> members = q.waitingInGroup(shard, g);
                inGroups += members.size();
                Double turn = get(q.redis().zscore(k.groups(), g));
                if (members.isEmpty()) {
                    assertThat(turn).isNull();
                } else {
                    assertThat(turn).isEqualTo(expectedTurn(Collections.min(members.values())));
                }
                for (String id : members.keySet()) {
                    assertThat(q.shardOf(id)).isEqualTo(shard);
                    assertThat(TaskRecord.decode(q.storedRecord(id)).options().group()).isEqualTo(g);
                }
            }
            assertThat(inGroups).isEqualTo(all.size());
        }
        assertThat(grouped).isEqualTo(300);
        for (TaskSpec t : tasks) {
            TaskInfo info = q.client().inspect(t.id());
            assertThat(info.state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(info.shard()).isEqualTo(q.shardOf(t.id()));
        }

        // due now: every task claimed exactly once from the new layout's shards
        for (TaskSpec t : tasks) {
            q.client().reschedule(t.id(), Instant.now().minusSeconds(1));
        }
        Set<String> claimed = new HashSet<>();
        for (int shard = 0; shard < TO; shard++) {
            for (ClaimedTask c : sync(q.protocol().claim(shard, 1000, Duration.ofMinutes(1), RateLimit.NONE)).tasks()) {
                assertThat(claimed.add(c.id())).isTrue();
            }
        }
        assertThat(claimed).hasSize(330);
    }
}
