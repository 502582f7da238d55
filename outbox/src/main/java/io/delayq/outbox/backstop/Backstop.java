package io.delayq.outbox.backstop;

import io.delayq.client.DelayQueueClient;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The database as the backstop: runs the application's {@link BackstopQuery} and enqueues every task it names that
 * Redis lacks (REJECT, so a task that exists is left alone and running it again changes nothing). A task still
 * waiting in the outbox is not missing and is skipped. Each task it had to add is counted in
 * {@code delayq_outbox_backstop_repaired_total{queue}} and named in a log line: a non-zero count means the primary
 * path lost a task (or something deleted it behind the system's back).
 */
public final class Backstop implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Backstop.class);
    /** How many repaired ids one log line names at most. */
    private static final int NAMED_PER_LINE = 20;

    private final BackstopQuery query;
    private final ConnectionSource database;
    private final DelayQueueClient client;
    private final Counter repaired;
    private final Counter failures;
    private ScheduledExecutorService timer;

    /**
     * @param database opens a connection per run (closed after it)
     * @param client   the producer client of {@code query.queue()}
     */
    public Backstop(BackstopQuery query, ConnectionSource database, DelayQueueClient client, MeterRegistry registry) {
        if (!client.protocol().queue().equals(query.queue())) {
            throw new IllegalArgumentException("the client is for queue '" + client.protocol().queue() + "', the query for '" + query.queue() + "'");
        }
        this.query = query;
        this.database = database;
        this.client = client;
        this.repaired = Counter.builder("delayq.outbox.backstop.repaired")
                .description("Tasks the backstop query named that Redis did not have, added by the backstop")
                .tag("queue", query.queue()).register(registry);
        this.failures = Counter.builder("delayq.outbox.backstop.failures").description("Backstop runs that failed")
                .tag("queue", query.queue()).register(registry);
    }

    /** Runs every {@code query.interval()} on a thread of its own, the first run after one interval. */
    public synchronized Backstop start() {
        if (timer == null) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "delayq-outbox-backstop");
                t.setDaemon(true);
                return t;
            });
            long every = query.interval().toMillis();
            timer.scheduleWithFixedDelay(this::runQuietly, every, every, TimeUnit.MILLISECONDS);
        }
        return this;
    }

    private void runQuietly() {
        try {
            runOnce();
        } catch (SQLException | RuntimeException e) {
            failures.increment();
            log.warn("outbox backstop of queue '{}' failed, tried again in {}: {}", query.queue(), query.interval(), e.getMessage());
        }
    }

    /** One run; returns the ids it had to add. */
    public List<String> runOnce() throws SQLException {
        List<TaskSpec> should = new ArrayList<>();
        try (Connection db = database.open()) {
            Set<String> pending = pendingInOutbox(db);
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(query.sql())) {
                boolean hasPayload = hasColumn(rs.getMetaData(), "payload");
                while (rs.next()) {
                    String id = rs.getString("task_id");
                    if (pending.contains(id)) {
                        continue;
                    }
                    Timestamp due = rs.getTimestamp("due_at");
                    TaskSpec task = TaskSpec.of(id);
                    task = due == null ? task : task.at(due.toInstant());
                    should.add(hasPayload ? task.payload(rs.getString("payload")) : task);
                }
            }
        }
        List<String> added = new ArrayList<>();
        if (!should.isEmpty()) {
            for (EnqueueResult r : client.enqueueAll(should, DuplicatePolicy.REJECT)) {
                if (r.added()) {
                    added.add(r.id());
                }
            }
        }
        if (!added.isEmpty()) {
            repaired.increment(added.size());
            log.warn("outbox backstop added {} task(s) of queue '{}' that Redis did not have: {}{}", added.size(), query.queue(),
                    String.join(", ", added.subList(0, Math.min(NAMED_PER_LINE, added.size()))),
                    added.size() > NAMED_PER_LINE ? ", …" : "");
        }
        return added;
    }

    private Set<String> pendingInOutbox(Connection db) throws SQLException {
        Set<String> ids = new HashSet<>();
        try (PreparedStatement st = db.prepareStatement("SELECT task_id FROM delayq_outbox WHERE queue = ?")) {
            st.setString(1, query.queue());
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        }
        return ids;
    }

    private static boolean hasColumn(ResultSetMetaData meta, String name) throws SQLException {
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            if (meta.getColumnLabel(i).equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    public double repairedTotal() {
        return repaired.count();
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }
}
