package io.delayq.outbox.backstop;

import io.delayq.InvalidInputException;
import io.delayq.queue.QueueName;

import java.time.Duration;

/**
 * The application's own statement of which tasks must exist: a SQL query (no parameters) returning one row per
 * task that should be scheduled, with the columns {@code task_id} (text), {@code due_at} (timestamptz, NULL: now)
 * and optionally {@code payload} (text). For order timeouts: the unpaid orders older than 25 minutes, with the
 * id their timeout task has and when it is due. Run every {@code interval} against {@code queue}.
 */
public record BackstopQuery(String queue, String sql, Duration interval) {
    public BackstopQuery {
        QueueName.require(queue);
        if (sql == null || sql.isBlank()) {
            throw new InvalidInputException("backstop.sql", "must be a query returning task_id and due_at (and maybe payload)");
        }
        if (interval == null || interval.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new InvalidInputException("backstop.interval", "must be at least 1s, got " + interval);
        }
    }
}
