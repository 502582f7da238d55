package io.delayq.operator.resharding;

import io.delayq.client.DelayQueueClient;
import io.delayq.operator.redis.ProbeConnection;
import io.delayq.operator.redis.RedisCredentials;
import io.delayq.operator.testing.HandClock;
import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
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

/** The operator's mover jobs against a real redis-server: one per queue, stopped within a batch, resumed by the next. */
class MigrationJobsTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();
    private static final ClientResources RESOURCES = DefaultClientResources.create();

    @AfterAll
    static void shutDown() {
        RESOURCES.shutdown(0, 1, TimeUnit.SECONDS);
    }

    private MigrationJob.Params params(int to, int batch, AtomicInteger changes) {
        return params(to, batch, changes, Clock.systemUTC());
    }

    private MigrationJob.Params params(int to, int batch, AtomicInteger changes, Clock clock) {
        return new MigrationJob.Params("shop/orders", to, batch,
                () -> ProbeConnection.open(redis.url(), RedisCredentials.NONE, null, "orders", to, RESOURCES, Duration.ofSeconds(5)),
                changes::incrementAndGet, clock);
    }

    private void preload(int count) {
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build()) {
            List<TaskSpec> batch = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                batch.add(TaskSpec.of("order-" + i).after(Duration.ofHours(1)));
                if (batch.size() == 500) {
                    producer.enqueueAll(batch);
                    batch.clear();
                }
            }
        }
    }

    private String meta(String field) throws Exception {
        return redis.admin().commands().hget(ShardKeys.meta("orders"), field).get(5, TimeUnit.SECONDS);
    }

    @Test
    void oneJobPerQueueStoppedHalfWayAndResumedByTheNext() throws Exception {
        preload(20_000);
        AtomicInteger changes = new AtomicInteger();
        MigrationJobs jobs = new MigrationJobs(Duration.ofSeconds(1), Clock.systemUTC());

        MigrationJob first = jobs.ensure("shop/orders", 16, to -> params(to, 5, changes)).orElseThrow();
        assertThat(jobs.ensure("shop/orders", 16, to -> params(to, 5, changes))).as("the running one, not a second").containsSame(first);
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(() -> first.state().last() != null && first.state().last().moved() > 0);
        jobs.close();

        assertThat(first.awaitEnd(Duration.ofSeconds(5))).isTrue();
        assertThat(first.state().running()).isFalse();
        assertThat(first.state().error()).isEqualTo("stopped");
        assertThat(meta("migration")).as("left half-way in Redis").isEqualTo("4 16");
        assertThat(jobs.ensure("shop/orders", 16, to -> params(to, 5, changes))).as("a closed registry starts nothing").isEmpty();

        MigrationJobs next = new MigrationJobs(Duration.ofSeconds(1), Clock.systemUTC());
        MigrationJob resumed = next.ensure("shop/orders", 16, to -> params(to, 100, changes)).orElseThrow();
        assertThat(resumed.awaitEnd(Duration.ofSeconds(60))).isTrue();
        assertThat(resumed.state().result().resumed()).isTrue();
        assertThat(resumed.state().result().to()).isEqualTo(16);
        assertThat(meta("migration")).isNull();
        assertThat(meta("shards")).isEqualTo("16");
        assertThat(changes.get()).as("the reconciler was told of the phases and the end").isGreaterThan(2);
        next.forgetEnded("shop/orders");
        assertThat(next.state("shop/orders")).isEmpty();
        next.close();
    }

    @Test
    void aFailedJobIsStartedAgainOnlyAfterTheRetryDelay() throws Exception {
        AtomicInteger changes = new AtomicInteger();
        HandClock clock = new HandClock();
        MigrationJobs jobs = new MigrationJobs(Duration.ofSeconds(10), clock);
        // no meta hash: reshard_begin refuses ("nothing to reshard"), the job fails
        MigrationJob failed = jobs.ensure("shop/orders", 8, to -> params(to, 100, changes, clock)).orElseThrow();
        assertThat(failed.awaitEnd(Duration.ofSeconds(10))).isTrue();
        assertThat(failed.state().failed()).isTrue();
        assertThat(failed.state().error()).contains("no meta hash");

        clock.advance(Duration.ofSeconds(9));
        assertThat(jobs.ensure("shop/orders", 8, to -> params(to, 100, changes, clock))).as("within the delay: the failed one").containsSame(failed);
        clock.advance(Duration.ofSeconds(2));
        assertThat(jobs.ensure("shop/orders", 8, to -> params(to, 100, changes, clock)).orElseThrow()).as("after it: a new one").isNotSameAs(failed);
        jobs.close();
    }
}
