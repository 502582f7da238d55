package io.delayq.operator.redis;

import io.delayq.backlog.QueueStats;
import io.delayq.client.DelayQueueClient;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.shard.ShardRange;
import io.delayq.shard.Sharding;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The operator's look at Redis, against a real redis-server. */
class QueueReaderTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final List<ShardRange> RANGES = List.of(new ShardRange(0, 3), new ShardRange(4, 7));
    private final QueueReader reader = new QueueReader(Duration.ofSeconds(2), Clock.systemUTC());

    @AfterEach
    void close() {
        reader.close();
    }

    @Test
    void readsTheBacklogOfEachShardRange() {
        int dueLow = 0;
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(8).build()) {
            for (int i = 0; i < 30; i++) {
                String id = "order-" + i;
                client.enqueue(TaskSpec.of(id).at(Instant.now().minusSeconds(60)));
                if (Sharding.shardOf(id, 8) <= 3) {
                    dueLow++;
                }
            }
            for (int i = 0; i < 12; i++) {
                client.enqueue(TaskSpec.of("later-" + i).after(Duration.ofHours(1)));
            }
        }

        QueueReading result = reader.read("shop/orders", redis.url(), RedisCredentials.NONE, "orders", 8, RANGES);

        assertThat(result.problem()).isNull();
        assertThat(result.backlog().get(RANGES.get(0)).due()).isEqualTo(dueLow);
        assertThat(result.backlog().get(RANGES.get(1)).due()).isEqualTo(30 - dueLow);
        assertThat(result.backlog().values().stream().mapToLong(QueueStats::scheduled).sum()).isEqualTo(12);
        assertThat(result.backlog().get(RANGES.get(0)).oldestOverdueMillis()).isGreaterThanOrEqualTo(59_000);
        assertThat(result.facts().maxmemoryPolicy()).isEqualTo("noeviction");
        assertThat(result.facts().persistence()).as("test servers run with --save '' --appendonly no").isEqualTo("off");
        assertThat(result.facts().warnings()).extracting(Problem::reasonText).containsExactly("RedisPersistenceOff");
        assertThat(result.facts().problems()).isEmpty();
    }

    @Test
    void readsTheBacklogOfAQueueOnProtocol3AlsoWhileTheSpecAsksForMoreShards() {
        try (DelayQueueClient client = NewQueuesOnProtocol3.creating(3,
                () -> DelayQueueClient.builder().redis(redis.url()).queue("bucketed").shards(8).build())) {
            assertThat(client.protocol().buckets()).as("recorded as protocol 3").isNotNull();
            for (int i = 0; i < 30; i++) {
                client.enqueue(TaskSpec.of("order-" + i).at(Instant.now().minusSeconds(60)));
            }
            for (int i = 0; i < 12; i++) {
                client.enqueue(TaskSpec.of("later-" + i).after(Duration.ofMinutes(30)));
            }
        }

        // 8 shards: the meta is verified; 16: a grow the reconciler would drive, read without verifying
        for (int specShards : new int[]{8, 16}) {
            QueueReading result = reader.read("shop/bucketed-" + specShards, redis.url(), RedisCredentials.NONE, "bucketed", specShards, RANGES);
            assertThat(result.problem()).as("spec.shards %d", specShards).isNull();
            assertThat(result.backlog().values().stream().mapToLong(QueueStats::due).sum()).as("spec.shards %d", specShards).isEqualTo(30);
            assertThat(result.backlog().values().stream().mapToLong(QueueStats::scheduled).sum()).isEqualTo(12);
            assertThat(result.forecast().values().stream().mapToLong(f -> f.dueWithin(Duration.ofMinutes(15))).sum()).isZero();
            assertThat(result.forecast().values().stream().mapToLong(f -> f.dueWithin(Duration.ofMinutes(60))).sum()).isEqualTo(12);
        }
    }

    @Test
    void recordsTheShardCountAndReportsAMismatch() {
        try (DelayQueueClient ignored = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(16).build()) {
            // the first user of the queue recorded 16 shards
        }

        QueueReading result = reader.read("shop/orders", redis.url(), RedisCredentials.NONE, "orders", 8, RANGES);

        assertThat(result.problem().reason()).isEqualTo(Reason.SHARD_COUNT_MISMATCH);
        assertThat(result.problem().message()).contains("16");
    }

    @Test
    void anUnreachableRedisIsAProblemWithTheUrlButNoPassword() {
        String url = "redis://127.0.0.1:" + LocalRedisServer.freePort();

        QueueReading result = reader.read("shop/orders", url, new RedisCredentials("app", "hunter2"), "orders", 8, RANGES);

        assertThat(result.problem().reason()).isEqualTo(Reason.REDIS_UNAVAILABLE);
        assertThat(result.problem().message()).contains("127.0.0.1").doesNotContain("hunter2");
        assertThat(result.backlog()).isEmpty();
    }

    @Test
    void anEvictionPolicyOtherThanNoevictionIsAProblem() {
        try (LocalRedisServer lru = LocalRedisServer.start("--maxmemory-policy", "allkeys-lru", "--appendonly", "yes")) {
            QueueReading result = reader.read("shop/orders", lru.url(), RedisCredentials.NONE, "orders", 8, RANGES);

            assertThat(result.facts().maxmemoryPolicy()).isEqualTo("allkeys-lru");
            assertThat(result.facts().persistence()).isEqualTo("aof");
            assertThat(result.facts().problems()).singleElement().satisfies(p -> {
                assertThat(p.reason()).isEqualTo(Reason.UNSAFE_EVICTION_POLICY);
                assertThat(p.message()).contains("allkeys-lru", "noeviction");
            });
        }
    }

    @Test
    void anAclThatRefusesConfigAndInfoGivesUnknownNotAnError() throws Exception {
        // Everything the queue scripts need, but neither CONFIG nor INFO (as on many managed services).
        redis.admin().commands().dispatch(io.lettuce.core.protocol.CommandType.ACL, new io.lettuce.core.output.StatusOutput<>(
                io.lettuce.core.codec.StringCodec.UTF8), new io.lettuce.core.protocol.CommandArgs<>(io.lettuce.core.codec.StringCodec.UTF8)
                .add("SETUSER").add("probe").add("on").add(">pw-of-probe").add("~*").add("+@all").add("-config").add("-info")).get();
        try {
            QueueReading result = reader.read("shop/orders", redis.url(), new RedisCredentials("probe", "pw-of-probe"), "orders", 8, RANGES);

            assertThat(result.problem()).isNull();
            assertThat(result.backlog()).hasSize(2);
            assertThat(result.facts().maxmemoryPolicy()).isEqualTo(RedisFacts.UNKNOWN);
            assertThat(result.facts().persistence()).isEqualTo(RedisFacts.UNKNOWN);
            assertThat(result.facts().problems()).isEmpty();
            assertThat(result.facts().warnings()).isEmpty();
        } finally {
            redis.admin().commands().aclDeluser("probe").get();
        }
    }

    @Test
    void aWrongPasswordIsAProblemThatDoesNotShowThePassword() throws Exception {
        redis.admin().commands().configSet("requirepass", "right-password").get();
        try {
            QueueReading result = reader.read("shop/orders", redis.url(), new RedisCredentials(null, "wrong-password"), "orders", 8, RANGES);

            assertThat(result.problem().reason()).isEqualTo(Reason.REDIS_UNAVAILABLE);
            assertThat(result.problem().message()).doesNotContain("wrong-password").doesNotContain("right-password")
                    .contains("Redis refused the password given (it answered WRONGPASS")
                    .contains("check the password (and user name) in the Secret named by spec.redis.credentialsSecret");
        } finally {
            try (var admin = io.delayq.redis.RedisEndpoint.connect(new RedisCredentials(null, "right-password").applyTo(redis.url()))) {
                admin.commands().configSet("requirepass", "").get();
            }
        }
    }
}
