package io.delayq.cli;

import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code delayq upgrade} against a real Redis: a queue of protocol 2 moved to protocol 3 in place. */
class UpgradeCommandTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final QueueFixture queue = QueueFixture.eachTest(redis, "orders", 4);

    private CliRun delayq(String... args) {
        return CliRun.run(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", "orders"), args);
    }

    @Test
    void aQueueOfProtocol2IsMovedToProtocol3AndItsTasksStay() {
        for (int i = 0; i < 20; i++) {
            queue.schedule("order-" + i, Duration.ofMinutes(10 + i), "payload-" + i);
        }
        CliRun run = delayq("upgrade");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("queue 'orders' is on protocol 3: 20 waiting task(s) and 0 dead letter(s) moved")
                .contains("nothing of protocol 2 is left");
        assertThat(get(redis.admin().commands().hget("dq:{orders}:meta", "protocol"))).isEqualTo("3");
        CliRun inspect = delayq("inspect", "order-7");
        assertThat(inspect.exitCode()).as(inspect.toString()).isZero();
        assertThat(inspect.out()).contains("payload-7");
        CliRun again = delayq("upgrade");
        assertThat(again.exitCode()).as("run again: nothing to move").isZero();
        assertThat(again.out()).contains("0 waiting task(s) and 0 dead letter(s)");
    }

    @Test
    void groupedTasksAreUpgradedIntoTheirGroups() {
        queue.client().enqueue(TaskSpec.of("g-1").group("acme"));
        CliRun run = delayq("upgrade");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(get(redis.admin().commands().hget("dq:{orders}:meta", "protocol"))).isEqualTo("3");
        CliRun inspect = delayq("inspect", "g-1");
        assertThat(inspect.exitCode()).as(inspect.toString()).isZero();
        assertThat(inspect.out()).contains("scheduled");
    }

    @Test
    void anUpgradeWhileAReshardRunsIsRefusedNamingWhy() {
        queue.client().enqueue(TaskSpec.of("t-1"));
        io.delayq.redis.Replies.await(new io.delayq.reshard.ReshardScripts(queue.protocol().scope()).reshardBegin(queue.protocol().shards() * 2),
                java.time.Duration.ofSeconds(5));
        CliRun run = delayq("upgrade");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("is being resharded");
        assertThat(get(redis.admin().commands().hget("dq:{orders}:meta", "protocol"))).isEqualTo("2");
        assertThat(queue.client().inspect("t-1").state()).isEqualTo(TaskInfo.State.SCHEDULED);
    }
}
