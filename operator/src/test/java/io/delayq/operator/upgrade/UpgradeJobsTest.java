package io.delayq.operator.upgrade;

import io.delayq.claim.ClaimedTask;
import io.delayq.operator.redis.ProbeConnection;
import io.delayq.operator.redis.RedisCredentials;
import io.delayq.operator.testing.HandClock;
import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The operator's upgrade jobs against a real redis-server: run again until protocol 2's tasks in flight are done; a refusal retried after the delay. */
class UpgradeJobsTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();
    private static final ClientResources RESOURCES = DefaultClientResources.create();

    @AfterAll
    static void shutDown() {
        RESOURCES.shutdown(0, 1, TimeUnit.SECONDS);
    }

    private UpgradeJob.Params params(String queue, AtomicInteger changes, Clock clock) {
        return new UpgradeJob.Params("shop/" + queue,
                () -> ProbeConnection.open(redis.url(), RedisCredentials.NONE, null, queue, 2, RESOURCES, Duration.ofSeconds(5)),
                Duration.ofSeconds(5), Duration.ofMillis(300), changes::incrementAndGet, clock);
    }

    @Test
    void theJobRunsAgainUntilTheTaskProtocol2HeldInFlightIsAckedThenFinishes() throws Exception {
        try (TestQueue q = TestQueue.open(redis.url(), "orders", 2)) {
            List<TaskSpec> waiting = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                waiting.add(TaskSpec.of("order-" + i).after(Duration.ofHours(1)));
            }
            q.client().enqueueAll(waiting);
            q.client().enqueue(TaskSpec.of("running"));
            ClaimedTask running = q.claim(q.shardOf("running"), 10, Duration.ofMinutes(5)).tasks().get(0);
            AtomicInteger changes = new AtomicInteger();
            UpgradeJobs jobs = new UpgradeJobs(Duration.ofSeconds(1), Clock.systemUTC());

            UpgradeJob job = jobs.ensure("shop/orders", () -> params("orders", changes, Clock.systemUTC())).orElseThrow();
            await().atMost(Duration.ofSeconds(20)).until(() -> job.state().last() != null && changes.get() >= 2);
            assertThat(job.state().running()).as("protocol 2 still holds a task in flight").isTrue();
            assertThat(job.state().last().stillInFlight()).isEqualTo(1);
            assertThat(jobs.ensure("shop/orders", () -> params("orders", changes, Clock.systemUTC()))).as("the running one").containsSame(job);

            assertThat(q.ack(running)).containsExactly(true);
            assertThat(job.awaitEnd(Duration.ofSeconds(20))).isTrue();
            assertThat(job.state().finished()).isTrue();
            assertThat(job.state().last().waitingAdopted()).as("every run's adoptions summed").isEqualTo(300);
            assertThat(jobs.ensure("shop/orders", () -> params("orders", changes, Clock.systemUTC()))).as("a finished job is kept, not run again")
                    .containsSame(job);
            assertThat(redis.admin().commands().hget(ShardKeys.meta("orders"), "protocol").get(5, TimeUnit.SECONDS)).isEqualTo("3");
            jobs.close();
        }
    }

    @Test
    void aRefusedUpgradeFailsNamingWhyAndIsStartedAgainOnlyAfterTheRetryDelay() throws Exception {
        try (TestQueue q = TestQueue.open(redis.url(), "grouped", 2)) {
            q.client().enqueue(TaskSpec.of("tenant-1").after(Duration.ofHours(1)).group("acme"));
            // a reshard running: the upgrade is refused until it has finished
            io.delayq.redis.Replies.await(new io.delayq.reshard.ReshardScripts(q.protocol().scope()).reshardBegin(4), Duration.ofSeconds(5));
            HandClock clock = new HandClock();
            AtomicInteger changes = new AtomicInteger();
            UpgradeJobs jobs = new UpgradeJobs(Duration.ofSeconds(10), clock);

            UpgradeJob failed = jobs.ensure("shop/grouped", () -> params("grouped", changes, clock)).orElseThrow();
            assertThat(failed.awaitEnd(Duration.ofSeconds(10))).isTrue();
            assertThat(failed.state().failed()).isTrue();
            assertThat(failed.state().error()).contains("is being resharded");
            assertThat(jobs.ensure("shop/grouped", () -> params("grouped", changes, clock))).as("within the delay").containsSame(failed);

            clock.advance(Duration.ofSeconds(11));
            UpgradeJob again = jobs.ensure("shop/grouped", () -> params("grouped", changes, clock)).orElseThrow();
            assertThat(again).as("after the delay: a new one").isNotSameAs(failed);
            jobs.close();
        }
    }
}
