package io.delayq.outbox.backstop;

import io.delayq.outbox.Outbox;
import io.delayq.outbox.testing.PostgresExtension;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The backstop query puts back a timeout task that was lost, and leaves alone what exists or still waits in the outbox. */
class BackstopTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    static PostgresExtension pg = new PostgresExtension();
    @RegisterExtension
    final TestQueue queue = TestQueue.eachTest(redis, "orders", 2);

    /** Unpaid orders placed more than 25 minutes ago must have their timeout task, due 30 minutes after placing. */
    private static final String UNPAID = "SELECT 'order-' || id || '-timeout' AS task_id, placed_at + interval '30 minutes' AS due_at, "
            + "'{\"order\":' || id || '}' AS payload FROM orders WHERE status = 'unpaid' AND placed_at < now() - interval '25 minutes'";

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void orders() throws SQLException {
        pg.execute("CREATE TABLE IF NOT EXISTS orders (id int PRIMARY KEY, status text NOT NULL, placed_at timestamptz NOT NULL)");
        pg.execute("TRUNCATE orders");
        pg.execute("INSERT INTO orders VALUES (1, 'unpaid', now() - interval '26 minutes'), (2, 'paid', now() - interval '26 minutes'), "
                + "(3, 'unpaid', now() - interval '27 minutes'), (4, 'unpaid', now() - interval '28 minutes'), (5, 'unpaid', now())");
    }

    private Backstop backstop() {
        return new Backstop(new BackstopQuery("orders", UNPAID, Duration.ofSeconds(1)), pg::connect, queue.client(), registry);
    }

    @Test
    void aTaskDeletedBehindTheSystemsBackIsPutBackAndCounted() throws Exception {
        Instant due = Instant.now().plus(Duration.ofMinutes(4));
        queue.client().enqueue(TaskSpec.of("order-1-timeout").at(due));
        queue.client().enqueue(TaskSpec.of("order-3-timeout").at(due));
        // order 4's timeout is committed in the outbox and not relayed yet: not missing
        try (Connection db = pg.connect()) {
            Outbox.forQueue("orders").enqueue(db, TaskSpec.of("order-4-timeout").at(due));
        }
        assertThat(queue.client().cancel("order-3-timeout")).as("deleted behind the system's back").isEqualTo(io.delayq.task.CancelResult.CANCELLED);

        try (Backstop backstop = backstop()) {
            assertThat(backstop.runOnce()).containsExactly("order-3-timeout");
            assertThat(backstop.repairedTotal()).isEqualTo(1);
            TaskInfo back = queue.client().inspect("order-3-timeout");
            assertThat(back.state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(queue.client().inspect("order-1-timeout").score()).as("an existing task is left alone").isEqualTo(due.toEpochMilli());
            assertThat(queue.client().inspect("order-4-timeout").state()).isEqualTo(TaskInfo.State.UNKNOWN);
            assertThat(queue.client().inspect("order-2-timeout").state()).as("paid").isEqualTo(TaskInfo.State.UNKNOWN);

            assertThat(backstop.runOnce()).as("a second run finds nothing missing").isEmpty();
            assertThat(backstop.repairedTotal()).isEqualTo(1);
        }
    }

    @Test
    void startedItRunsOnItsInterval() throws Exception {
        try (Backstop backstop = backstop().start()) {
            await().atMost(Duration.ofSeconds(10)).until(() -> queue.client().inspect("order-4-timeout").state() == TaskInfo.State.SCHEDULED);
            await().atMost(Duration.ofSeconds(10)).until(() -> backstop.repairedTotal() == 3);
            assertThat(registry.find("delayq.outbox.backstop.repaired").tag("queue", "orders").counter().count()).isEqualTo(3);
        }
    }
}
