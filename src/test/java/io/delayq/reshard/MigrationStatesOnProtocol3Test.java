package io.delayq.reshard;

import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.List;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MigrationStatesOnProtocol3Test extends MigrationStatesTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    /** A set of protocol 2's (a caller that has not seen the switch) is refused, naming protocol 3's, and nothing moves. */
    @Test
    void protocol3sMoveOutRefusesASetItDoesNotWalk() {
        List<String> ids = HeldMover.idsThatMove("w-", 20, 4, 16);
        q.client().enqueueAll(ids.stream().map(id -> TaskSpec.of(id).after(java.time.Duration.ofMinutes(30))).toList());
        int shard = q.shardOf(ids.get(0));
        assertThatThrownBy(() -> sync(new ReshardScripts(q.protocol().scope()).moveOut(shard, 16, "0", 0, 100, 1000)))
                .isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageContaining("move_out: set must be 'c', 'w0', 'w1', 'w2', 'wg', 'dead', 'done' or 'inflight' (protocol 3's), got '0'");
        assertThat(q.waiting(shard)).containsKey(ids.get(0));
    }

    /** The latest due time a task may have (9999-12-31T23:59:59.999Z) moves to the millisecond. */
    @Test
    void aTaskDueAtTheLatestTimeMovesToTheMillisecond() {
        Instant latest = Instant.ofEpochMilli(253402300799999L);
        List<String> ids = HeldMover.idsThatMove("far-", 5, 4, 16);
        q.client().enqueueAll(ids.stream().map(id -> TaskSpec.of(id).at(latest)).toList());
        assertThat(new Mover(Mover.Params.of(q.protocol(), 16, p -> { })).run().moved()).isEqualTo(5);
        for (String id : ids) {
            TaskInfo info = q.client().inspect(id);
            assertThat(info.shard()).isEqualTo(io.delayq.shard.Sharding.shardOf(id, 16));
            assertThat(info.score()).isEqualTo(latest.toEpochMilli());
        }
    }
}
