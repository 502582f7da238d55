package io.delayq.outbox.relay;

import io.delayq.outbox.row.OutboxRow;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Points in a relay round where a test (or a tracer) looks in: after the batch was claimed and before
 * Redis saw it, and after Redis answered for every row (or failed to) and before the rows are deleted. {@code claimant} is the
 * connection whose transaction holds the rows.
 */
public interface RelayHook {
    RelayHook NONE = new RelayHook() {
    };

    default void claimed(Connection claimant, List<OutboxRow> rows) throws SQLException {
    }

    default void appliedToRedis(Connection claimant, List<OutboxRow> rows) throws SQLException {
    }
}
