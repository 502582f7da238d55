package io.delayq.operator.redis;

import io.delayq.backlog.DueForecast;
import io.delayq.backlog.QueueStats;
import io.delayq.layout.Layout;
import io.delayq.operator.problem.Problem;
import io.delayq.presence.WorkerPresence;
import io.delayq.shard.ShardRange;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One look at a queue in Redis: the backlog and the due forecast of each worker's shard range, the workers alive
 * (the presence registry), the server's safety facts, the shard layout and the protocol its meta hash records (null
 * and 0 when unknown), or the problem that prevented the look.
 */
public record QueueReading(Map<ShardRange, QueueStats> backlog, RedisFacts facts, Problem problem, Layout layout,
                           Map<ShardRange, DueForecast> forecast, List<WorkerPresence> workers, int protocol) {

    public QueueReading {
        forecast = forecast == null ? Map.of() : forecast;
        workers = workers == null ? List.of() : workers;
    }

    public QueueReading(Map<ShardRange, QueueStats> backlog, RedisFacts facts, Problem problem, Layout layout,
                        Map<ShardRange, DueForecast> forecast, List<WorkerPresence> workers) {
        this(backlog, facts, problem, layout, forecast, workers, 0);
    }

    public QueueReading(Map<ShardRange, QueueStats> backlog, RedisFacts facts, Problem problem, Layout layout,
                        Map<ShardRange, DueForecast> forecast) {
        this(backlog, facts, problem, layout, forecast, List.of());
    }

    public QueueReading(Map<ShardRange, QueueStats> backlog, RedisFacts facts, Problem problem, Layout layout) {
        this(backlog, facts, problem, layout, Map.of());
    }

    public QueueReading(Map<ShardRange, QueueStats> backlog, RedisFacts facts, Problem problem) {
        this(backlog, facts, problem, null);
    }

    public static QueueReading failed(Problem problem) {
        return new QueueReading(Map.of(), null, problem, null);
    }

    public Optional<QueueStats> backlogOf(ShardRange range) {
        return Optional.ofNullable(backlog.get(range));
    }

    public Optional<DueForecast> forecastOf(ShardRange range) {
        return Optional.ofNullable(forecast.get(range));
    }
}
