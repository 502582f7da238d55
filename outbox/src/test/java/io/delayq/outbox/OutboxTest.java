package io.delayq.outbox;

import io.delayq.InvalidInputException;
import io.delayq.outbox.migration.OutboxMigrations;
import io.delayq.outbox.relay.RelayConfig;
import io.delayq.outbox.testing.PostgresExtension;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.Priority;
import io.delayq.task.TaskSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The outbox API writes rows in the caller's transaction (on a real PostgreSQL); the migrations apply once. */
class OutboxTest {
    @RegisterExtension
    static PostgresExtension pg = new PostgresExtension();

    private final Outbox orders = Outbox.forQueue("orders");

    @Test
    void rowsAreWrittenInTheCallersTransactionAndSeenByOthersOnlyAfterItsCommit() throws Exception {
        Instant due = Instant.parse("2100-01-01T00:00:00Z");
        try (Connection db = pg.connect()) {
            db.setAutoCommit(false);
            orders.enqueue(db, TaskSpec.of("order-1-timeout").at(due).payload("{\"order\":1}").priority(Priority.HIGH)
                    .maxAttempts(3), DuplicatePolicy.KEEP_EARLIER);
            orders.reschedule(db, "order-2-timeout", Duration.ofMinutes(30));
            orders.cancel(db, "order-3-timeout");
            assertThat(pg.count("SELECT count(*) FROM delayq_outbox")).as("not committed yet").isZero();
            db.commit();
        }
        try (Connection db = pg.connect(); Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT op, queue, task_id, due_at, payload, priority, dedup, options, "
                     + "extract(epoch FROM due_at - created_at) FROM delayq_outbox ORDER BY seq")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("enqueue");
            assertThat(rs.getString(2)).isEqualTo("orders");
            assertThat(rs.getString(3)).isEqualTo("order-1-timeout");
            assertThat(rs.getTimestamp(4).toInstant()).isEqualTo(due);
            assertThat(rs.getString(5)).isEqualTo("{\"order\":1}");
            assertThat(rs.getInt(6)).isEqualTo(Priority.HIGH);
            assertThat(rs.getString(7)).isEqualTo("keep-earlier");
            assertThat(rs.getString(8)).isEqualTo("{\"maxAttempts\":3}");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("reschedule");
            assertThat(rs.getDouble(9)).as("a delay counts from the transaction's now()").isCloseTo(1800, org.assertj.core.data.Offset.offset(1.0));
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("cancel");
            assertThat(rs.getTimestamp(4)).as("a cancel has no due time").isNull();
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void aRolledBackTransactionLeavesNoRow() throws Exception {
        try (Connection db = pg.connect()) {
            db.setAutoCommit(false);
            orders.enqueue(db, TaskSpec.of("order-9-timeout").after(Duration.ofMinutes(30)));
            db.rollback();
        }
        assertThat(pg.count("SELECT count(*) FROM delayq_outbox")).isZero();
    }

    @Test
    void badInputIsRefusedBeforeAnythingIsWritten() throws Exception {
        assertThatThrownBy(() -> Outbox.forQueue("no spaces allowed")).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("queue");
        try (Connection db = pg.connect()) {
            assertThatThrownBy(() -> orders.cancel(db, "")).isInstanceOf(InvalidInputException.class).hasMessageStartingWith("id:");
            assertThatThrownBy(() -> orders.enqueue(db, TaskSpec.of("x").expiresAt(Instant.now().minus(1, ChronoUnit.HOURS))))
                    .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("expiresAt");
        }
        assertThat(pg.count("SELECT count(*) FROM delayq_outbox")).isZero();
    }

    @Test
    void migrationsApplyOnceAndAreRecorded() throws Exception {
        try (Connection db = pg.connect()) {
            assertThat(OutboxMigrations.migrate(db)).as("applied when the class started").isEmpty();
        }
        assertThat(pg.count("SELECT max(version) FROM delayq_outbox_migrations")).isEqualTo(1);
    }

    @Test
    void relayConfigNamesTheBadSetting() {
        assertThatThrownBy(() -> RelayConfig.builder().jdbcUrl("jdbc:mysql://x/db").redisUrl("redis://x").build())
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("jdbcUrl: must be a PostgreSQL JDBC URL");
        assertThatThrownBy(() -> RelayConfig.builder().jdbcUrl("jdbc:postgresql://x/db").build())
                .hasMessageStartingWith("redisUrl:");
        assertThatThrownBy(() -> RelayConfig.builder().jdbcUrl("jdbc:postgresql://x/db").redisUrl("redis://x").batchSize(0).build())
                .hasMessage("batchSize: must be 1 to 10000 rows, got 0");
        assertThatThrownBy(() -> RelayConfig.builder().jdbcUrl("jdbc:postgresql://x/db").redisUrl("redis://x")
                .pollInterval(Duration.ZERO).build()).hasMessageStartingWith("pollInterval:");
    }
}
