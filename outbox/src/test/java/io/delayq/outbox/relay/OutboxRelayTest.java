package io.delayq.outbox.relay;

import io.delayq.outbox.Outbox;
import io.delayq.outbox.testing.PostgresExtension;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The relay between a real PostgreSQL and a real Redis, with a real worker where the test is about firing:
 * rows reach Redis only when committed, once each, whatever dies in between.
 */
class OutboxRelayTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    static PostgresExtension pg = new PostgresExtension();

    private final TestQueue queue = TestQueue.eachTest(redis, "orders", 2);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);
    @RegisterExtension
    final RunningRelays relays = new RunningRelays(pg, redis);

    private final Outbox orders = Outbox.forQueue("orders");
    private final List<String> fired = Collections.synchronizedList(new ArrayList<>());

    private void startWorker() {
        workers.startHandler(RunningWorkers.env(redis.url(), "orders", 2), task -> fired.add(task.id()));
    }

    private long firings(String id) {
        synchronized (fired) {
            return fired.stream().filter(id::equals).count();
        }
    }

    private void commit(TaskSpec task) throws SQLException {
        try (Connection db = pg.connect()) {
            db.setAutoCommit(false);
            orders.enqueue(db, task);
            db.commit();
        }
    }

    private TaskInfo.State state(String id) {
        return queue.client().inspect(id).state();
    }

    private long outboxRows() throws SQLException {
        return pg.count("SELECT count(*) FROM delayq_outbox");
    }

    @Test
    void aRolledBackTransactionNeverReachesRedis() throws Exception {
        startWorker();
        relays.start();
        try (Connection db = pg.connect()) {
            db.setAutoCommit(false);
            orders.enqueue(db, TaskSpec.of("order-1-timeout"));
            db.rollback();
            orders.enqueue(db, TaskSpec.of("order-2-timeout"));
            db.commit();
        }
        await().atMost(WAIT).until(() -> firings("order-2-timeout") == 1);
        assertThat(fired).doesNotContain("order-1-timeout");
        assertThat(state("order-1-timeout")).isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(outboxRows()).isZero();
    }

    @Test
    void theTimeoutIsScheduledWithTheOrderAndCancelledWithThePayment() throws Exception {
        pg.execute("CREATE TABLE IF NOT EXISTS orders (id int PRIMARY KEY, status text NOT NULL)");
        pg.execute("TRUNCATE orders");
        OutboxRelay relay = relays.start();
        startWorker();
        for (int order : new int[]{1, 2}) {
            try (Connection db = pg.connect()) {
                db.setAutoCommit(false);
                try (PreparedStatement st = db.prepareStatement("INSERT INTO orders VALUES (?, 'unpaid')")) {
                    st.setInt(1, order);
                    st.executeUpdate();
                }
                orders.enqueue(db, TaskSpec.of("order-" + order + "-timeout").after(Duration.ofMillis(1500 + 500L * order))
                        .payload(String.valueOf(order)));
                db.commit();
            }
        }
        // the payment of order 1: its status and the cancel of its timeout commit together
        try (Connection db = pg.connect()) {
            db.setAutoCommit(false);
            try (Statement st = db.createStatement()) {
                st.executeUpdate("UPDATE orders SET status = 'paid' WHERE id = 1");
            }
            orders.cancel(db, "order-1-timeout");
            db.commit();
        }
        await().atMost(WAIT).until(() -> firings("order-2-timeout") == 1);
        assertThat(fired).as("the paid order's timeout was due earlier and was cancelled").doesNotContain("order-1-timeout");
        await().atMost(WAIT).untilAsserted(() -> assertThat(relay.metrics().relayed("cancel", "cancelled")).isEqualTo(1));
        await().atMost(WAIT).untilAsserted(() -> assertThat(relay.metrics().relayed("enqueue", "added")).isEqualTo(2));
        assertThat(outboxRows()).isZero();
    }

    @Test
    void aRelayThatDiesBeforeCopyingLeavesTheRowToTheNextRelayAndTheTaskFiresOnce() throws Exception {
        startWorker();
        AbandonedRelay dying = new AbandonedRelay(AbandonedRelay.Point.AFTER_CLAIM);
        try {
            relays.start(relays.config().build(), dying);
            commit(TaskSpec.of("order-7-timeout"));
            await().atMost(WAIT).until(dying::died);
            assertThat(state("order-7-timeout")).isEqualTo(TaskInfo.State.UNKNOWN);
            assertThat(outboxRows()).as("the dead relay's transaction rolled back").isEqualTo(1);

            OutboxRelay next = relays.start();
            await().atMost(WAIT).until(() -> firings("order-7-timeout") == 1);
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> firings("order-7-timeout") == 1);
            await().atMost(WAIT).untilAsserted(() -> assertThat(next.metrics().relayed("enqueue", "added")).isEqualTo(1));
            assertThat(outboxRows()).isZero();
        } finally {
            dying.release();
        }
    }

    @Test
    void aRelayThatDiesAfterRedisHasTheTaskAndBeforeTheDeleteCausesOneFiring() throws Exception {
        AbandonedRelay dying = new AbandonedRelay(AbandonedRelay.Point.AFTER_REDIS);
        try {
            relays.start(relays.config().build(), dying);
            commit(TaskSpec.of("order-8-timeout").after(Duration.ofSeconds(2)));
            await().atMost(WAIT).until(dying::died);
            assertThat(state("order-8-timeout")).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(outboxRows()).as("the row was not deleted").isEqualTo(1);

            OutboxRelay next = relays.start();
            await().atMost(WAIT).until(() -> outboxRows() == 0);
            await().atMost(WAIT).untilAsserted(() -> assertThat(next.metrics().relayed("enqueue", "duplicate")).as("the second copy is refused by the id").isEqualTo(1));
            // the worker starts once both copies were made, so the first cannot have fired before the second came
            startWorker();
            await().atMost(WAIT).until(() -> firings("order-8-timeout") == 1);
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> firings("order-8-timeout") == 1);
        } finally {
            dying.release();
        }
    }

    @Test
    void rowsWaitWhileRedisIsDownAndAllArriveWhenItIsBack() throws Exception {
        OutboxRelay relay = relays.start();
        await().atMost(WAIT).until(relay::listening);
        Instant due = Instant.parse("2100-01-01T00:00:00Z");
        redis.server().pause();
        try {
            try (Connection db = pg.connect()) {
                db.setAutoCommit(false);
                for (int i = 0; i < 20; i++) {
                    orders.enqueue(db, TaskSpec.of("order-" + i + "-timeout").at(due));
                }
                db.commit();
            }
            await().atMost(WAIT).until(() -> relay.metrics().errors("redis") > 0 && relay.metrics().pending() == 20);
            assertThat(outboxRows()).isEqualTo(20);
        } finally {
            redis.server().resume();
        }
        await().atMost(WAIT).until(() -> outboxRows() == 0);
        for (int i = 0; i < 20; i++) {
            assertThat(state("order-" + i + "-timeout")).isEqualTo(TaskInfo.State.SCHEDULED);
        }
        await().atMost(WAIT).until(() -> relay.metrics().pending() == 0);
        assertThat(pg.count("SELECT count(*) FROM delayq_outbox_quarantine")).isZero();
    }

    @Test
    void aPostgresqlRestartMidRelayLosesNothing() throws Exception {
        Instant due = Instant.parse("2100-01-01T00:00:00Z");
        OutboxRelay relay = relays.start();
        commit(TaskSpec.of("before-restart").at(due));
        await().atMost(WAIT).until(() -> state("before-restart") == TaskInfo.State.SCHEDULED);

        pg.server().restart();
        commit(TaskSpec.of("after-restart").at(due));
        await().atMost(WAIT).until(() -> state("after-restart") == TaskInfo.State.SCHEDULED);
        assertThat(relay.metrics().errors("database")).as("the relay noticed its session was cut and opened a new one").isPositive();
        // the relay counts a row once Redis answered it, a moment after the task shows in Redis
        await().atMost(WAIT).untilAsserted(() -> assertThat(relay.metrics().relayed("enqueue", "added")).isEqualTo(2));
        await().atMost(WAIT).until(() -> outboxRows() == 0);
    }

    @Test
    void twoRelaysAtOnceApplyEachRowOnceAndKeepEachTaskInOrder() throws Exception {
        Instant due = Instant.parse("2100-01-01T00:00:00Z");
        try (Connection db = pg.connect()) {
            db.setAutoCommit(false);
            for (int i = 0; i < 500; i++) {
                orders.enqueue(db, TaskSpec.of("t-" + i).at(due));
            }
            db.commit();
            // a later transaction cancels the first 100: a cancel must never overtake its enqueue in another relay
            for (int i = 0; i < 100; i++) {
                orders.cancel(db, "t-" + i);
            }
            db.commit();
        }
        RelayConfig config = relays.config().batchSize(20).build();
        OutboxRelay a = relays.start(config, RelayHook.NONE);
        OutboxRelay b = relays.start(config, RelayHook.NONE);
        await().atMost(WAIT).until(() -> outboxRows() == 0);
        await().atMost(WAIT).until(() -> a.metrics().relayedTotal() + b.metrics().relayedTotal() == 600);
        assertThat(a.metrics().relayed("enqueue", "added") + b.metrics().relayed("enqueue", "added")).isEqualTo(500);
        assertThat(a.metrics().relayed("cancel", "cancelled") + b.metrics().relayed("cancel", "cancelled")).isEqualTo(100);
        assertThat(a.metrics().relayed("enqueue", "duplicate") + b.metrics().relayed("enqueue", "duplicate")).isZero();
        for (int i = 0; i < 500; i++) {
            assertThat(state("t-" + i)).as("t-" + i).isEqualTo(i < 100 ? TaskInfo.State.UNKNOWN : TaskInfo.State.SCHEDULED);
        }
    }

    @Test
    void aCommitWakesTheRelayThroughNotifyWithoutWaitingForThePoll() throws Exception {
        OutboxRelay relay = relays.start(relays.config().pollInterval(Duration.ofHours(1)).build(), RelayHook.NONE);
        await().atMost(WAIT).until(relay::listening);
        await().atMost(WAIT).until(() -> relay.metrics().pending() == 0 && pg.count(
                "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'") == 1);
        commit(TaskSpec.of("order-5-timeout").after(Duration.ofHours(1)));
        await().atMost(WAIT).until(() -> state("order-5-timeout") == TaskInfo.State.SCHEDULED);
    }

    @Test
    void everyRowOfABatchGetsItsOwnAnswerFromRedisWhateverItsDuplicatePolicy() throws Exception {
        queue.client().enqueue(TaskSpec.of("t-1").after(Duration.ofHours(2)));
        queue.client().enqueue(TaskSpec.of("t-2").after(Duration.ofHours(2)));
        try (Connection db = pg.connect()) {
            db.setAutoCommit(false);
            orders.enqueue(db, TaskSpec.of("t-1").after(Duration.ofHours(1)));   // REJECT, and t-1 is there
            orders.enqueue(db, TaskSpec.of("t-2").after(Duration.ofHours(1)), DuplicatePolicy.REPLACE);
            orders.enqueue(db, TaskSpec.of("t-3").after(Duration.ofHours(1)), DuplicatePolicy.REPLACE);
            orders.enqueue(db, TaskSpec.of("t-4").after(Duration.ofHours(1)));
            db.commit();
        }
        OutboxRelay relay = relays.start();

        await().atMost(WAIT).until(() -> outboxRows() == 0);
        await().atMost(WAIT).untilAsserted(() -> assertThat(relay.metrics().relayed("enqueue", "duplicate")).isEqualTo(1));
        await().atMost(WAIT).untilAsserted(() -> assertThat(relay.metrics().relayed("enqueue", "replaced")).isEqualTo(1));
        await().atMost(WAIT).untilAsserted(() -> assertThat(relay.metrics().relayed("enqueue", "added")).isEqualTo(2));
        Instant inAnHour = Instant.now().plus(Duration.ofHours(1));
        assertThat(Instant.ofEpochMilli(queue.client().inspect("t-1").score())).isAfter(inAnHour.plus(Duration.ofMinutes(30)));
        assertThat(Instant.ofEpochMilli(queue.client().inspect("t-2").score())).isBefore(inAnHour.plus(Duration.ofMinutes(1)));
    }

    @Test
    void malformedRowsAreQuarantinedWithTheReasonAndDoNotHoldUpTheRowsBehindThem() throws Exception {
        // rows as a service in another language writes them with plain SQL (docs/outbox.md)
        pg.execute("INSERT INTO delayq_outbox (op, queue, task_id, due_at, payload, dedup) VALUES "
                + "('enqueue', 'orders', 'bad-dedup', now(), 'x', 'sometimes')");
        pg.execute("INSERT INTO delayq_outbox (op, queue, task_id, due_at, options) VALUES "
                + "('enqueue', 'orders', 'bad-options', now(), '{\"maxAttempts\":0}')");
        pg.execute("INSERT INTO delayq_outbox (op, queue, task_id, due_at, payload) VALUES "
                + "('enqueue', 'orders', 'too-big', now(), repeat('x', 100))");
        pg.execute("INSERT INTO delayq_outbox (op, queue, task_id, due_at) VALUES "
                + "('enqueue', 'orders', 'too-late', '10000-01-01T00:00:00Z')");
        pg.execute("INSERT INTO delayq_outbox (op, queue, task_id, due_at) VALUES "
                + "('enqueue', 'no such queue', 'bad-queue', now())");
        pg.execute("INSERT INTO delayq_outbox (op, queue, task_id, due_at, payload) VALUES "
                + "('enqueue', 'orders', 'order-3-timeout', now() + interval '30 minutes', '{\"order\":3}')");
        OutboxRelay relay = relays.start(relays.config().maxPayloadBytes(50).build(), RelayHook.NONE);

        await().atMost(WAIT).until(() -> outboxRows() == 0);
        assertThat(state("order-3-timeout")).isEqualTo(TaskInfo.State.SCHEDULED);
        await().atMost(WAIT).untilAsserted(() -> assertThat(relay.metrics().quarantinedTotal()).isEqualTo(5));
        List<String> reasons = new ArrayList<>();
        try (Connection db = pg.connect(); Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT task_id || ' ' || reason FROM delayq_outbox_quarantine ORDER BY seq")) {
            while (rs.next()) {
                reasons.add(rs.getString(1));
            }
        }
        assertThat(reasons).hasSize(5);
        assertThat(reasons.get(0)).startsWith("bad-dedup dedup: must be reject, replace, keep-earlier, future-only or once");
        assertThat(reasons.get(1)).startsWith("bad-options options:").contains("maxAttempts");
        assertThat(reasons.get(2)).startsWith("too-big payload: must be at most 50 bytes");
        assertThat(reasons.get(3)).startsWith("too-late dueAt: must be between");
        assertThat(reasons.get(4)).startsWith("bad-queue queue: must be a lower-case DNS label");
    }
}
