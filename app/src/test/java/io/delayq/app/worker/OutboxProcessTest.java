package io.delayq.app.worker;

import io.delayq.localredis.LocalRedisServer;
import io.delayq.outbox.Outbox;
import io.delayq.outbox.testing.PostgresExtension;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.worker.fleet.Fleet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The packaged {@code delayq} against a real PostgreSQL and a real Redis: a task committed in the outbox with the
 * business row fires in a worker's webhook, the relay running inside that worker ({@code DELAYQ_OUTBOX_URL} on the
 * worker) or as a process of its own ({@code delayq outbox-relay}) beside a worker that knows nothing of the outbox.
 * A row whose transaction rolled back never fires.
 */
class OutboxProcessTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    static PostgresExtension postgres = new PostgresExtension();

    private Map<String, String> outboxEnv(Map<String, String> env) {
        env.put("DELAYQ_OUTBOX_URL", postgres.server().jdbcUrl());
        env.put("DELAYQ_OUTBOX_USER", postgres.server().credentials().getProperty("user"));
        env.put("DELAYQ_OUTBOX_POLL_INTERVAL", "200ms");
        return env;
    }

    private Map<String, String> webhookWorkerEnv(String queue, WebhookReceiver receiver) {
        Map<String, String> env = receiver.workerEnv(redis.url(), queue, 4);
        env.put("DELAYQ_POLL_INTERVAL", "100ms");
        env.put("DELAYQ_HTTP_PORT", "0");
        return env;
    }

    /** One committed order with its task, and one rolled back: only the committed one may fire. */
    private void commitOrderAndRollBackAnother(String queue) throws Exception {
        Outbox outbox = Outbox.forQueue(queue);
        try (Connection db = postgres.connect()) {
            try (Statement st = db.createStatement()) {
                st.execute("CREATE TABLE IF NOT EXISTS orders (id text PRIMARY KEY)");
                st.execute("TRUNCATE orders");
            }
            db.setAutoCommit(false);
            try (Statement st = db.createStatement()) {
                st.execute("INSERT INTO orders VALUES ('order-rolled-back')");
            }
            outbox.enqueue(db, TaskSpec.of("order-rolled-back").payload("never"));
            db.rollback();
            try (Statement st = db.createStatement()) {
                st.execute("INSERT INTO orders VALUES ('order-1')");
            }
            outbox.enqueue(db, TaskSpec.of("order-1").payload("expire").after(Duration.ofMillis(300)));
            db.commit();
        }
    }

    @Test
    void aCommittedRowFiresInTheWorkerThatRunsTheRelay() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver(0);
             WorkerProcess worker = WorkerProcess.start(outboxEnv(webhookWorkerEnv("in-worker", receiver)))) {
            commitOrderAndRollBackAnother("in-worker");
            await().atMost(Duration.ofSeconds(60)).until(() -> receiver.countById.containsKey("order-1"));
            assertThat(receiver.deliveries).extracting(Fleet.Delivered::id).containsExactly("order-1");
            assertThat(worker.terminate()).as("graceful exit code").isZero();
            assertThat(outboxRows()).isZero();
        }
    }

    @Test
    void aCommittedRowFiresThroughTheRelayProcessInAWorkerWithoutOutboxSettings() throws Exception {
        int relayPort = LocalRedisServer.freePort();
        Map<String, String> relayEnv = outboxEnv(Fleet.env(redis.url(), "by-relay", 4));
        relayEnv.put("DELAYQ_HTTP_PORT", String.valueOf(relayPort));
        try (WebhookReceiver receiver = new WebhookReceiver(0);
             WorkerProcess relay = WorkerProcess.start(relayEnv, List.of("outbox-relay"));
             WorkerProcess worker = WorkerProcess.start(webhookWorkerEnv("by-relay", receiver))) {
            await().atMost(Duration.ofSeconds(60)).until(() -> get(relayPort, "/readyz") == 200);
            assertThat(get(relayPort, "/healthz")).isEqualTo(200);
            commitOrderAndRollBackAnother("by-relay");
            await().atMost(Duration.ofSeconds(60)).until(() -> receiver.countById.containsKey("order-1"));
            assertThat(receiver.deliveries).extracting(Fleet.Delivered::id).containsExactly("order-1");
            assertThat(body(relayPort, "/metrics")).contains("delayq_outbox_relayed_total{op=\"enqueue\",result=\"added\"} 1.0");
            assertThat(outboxRows()).isZero();
            assertThat(relay.terminate()).as("the relay's graceful exit code").isZero();
            assertThat(worker.terminate()).as("the worker's graceful exit code").isZero();
            assertThat(relay.output()).doesNotContain("Exception");
        }
    }

    @Test
    void theRelayProcessNamesAMissingVariable() throws Exception {
        try (WorkerProcess relay = WorkerProcess.start(Fleet.env(redis.url(), "no-outbox", 4), List.of("outbox-relay"))) {
            assertThat(relay.waitFor(Duration.ofSeconds(60))).isEqualTo(2);
            assertThat(relay.output()).contains("delayq outbox-relay: invalid configuration: DELAYQ_OUTBOX_URL: is required");
        }
    }

    private static long outboxRows() throws Exception {
        try (Connection db = postgres.connect(); Statement st = db.createStatement();
             var rs = st.executeQuery("SELECT count(*) FROM delayq_outbox")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static int get(int port, String path) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private static String body(int port, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
