package io.delayq.operator.redis;

import io.delayq.backlog.QueueStats;
import io.delayq.layout.Layout;
import io.delayq.operator.problem.Problem;
import io.delayq.shard.ShardRange;

import java.util.Map;
import java.util.Optional;

/**
 * One look at a queue in Redis: the backlog of each worker's shard range, the server's safety
 * facts, the shard layout its meta hash records (null when unknown), or the problem that prevented the look.
 */
public record QueueReading(Map<ShardRange, QueueStats> backlog, RedisFacts facts, Problem problem, Layout layout) {

    public QueueReading(Map<ShardRange, QueueStats> backlog, RedisFacts facts, Problem problem) {
        this(backlog, facts, problem, null);
    }

    public static QueueReading failed(Problem problem) {
        return new QueueReading(Map.of(), null, problem, null);
    }

    public Optional<QueueStats> backlogOf(ShardRange range) {
        return Optional.ofNullable(backlog.get(range));
    }
}
