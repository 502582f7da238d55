package io.delayq.operator.autoscaling;

import io.delayq.backlog.QueueStats;
import io.delayq.backlog.ShardStats;
import io.delayq.presence.WorkerPresence;
import io.delayq.shard.ShardRange;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Per-replica throughput from two looks at the workers' heartbeats: only busy ranges count. */
class ReplicaThroughputTest {
    private static final ShardRange LOW = new ShardRange(0, 3);
    private static final ShardRange HIGH = new ShardRange(4, 7);

    private static QueueStats due(long due, boolean paused) {
        return new QueueStats("q", List.of(new ShardStats(0, 0, 0, due, 0, 0, -1, paused)));
    }

    private static WorkerPresence worker(String id, ShardRange range, long beatAt, long delivered) {
        return new WorkerPresence(id, range, "0.3", "host", 0, beatAt, 15_000, 0, delivered);
    }

    private static ReplicaThroughput.Look look(Map<ShardRange, QueueStats> backlog, WorkerPresence... workers) {
        return new ReplicaThroughput.Look(backlog, List.of(workers));
    }

    @Test
    void busyWorkersGiveTheirDeliveriesOverTheirHeartbeatTime() {
        var before = look(Map.of(LOW, due(5_000, false)), worker("a", LOW, 10_000, 1_000), worker("b", LOW, 12_000, 2_000));
        var now = look(Map.of(LOW, due(4_000, false)), worker("a", LOW, 20_000, 1_800), worker("b", LOW, 22_000, 2_600));
        // (800 + 600) tasks over (10 + 10) s
        assertThat(ReplicaThroughput.between(before, now, 50)).hasValue(70.0);
    }

    @Test
    void aRangeThatKeepsUpOrIsPausedDoesNotCount() {
        var before = look(Map.of(LOW, due(3, false), HIGH, due(9_000, true)), worker("a", LOW, 0, 0), worker("b", HIGH, 0, 0));
        var now = look(Map.of(LOW, due(2, false), HIGH, due(9_000, true)), worker("a", LOW, 10_000, 40), worker("b", HIGH, 10_000, 0));
        assertThat(ReplicaThroughput.between(before, now, 50)).as("a trickle, and a paused range").isEmpty();
    }

    @Test
    void aRangeBusyAtOnlyOneLookDoesNotCount() {
        var before = look(Map.of(LOW, due(0, false)), worker("a", LOW, 0, 0));
        var now = look(Map.of(LOW, due(9_000, false)), worker("a", LOW, 10_000, 500));
        assertThat(ReplicaThroughput.between(before, now, 50)).isEmpty();
    }

    @Test
    void newRestartedOrSilentWorkersAndOlderWorkersWithoutACountAreLeftOut() {
        var busy = Map.of(LOW, due(9_000, false));
        var before = look(busy, worker("restarted", LOW, 0, 5_000), worker("old", LOW, 0, -1), worker("silent", LOW, 5_000, 10),
                worker("steady", LOW, 0, 0));
        var now = look(busy, worker("restarted", LOW, 10_000, 20), worker("old", LOW, 10_000, -1), worker("silent", LOW, 5_000, 10),
                worker("new", LOW, 10_000, 900), worker("steady", LOW, 10_000, 300));
        assertThat(ReplicaThroughput.between(before, now, 50)).hasValue(30.0);
    }

    @Test
    void tooShortASpanOrNothingSettledMeasuresNothing() {
        var busy = Map.of(LOW, due(9_000, false));
        assertThat(ReplicaThroughput.between(look(busy, worker("a", LOW, 0, 0)), look(busy, worker("a", LOW, 2_000, 100)), 50)).isEmpty();
        assertThat(ReplicaThroughput.between(look(busy, worker("a", LOW, 0, 7)), look(busy, worker("a", LOW, 10_000, 7)), 50)).isEmpty();
    }
}
