package io.delayq.outbox.relay;

import io.delayq.outbox.migration.OutboxMigrations;
import io.delayq.outbox.row.OutboxRow;
import io.delayq.redis.RedisEndpoint;
import io.micrometer.core.instrument.MeterRegistry;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Copies committed outbox rows into Redis. A round claims the oldest rows ({@code FOR UPDATE SKIP LOCKED}, so
 * relays running at once take disjoint batches; only the oldest row of each task, so a cancel never overtakes
 * its enqueue), applies them with the producer client, and deletes them in the same transaction only after
 * Redis answered. A relay that dies anywhere before that commit leaves the rows to the next relay; copying a
 * row twice is harmless because the task id is the idempotency key (the row's duplicate policy decides).
 * Between rounds it waits for a NOTIFY on {@code delayq_outbox} or the poll interval, whichever comes first.
 */
public final class OutboxRelay implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);
    static final String CHANNEL = "delayq_outbox";
    private static final long WAIT_SLICE_MS = 250;
    private static final long PENDING_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final String CLAIM = "SELECT seq, op, queue, task_id, due_at, payload, priority, dedup, options, created_at "
            + "FROM delayq_outbox o WHERE NOT EXISTS (SELECT 1 FROM delayq_outbox p "
            + "WHERE p.queue = o.queue AND p.task_id = o.task_id AND p.seq < o.seq) "
            + "ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED";
    private static final String QUARANTINE = "INSERT INTO delayq_outbox_quarantine "
            + "(seq, op, queue, task_id, due_at, payload, priority, dedup, options, created_at, reason) "
            + "SELECT seq, op, queue, task_id, due_at, payload, priority, dedup, options, created_at, ? FROM delayq_outbox WHERE seq = ?";
    private static final String PENDING = "SELECT count(*), coalesce(extract(epoch FROM clock_timestamp() - min(created_at)) * 1000, 0) "
            + "FROM delayq_outbox";

    private final RelayConfig config;
    private final RelayMetrics metrics;
    private final RelayHook hook;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean listening;
    private long pendingReadAt = System.nanoTime() - PENDING_EVERY_NANOS;
    private Connection claimant;
    private Connection listener;
    private RedisEndpoint redis;
    private QueueClients clients;

    private OutboxRelay(RelayConfig config, MeterRegistry registry, RelayHook hook) {
        this.config = config;
        this.metrics = new RelayMetrics(registry);
        this.hook = hook;
        this.thread = new Thread(this::run, "delayq-outbox-relay");
        this.thread.setDaemon(true);
    }

    /** Starts a relay thread; the tables are created or upgraded first if needed. */
    public static OutboxRelay start(RelayConfig config, MeterRegistry registry) {
        return start(config, registry, RelayHook.NONE);
    }

    public static OutboxRelay start(RelayConfig config, MeterRegistry registry, RelayHook hook) {
        OutboxRelay relay = new OutboxRelay(config, registry, hook);
        relay.thread.start();
        return relay;
    }

    public RelayMetrics metrics() {
        return metrics;
    }

    private void run() {
        boolean migrated = false;
        while (running) {
            boolean failed = false;
            int handled = 0;
            try {
                if (!migrated) {
                    OutboxMigrations.migrate(claimant());
                    migrated = true;
                }
                listenQuietly();
                Round round = round();
                handled = round.handled;
                failed = round.failed;
            } catch (SQLException e) {
                failed = true;
                metrics.error("database");
                log.warn("outbox relay: database round failed, rows stay for the next round: {}", e.getMessage());
                closeClaimant();
            } catch (RuntimeException e) {
                failed = true;
                metrics.error("redis");
                log.warn("outbox relay: Redis unavailable, rows stay for the next round: {}", e.getMessage());
                closeRedis();
            }
            // a count of the whole table: once a second while rows stream through, at once when idle or failing
            if (failed || handled == 0 || System.nanoTime() - pendingReadAt >= PENDING_EVERY_NANOS) {
                refreshPendingQuietly();
                pendingReadAt = System.nanoTime();
            }
            if (!running) {
                break;
            }
            if (failed) {
                pause(config.retryDelay().toMillis());
            } else if (handled < config.batchSize()) {
                awaitNotification();
            }
        }
        closeRedis();
        closeClaimant();
        closeListener();
    }

    private record Round(int handled, boolean failed) {
    }

    private Round round() throws SQLException {
        Connection db = claimant();
        try {
            List<OutboxRow> rows = claim(db);
            if (rows.isEmpty()) {
                db.commit();
                return new Round(0, false);
            }
            hook.claimed(db, rows);
            List<RowApplier.Outcome> outcomes = new RowApplier(clients(), config.redisTimeout()).apply(rows);
            hook.appliedToRedis(db, rows);
            List<Long> done = new ArrayList<>();
            boolean failed = false;
            for (RowApplier.Outcome outcome : outcomes) {
                if (outcome instanceof RowApplier.Applied a) {
                    done.add(a.row().seq());
                } else if (outcome instanceof RowApplier.Refused r) {
                    quarantine(db, r.row(), r.reason());
                    done.add(r.row().seq());
                } else if (outcome instanceof RowApplier.Failed f) {
                    failed = true;
                    log.warn("outbox relay: row {} ({} {} of queue '{}') stays: {}", f.row().seq(), f.row().op(), f.row().taskId(),
                            f.row().queue(), f.cause().getMessage());
                }
            }
            delete(db, done);
            db.commit();
            // counted once committed: a row counts as relayed when it left the outbox
            for (RowApplier.Outcome outcome : outcomes) {
                if (outcome instanceof RowApplier.Applied a) {
                    metrics.countRelayed(a.row().op(), a.result());
                } else if (outcome instanceof RowApplier.Refused r) {
                    metrics.quarantined();
                    log.warn("outbox relay: row {} quarantined: {}", r.row().seq(), r.reason());
                }
            }
            if (failed) {
                metrics.error("redis");
                clients.reset();
            }
            return new Round(done.size(), failed);
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(db);
            throw e;
        }
    }

    private List<OutboxRow> claim(Connection db) throws SQLException {
        try (PreparedStatement st = db.prepareStatement(CLAIM)) {
            st.setInt(1, config.batchSize());
            try (ResultSet rs = st.executeQuery()) {
                List<OutboxRow> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(new OutboxRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), instant(rs.getTimestamp(5)),
                            rs.getString(6), rs.getInt(7), rs.getString(8), rs.getString(9), instant(rs.getTimestamp(10))));
                }
                return rows;
            }
        }
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    private static void quarantine(Connection db, OutboxRow row, String reason) throws SQLException {
        try (PreparedStatement st = db.prepareStatement(QUARANTINE)) {
            st.setString(1, reason);
            st.setLong(2, row.seq());
            st.executeUpdate();
        }
    }

    private static void delete(Connection db, List<Long> seqs) throws SQLException {
        if (seqs.isEmpty()) {
            return;
        }
        Array array = db.createArrayOf("bigint", seqs.toArray());
        try (PreparedStatement st = db.prepareStatement("DELETE FROM delayq_outbox WHERE seq = ANY(?)")) {
            st.setArray(1, array);
            st.executeUpdate();
        } finally {
            array.free();
        }
    }

    /** The pending gauges, also (above all) when Redis is down and the rows pile up. */
    private void refreshPendingQuietly() {
        try {
            refreshPending();
        } catch (SQLException e) {
            metrics.error("database");
            closeClaimant();
            log.debug("reading the outbox backlog failed", e);
        }
    }

    private void refreshPending() throws SQLException {
        Connection db = claimant();
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(PENDING)) {
            rs.next();
            metrics.pending(rs.getLong(1), (long) rs.getDouble(2));
        } finally {
            db.commit();
        }
    }

    /** Listens before a round reads, so a row committed during the round wakes the next one. */
    private void listenQuietly() {
        try {
            listener();
        } catch (SQLException e) {
            closeListener();
            log.debug("LISTEN failed; polling until it works", e);
        }
    }

    /** Whether the relay is subscribed to the NOTIFY channel (else it only polls). */
    public boolean listening() {
        return listening;
    }

    /** Waits for a NOTIFY or the poll interval, in short slices so that close() is not held up by a long interval. */
    private void awaitNotification() {
        long deadline = System.nanoTime() + config.pollInterval().toNanos();
        try {
            PGConnection l = listener().unwrap(PGConnection.class);
            while (running) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return;
                }
                PGNotification[] got = l.getNotifications((int) Math.min(left, WAIT_SLICE_MS));
                if (got != null && got.length > 0) {
                    return;
                }
            }
        } catch (SQLException e) {
            closeListener();
            pause(Math.min(config.pollInterval().toMillis(), WAIT_SLICE_MS));
        }
    }

    private Connection claimant() throws SQLException {
        if (claimant == null) {
            claimant = DriverManager.getConnection(config.jdbcUrl(), config.jdbcProperties());
            claimant.setAutoCommit(false);
        }
        return claimant;
    }

    private Connection listener() throws SQLException {
        if (listener == null) {
            Connection c = DriverManager.getConnection(config.jdbcUrl(), config.jdbcProperties());
            try (Statement st = c.createStatement()) {
                st.execute("LISTEN " + CHANNEL);
            }
            listener = c;
            listening = true;
        }
        return listener;
    }

    private QueueClients clients() {
        if (clients == null) {
            redis = RedisEndpoint.connect(config.redisUrl(), null, RedisEndpoint.DEFAULT_COMMAND_TIMEOUT, config.redisTlsCa());
            clients = new QueueClients(redis, config);
        }
        return clients;
    }

    private void closeRedis() {
        if (clients != null) {
            clients.close();
            clients = null;
        }
        if (redis != null) {
            try {
                redis.close();
            } catch (RuntimeException e) {
                log.debug("closing the Redis connection failed", e);
            }
            redis = null;
        }
    }

    private void closeClaimant() {
        if (claimant != null) {
            try {
                claimant.close();
            } catch (SQLException e) {
                log.debug("closing the claim connection failed", e);
            }
            claimant = null;
        }
    }

    private void closeListener() {
        listening = false;
        if (listener != null) {
            try {
                listener.close();
            } catch (SQLException e) {
                log.debug("closing the listen connection failed", e);
            }
            listener = null;
        }
    }

    private static void rollbackQuietly(Connection db) {
        try {
            db.rollback();
        } catch (SQLException e) {
            log.debug("rollback failed (the connection is gone; the server rolled back)", e);
        }
    }

    private void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** Stops after the current round (a batch in flight is finished or, if it cannot be, left to the next relay). */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(WAIT_SLICE_MS + 2 * config.redisTimeout().toMillis() + 5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
