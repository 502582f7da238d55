package io.delayq.interop;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.handler.Task;
import io.delayq.localpostgres.LocalPostgres;
import io.delayq.outbox.Outbox;
import io.delayq.outbox.relay.OutboxRelay;
import io.delayq.outbox.relay.RelayConfig;
import io.delayq.outbox.testing.PostgresExtension;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static io.delayq.interop.Ops.op;
import static io.delayq.interop.Ops.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The outbox helpers of the Python and Node libraries against the Java side on a real PostgreSQL and a real Redis:
 * the same transactions written through them and through the Java library give the same rows, and the Java
 * relay copies both into Redis, where a Java worker fires them (or they stay cancelled) alike. A rolled-back
 * transaction reaches neither the business table nor Redis.
 */
class OutboxInteropTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    static PostgresExtension pg = new PostgresExtension();

    private static final int SHARDS = 4;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String ROWS = "SELECT op, task_id, payload, priority, dedup, options, "
            // an absolute due time as it is; a delay as the distance from the transaction's now() (created_at)
            + "CASE WHEN task_id LIKE 'at-%' THEN (extract(epoch FROM due_at) * 1000)::bigint "
            + "ELSE (extract(epoch FROM due_at - created_at) * 1000)::bigint END AS due "
            + "FROM delayq_outbox WHERE queue = ? ORDER BY seq";

    private final List<AutoCloseable> open = new ArrayList<>();

    static List<Producer> producers() {
        return List.of(Producer.python(), Producer.node());
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T track(T c) {
        open.add(c);
        return c;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void rowsFromTheLibraryAreRelayedAndFireAsTheJavaLibrarysRowsDo(Producer p) throws Exception {
        pg.execute("DROP TABLE IF EXISTS interop_orders");
        String javaQueue = "outbox-java-" + p.name();
        String libQueue = "outbox-" + p.name();
        track(TestQueue.open(redis.url(), javaQueue, SHARDS));
        TestQueue lib = track(TestQueue.open(redis.url(), libQueue, SHARDS));
        ProducerProcess producer = outboxProducer(p, libQueue);

        long at = System.currentTimeMillis() + 1500;
        long expires = System.currentTimeMillis() + 3_600_000;
        List<Map<String, Object>> order = List.of(
                row("enqueue", "order-1-timeout", "delayMs", 300, "payload", "{\"action\":\"cancel-if-unpaid\"}",
                        "dedup", "once", "maxAttempts", 3),
                row("enqueue", "at-report-2", "dueAt", at, "payload", "привет — ünïcödé ✓", "priority", 2),
                row("enqueue", "tenant-3", "delayMs", 200, "group", "tenant-42", "expiresAt", expires, "backoffMs", 2000,
                        "backoffMultiplier", 3),
                row("enqueue", "order-4-timeout", "delayMs", 60_000),
                row("enqueue", "order-5-timeout", "delayMs", 60_000, "dedup", "keep-earlier"));
        List<Map<String, Object>> abandoned = List.of(row("enqueue", "rolled-back-6"));
        List<Map<String, Object>> payment = List.of(
                row("cancel", "order-4-timeout"),
                row("reschedule", "order-5-timeout", "delayMs", 400));

        for (var tx : List.of(Map.entry(order, true), Map.entry(abandoned, false), Map.entry(payment, true))) {
            javaTransaction(javaQueue, tx.getKey(), tx.getValue());
            producer.ok(op("outbox", "queue", libQueue, "rows", tx.getKey(), "commit", tx.getValue()));
        }
        List<Map<String, Object>> javaRows = rows(javaQueue);
        assertThat(javaRows).hasSize(7);
        assertThat(rows(libQueue)).as("the rows %s wrote", p).containsExactlyElementsOf(javaRows);
        assertThat(businessRows()).as("the business rows committed with the outbox rows")
                .containsExactlyInAnyOrder("order-1-timeout", "at-report-2", "tenant-3", "order-4-timeout", "order-5-timeout");

        Map<String, Task> firedJava = worker(javaQueue);
        Map<String, Task> firedLib = worker(libQueue);
        OutboxRelay relay = track(OutboxRelay.start(RelayConfig.builder().jdbcUrl(pg.server().jdbcUrl()).user(LocalPostgres.USER)
                .redisUrl(redis.url()).pollInterval(Duration.ofMillis(200)).retryDelay(Duration.ofMillis(100)).build(),
                new SimpleMeterRegistry()));

        Set<String> fire = Set.of("order-1-timeout", "at-report-2", "tenant-3", "order-5-timeout");
        await().atMost(WAIT).until(() -> firedJava.keySet().equals(fire) && firedLib.keySet().equals(fire));
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                .until(() -> firedJava.size() == fire.size() && firedLib.size() == fire.size());
        for (String id : fire) {
            Task j = firedJava.get(id);
            Task l = firedLib.get(id);
            assertThat(l.payload()).as("payload of %s", id).isEqualTo(j.payload());
            assertThat(l.priority()).as("priority of %s", id).isEqualTo(j.priority());
            assertThat(l.attempt()).isEqualTo(1);
            assertThat(l.shard()).isEqualTo(lib.shardOf(id));
        }
        assertThat(firedLib.get("at-report-2").dueAt()).isEqualTo(at);
        assertThat(firedLib.get("at-report-2").payload()).isEqualTo("привет — ünïcödé ✓");
        assertThat(lib.client().inspect("order-4-timeout").state()).as("cancelled in the payment's transaction")
                .isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(lib.client().inspect("rolled-back-6").state()).isEqualTo(TaskInfo.State.UNKNOWN);
        await().atMost(WAIT).until(() -> pg.count("SELECT count(*) FROM delayq_outbox") == 0);
        assertThat(relay.metrics().relayed("enqueue", "added")).isEqualTo(10);
        assertThat(relay.metrics().relayed("cancel", "cancelled")).isEqualTo(2);
        assertThat(relay.metrics().relayed("reschedule", "rescheduled")).isEqualTo(2);
        assertThat(pg.count("SELECT count(*) FROM delayq_outbox_quarantine")).as("no row broke a rule").isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void badInputIsRefusedWithTheJavaLibrarysFieldAndNothingIsWritten(Producer p) throws Exception {
        String queue = "outbox-bad-" + p.name();
        ProducerProcess producer = outboxProducer(p, queue);
        JsonNode answer = producer.call(op("outbox", "queue", queue, "rows", List.of(
                row("enqueue", "fine-1"),
                row("enqueue", "fine-2", "dedup", "sometimes"))));
        assertThat(answer.path("error").path("type").asText()).isEqualTo("InvalidInputException");
        assertThat(answer.path("error").path("message").asText())
                .isEqualTo("dedup: must be reject, replace, keep-earlier, future-only or once, got 'sometimes'");
        answer = producer.call(op("outbox", "queue", queue, "rows", List.of(row("cancel", "x".repeat(257)))));
        assertThat(answer.path("error").path("message").asText()).isEqualTo("id: must be at most 256 bytes of UTF-8, got 257");
        assertThat(pg.count("SELECT count(*) FROM delayq_outbox")).as("the failed transactions wrote nothing").isZero();
    }

    /** The library connected to Redis and to the class's PostgreSQL; skipped (failed under CI) without its database driver. */
    private ProducerProcess outboxProducer(Producer p, String queue) {
        Map<String, Object> postgres = Map.of("host", "127.0.0.1", "port", pg.server().port(), "user", LocalPostgres.USER,
                "database", LocalPostgres.DATABASE);
        String pgModule = Producer.clientsDir().resolve("node/node_modules/pg").toString();
        ProducerProcess producer = track(p.connect(redis.url(), queue, SHARDS, Map.of(),
                Map.of("postgres", postgres, "pgModule", pgModule))).connected();
        JsonNode driver = producer.call(op("outbox-driver"));
        String reason = "the " + p + " library's database driver is not installed (" + driver.path("error").path("message").asText()
                + "): run " + p.install();
        if (driver.has("error") && "true".equals(System.getenv("CI"))) {
            fail(reason + " (CI must run the interop tests)");
        }
        assumeTrue(!driver.has("error"), reason);
        return producer;
    }

    private Map<String, Task> worker(String queue) {
        Map<String, Task> fired = new ConcurrentHashMap<>();
        Map<String, String> env = new HashMap<>(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", queue,
                "DELAYQ_SHARDS", String.valueOf(SHARDS), "DELAYQ_HTTP_PORT", "0", "DELAYQ_LEASE", "5s",
                "DELAYQ_SHUTDOWN_GRACE", "2s"));
        Worker worker = track(Worker.start(WorkerConfig.fromEnv(env), r -> new HandlerDelivery(t -> fired.put(t.id(), t))));
        await().atMost(WAIT).until(worker::ready);
        return fired;
    }

    private static Map<String, Object> row(String action, String id, Object... fields) {
        Map<String, Object> row = task(id, fields);
        row.put("action", action);
        return row;
    }

    /** The same rows through the Java library, in one transaction. */
    private static void javaTransaction(String queue, List<Map<String, Object>> rows, boolean commit) throws SQLException {
        Outbox outbox = Outbox.forQueue(queue);
        try (Connection db = pg.connect()) {
            db.setAutoCommit(false);
            for (Map<String, Object> row : rows) {
                String id = (String) row.get("id");
                switch ((String) row.get("action")) {
                    case "enqueue" -> outbox.enqueue(db, spec(row), policy((String) row.getOrDefault("dedup", "reject")));
                    case "cancel" -> outbox.cancel(db, id);
                    case "reschedule" -> outbox.reschedule(db, id, Duration.ofMillis(((Number) row.get("delayMs")).longValue()));
                    default -> throw new IllegalArgumentException("unknown action " + row.get("action"));
                }
            }
            if (commit) {
                db.commit();
            } else {
                db.rollback();
            }
        }
    }

    private static TaskSpec spec(Map<String, Object> row) {
        TaskSpec t = TaskSpec.of((String) row.get("id"));
        if (row.get("delayMs") instanceof Number n) {
            t = t.after(Duration.ofMillis(n.longValue()));
        }
        if (row.get("dueAt") instanceof Number n) {
            t = t.at(Instant.ofEpochMilli(n.longValue()));
        }
        if (row.get("payload") instanceof String s) {
            t = t.payload(s);
        }
        if (row.get("priority") instanceof Number n) {
            t = t.priority(n.intValue());
        }
        if (row.get("group") instanceof String g) {
            t = t.group(g);
        }
        if (row.get("expiresAt") instanceof Number n) {
            t = t.expiresAt(Instant.ofEpochMilli(n.longValue()));
        }
        if (row.get("maxAttempts") instanceof Number n) {
            t = t.maxAttempts(n.intValue());
        }
        if (row.get("backoffMs") instanceof Number n) {
            // the libraries leave the cap to the worker; Java's backoff() sets all three, so the options are set as they are
            t = t.options(t.options().withRetry(t.options().maxAttempts(), n.longValue(), null,
                    ((Number) row.get("backoffMultiplier")).doubleValue()));
        }
        return t;
    }

    private static DuplicatePolicy policy(String wire) {
        return DuplicatePolicy.valueOf(wire.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    /** The queue's outbox rows in order, every column that travels (seq, queue and created_at aside). */
    private static List<Map<String, Object>> rows(String queue) throws SQLException {
        List<Map<String, Object>> rows = new ArrayList<>();
        try (Connection db = pg.connect(); PreparedStatement st = db.prepareStatement(ROWS)) {
            st.setString(1, queue);
            try (ResultSet rs = st.executeQuery()) {
                ResultSetMetaData meta = rs.getMetaData();
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int c = 1; c <= meta.getColumnCount(); c++) {
                        row.put(meta.getColumnLabel(c), rs.getObject(c));
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    private static List<String> businessRows() throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection db = pg.connect(); PreparedStatement st = db.prepareStatement("SELECT id FROM interop_orders");
             ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }
}
