package io.delayq.operator.redis;

import io.delayq.operator.problem.Reason;
import io.delayq.operator.testing.TlsRedis;
import io.delayq.shard.ShardRange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator's backlog check over {@code rediss://} to a real redis-server whose certificate a
 * private CA signed: it trusts exactly the CA of each DelayQueue's spec.redis.tlsCaSecret.
 */
class QueueReaderTlsTest {
    private static final List<ShardRange> RANGES = List.of(new ShardRange(0, 1), new ShardRange(2, 3));
    private final QueueReader reader = new QueueReader(Duration.ofSeconds(3), Clock.systemUTC());
    private TlsRedis redis;

    @BeforeEach
    void start() throws IOException {
        redis = TlsRedis.startOrSkip();
    }

    @AfterEach
    void stop() {
        reader.close();
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void trustsThePrivateCaFromTheSpec() throws IOException {
        QueueReading result = reader.read("shop/orders", redis.tlsUrl(), RedisCredentials.NONE, redis.caPem(), "orders", 4, RANGES);

        assertThat(result.problem()).isNull();
        assertThat(result.backlog()).containsOnlyKeys(RANGES);
        assertThat(result.facts().version()).isNotEqualTo(RedisFacts.UNKNOWN);
    }

    @Test
    void withoutTheCaTheServerIsNotTrusted() {
        QueueReading result = reader.read("shop/orders", redis.tlsUrl(), RedisCredentials.NONE, null, "orders", 4, RANGES);

        assertThat(result.problem().reason()).isEqualTo(Reason.REDIS_UNAVAILABLE);
        assertThat(result.problem().message()).contains("rediss://127.0.0.1");
    }

    @Test
    void eachDelayQueueTrustsItsOwnCaAndNothingLeaksIntoTheProcess() throws IOException {
        QueueReading wrong = reader.read("shop/other", redis.tlsUrl(), RedisCredentials.NONE, redis.otherCaPem(), "other", 4, RANGES);
        QueueReading right = reader.read("shop/orders", redis.tlsUrl(), RedisCredentials.NONE, redis.caPem(), "orders", 4, RANGES);

        assertThat(wrong.problem()).as("a CA that signed nothing here").isNotNull()
                .satisfies(p -> assertThat(p.reason()).isEqualTo(Reason.REDIS_UNAVAILABLE));
        assertThat(right.problem()).isNull();
        assertThat(System.getProperty("delayq.redis.tls.ca")).as("nothing process-wide is set").isNull();
    }

    @Test
    void aCorrectedCaReplacesTheConnection() throws IOException {
        QueueReading before = reader.read("shop/orders", redis.tlsUrl(), RedisCredentials.NONE, redis.otherCaPem(), "orders", 4, RANGES);
        QueueReading after = reader.read("shop/orders", redis.tlsUrl(), RedisCredentials.NONE, redis.caPem(), "orders", 4, RANGES);

        assertThat(before.problem()).isNotNull();
        assertThat(after.problem()).isNull();
    }

    @Test
    void theCaFileLivesAsLongAsItsConnection() throws IOException {
        Set<Path> before = caFiles();

        QueueReading result = reader.read("shop/orders", redis.tlsUrl(), RedisCredentials.NONE, redis.caPem(), "orders", 4, RANGES);
        Set<Path> created = new HashSet<>(caFiles());
        created.removeAll(before);

        assertThat(result.problem()).isNull();
        assertThat(created).singleElement().satisfies(file -> assertThat(Files.readString(file)).isEqualTo(redis.caPem()));
        reader.forget("shop/orders");
        assertThat(created).allSatisfy(file -> assertThat(file).doesNotExist());
    }

    @Test
    void aPlainTextUrlWritesNoCaFile() throws IOException {
        Set<Path> before = caFiles();

        reader.read("shop/plain", "redis://127.0.0.1:1", RedisCredentials.NONE, redis.caPem(), "orders", 4, RANGES);

        assertThat(caFiles()).isEqualTo(before);
    }

    private static Set<Path> caFiles() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(p -> p.getFileName().toString().startsWith("delayq-redis-ca-")).collect(Collectors.toSet());
        }
    }
}
