package io.delayq.outbox;

import io.delayq.InvalidInputException;
import io.delayq.outbox.row.Operation;
import io.delayq.queue.QueueName;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.Schedule;
import io.delayq.task.TaskId;
import io.delayq.task.TaskRecord;
import io.delayq.task.TaskSpec;
import io.delayq.task.TraceContext;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Task operations of one queue written to the outbox table in the caller's transaction: they reach
 * Redis (through a relay) if and only if that transaction commits.
 * <pre>
 * Outbox orders = Outbox.forQueue("orders");
 * db.setAutoCommit(false);
 * insertOrder(db, order);
 * orders.enqueue(db, TaskSpec.of("order-" + order.id() + "-timeout").after(Duration.ofMinutes(30)));
 * db.commit();
 * </pre>
 * Nothing here commits, rolls back or changes the connection's auto-commit. A delay is turned into a
 * due time by the database ({@code now()} of the transaction), so it counts from the commit's transaction,
 * not from when the relay copies the row.
 */
public final class Outbox {
    private static final String INSERT = "INSERT INTO delayq_outbox (op, queue, task_id, due_at, payload, priority, dedup, options) "
            + "VALUES (?, ?, ?, COALESCE(?, now() + ? * interval '1 millisecond'), ?, ?, ?, ?)";

    private final String queue;

    private Outbox(String queue) {
        this.queue = QueueName.require(queue);
    }

    public static Outbox forQueue(String queue) {
        return new Outbox(queue);
    }

    public String queue() {
        return queue;
    }

    /** Schedules {@code task} when the transaction commits; a task with the same id already in Redis is left alone (REJECT). */
    public void enqueue(Connection connection, TaskSpec task) throws SQLException {
        enqueue(connection, task, DuplicatePolicy.REJECT);
    }

    public void enqueue(Connection connection, TaskSpec task, DuplicatePolicy policy) throws SQLException {
        if (task == null) {
            throw new InvalidInputException("task", "must not be null");
        }
        if (policy == null) {
            throw new InvalidInputException("duplicatePolicy", "must not be null");
        }
        task.requireNotExpired(System.currentTimeMillis());
        TaskSpec traced = task.withTraceIfAbsent(TraceContext.current());
        String options = traced.options().isEmpty() ? null : new TaskRecord(null, null, null, traced.options()).encode();
        insert(connection, Operation.ENQUEUE, traced.id(), traced.schedule(), traced.payload(), traced.priority(), policy, options);
    }

    /** Cancels the task when the transaction commits (after every earlier outbox row of the same id). */
    public void cancel(Connection connection, String id) throws SQLException {
        insert(connection, Operation.CANCEL, TaskId.require(id), null, null, 0, DuplicatePolicy.REJECT, null);
    }

    public void reschedule(Connection connection, String id, Instant dueAt) throws SQLException {
        insert(connection, Operation.RESCHEDULE, TaskId.require(id), Schedule.at(dueAt), null, 0, DuplicatePolicy.REJECT, null);
    }

    public void reschedule(Connection connection, String id, Duration delay) throws SQLException {
        insert(connection, Operation.RESCHEDULE, TaskId.require(id), Schedule.after(delay), null, 0, DuplicatePolicy.REJECT, null);
    }

    private void insert(Connection connection, Operation op, String id, Schedule schedule, String payload, int priority,
                        DuplicatePolicy policy, String options) throws SQLException {
        if (connection == null) {
            throw new InvalidInputException("connection", "must not be null");
        }
        try (PreparedStatement st = connection.prepareStatement(INSERT)) {
            st.setString(1, op.wire());
            st.setString(2, queue);
            st.setString(3, id);
            if (schedule != null && schedule.timing() == Schedule.Timing.AT) {
                st.setObject(4, OffsetDateTime.ofInstant(Instant.ofEpochMilli(schedule.millis()), ZoneOffset.UTC));
            } else {
                st.setNull(4, Types.TIMESTAMP_WITH_TIMEZONE);
            }
            if (schedule == null) {
                st.setNull(5, Types.BIGINT);   // a cancel has no due time
            } else {
                st.setLong(5, schedule.timing() == Schedule.Timing.AT ? 0 : schedule.millis());
            }
            st.setString(6, payload);
            st.setInt(7, priority);
            st.setString(8, policy.wire());
            st.setString(9, options);
            st.executeUpdate();
        }
    }
}
