package io.delayq.worker.dispatch;

import io.delayq.task.TaskIdText;
import io.delayq.worker.metrics.WorkerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one log line (and the metrics) for a task dead-lettered because it breaks the protocol, whether
 * the claim script refused its id, score or keys or the worker refused its record: a producer bug to
 * fix, so it is logged even though the task itself is only dead-lettered. (A refused record is settled
 * as a failed attempt too, so the settle's failure line follows this one.)
 */
final class MalformedTasks {
    private static final Logger LOG = LoggerFactory.getLogger(MalformedTasks.class);

    private final String queue;
    private final WorkerMetrics metrics;

    MalformedTasks(String queue, WorkerMetrics metrics) {
        this.queue = queue;
        this.metrics = metrics;
    }

    /** Refused by the claim script: already in the dead-letter set. */
    void refusedByClaim(int shard, String shownId, String reason) {
        metrics.dead();
        metrics.malformed();
        log(shard, shownId, reason);
    }

    /** Refused by the worker; the settle that dead-letters it counts the dead outcome. */
    void refusedRecord(int shard, String id, String reason) {
        metrics.malformed();
        log(shard, TaskIdText.show(id), reason);
    }

    private void log(int shard, String shownId, String reason) {
        LOG.warn("malformed task dead-lettered: queue={} shard={} id=\"{}\": {}", queue, shard, shownId, reason);
    }
}
