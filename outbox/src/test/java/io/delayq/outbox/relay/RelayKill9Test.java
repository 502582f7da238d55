package io.delayq.outbox.relay;

import io.delayq.outbox.Outbox;
import io.delayq.outbox.testing.PostgresExtension;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A relay process killed with SIGKILL at the two points that matter (rows claimed, nothing in Redis; Redis has
 * the task, the rows not deleted): a new relay takes over and a real worker fires the task once.
 */
class RelayKill9Test {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    static PostgresExtension pg = new PostgresExtension();

    private final TestQueue queue = TestQueue.eachTest(redis, "orders", 2);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);
    @RegisterExtension
    final RunningRelays relays = new RunningRelays(pg, redis);

    @TempDir
    Path dir;

    private final List<String> fired = Collections.synchronizedList(new ArrayList<>());

    private long firings(String id) {
        synchronized (fired) {
            return fired.stream().filter(id::equals).count();
        }
    }

    private Process relayProcess(String stop, Path marker) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return new ProcessBuilder(java, "-Xmx128m", "-cp", classPath, RelayMain.class.getName(),
                pg.server().jdbcUrl(), redis.url(), stop, marker.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("relay.log").toFile()).start();
    }

    private void commit(TaskSpec task) throws SQLException {
        try (Connection db = pg.connect()) {
            db.setAutoCommit(false);
            Outbox.forQueue("orders").enqueue(db, task);
            db.commit();
        }
    }

    private void kill9(Process relay) throws InterruptedException {
        relay.destroyForcibly();
        assertThat(relay.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void killedAfterClaimingAndBeforeCopyingTheTaskArrivesOnceThroughTheNextRelay() throws Exception {
        workers.startHandler(RunningWorkers.env(redis.url(), "orders", 2), task -> fired.add(task.id()));
        Path marker = dir.resolve("stopped");
        Process relay = relayProcess("after-claim", marker);
        try {
            commit(TaskSpec.of("order-7-timeout"));
            await().atMost(WAIT).until(() -> Files.exists(marker));
            kill9(relay);
        } finally {
            relay.destroyForcibly();
        }
        assertThat(queue.client().inspect("order-7-timeout").state()).isEqualTo(TaskInfo.State.UNKNOWN);
        // the server notices the dead session and rolls its transaction back: the row is free again
        await().atMost(WAIT).until(() -> pg.count("SELECT count(*) FROM delayq_outbox o WHERE EXISTS "
                + "(SELECT 1 FROM delayq_outbox p WHERE p.seq = o.seq FOR UPDATE SKIP LOCKED)") == 1);

        OutboxRelay next = relays.start();
        await().atMost(WAIT).until(() -> firings("order-7-timeout") == 1);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> firings("order-7-timeout") == 1);
        assertThat(next.metrics().relayed("enqueue", "added")).isEqualTo(1);
        assertThat(pg.count("SELECT count(*) FROM delayq_outbox")).isZero();
    }

    @Test
    void killedAfterRedisHadTheTaskAndBeforeTheDeleteTheTaskFiresOnce() throws Exception {
        Path marker = dir.resolve("stopped");
        Process relay = relayProcess("after-redis", marker);
        try {
            commit(TaskSpec.of("order-8-timeout").after(Duration.ofSeconds(3)));
            await().atMost(WAIT).until(() -> Files.exists(marker));
            kill9(relay);
        } finally {
            relay.destroyForcibly();
        }
        assertThat(queue.client().inspect("order-8-timeout").state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(pg.count("SELECT count(*) FROM delayq_outbox")).as("the row was not deleted").isEqualTo(1);

        OutboxRelay next = relays.start();
        await().atMost(WAIT).until(() -> pg.count("SELECT count(*) FROM delayq_outbox") == 0);
        assertThat(next.metrics().relayed("enqueue", "duplicate")).as("the second copy is refused by the id").isEqualTo(1);
        // the worker starts once both copies were made, so the first cannot have fired before the second came
        workers.startHandler(RunningWorkers.env(redis.url(), "orders", 2), task -> fired.add(task.id()));
        await().atMost(WAIT).until(() -> firings("order-8-timeout") == 1);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> firings("order-8-timeout") == 1);
    }
}
