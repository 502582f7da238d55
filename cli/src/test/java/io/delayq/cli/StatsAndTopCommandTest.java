package io.delayq.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class StatsAndTopCommandTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final QueueFixture queue = QueueFixture.eachTest(redis, "orders", 2);

    @BeforeEach
    void queue() throws Exception {
        // 3 scheduled in the future, 2 overdue, 1 in flight, 1 dead
        queue.schedule("s1", Duration.ofHours(1), "p");
        queue.schedule("s2", Duration.ofHours(2), "p");
        queue.schedule("s3", Duration.ofHours(3), "p");
        queue.inFlight(Duration.ofMinutes(5), "f1");
        queue.dead("boom", "d1");
        queue.scheduleAt("o1", Instant.ofEpochMilli(queue.serverNow() - 120_000), "p");
        queue.scheduleAt("o2", Instant.ofEpochMilli(queue.serverNow() - 5_000), "p");
    }

    @Test
    void tablePerShardAndTotal_readingTheShardCountFromRedis() {
        CliRun r = CliRun.run("stats", "--redis", redis.url(), "--queue", "orders");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("queue orders (2 shards)", "SHARD  SCHEDULED  DUE NOW  IN FLIGHT  DEAD  OLDEST OVERDUE");
        Matcher total = Pattern.compile("(?m)^total\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\S+ ?\\S*)$").matcher(r.out());
        assertThat(total.find()).as(r.out()).isTrue();
        assertThat(List.of(total.group(1), total.group(2), total.group(3), total.group(4))).containsExactly("3", "2", "1", "1");
        assertThat(total.group(5)).startsWith("2m 0");
        assertThat(r.out().lines().filter(l -> l.matches("^[01] .*"))).hasSize(2);
    }

    @Test
    void jsonMatchesTheCoreStats() throws Exception {
        CliRun r = CliRun.run("--redis", redis.url(), "--queue", "orders", "stats", "--output", "json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get("queue").asText()).isEqualTo("orders");
        assertThat(json.get("shards").asInt()).isEqualTo(2);
        assertThat(json.at("/total/scheduled").asLong()).isEqualTo(3);
        assertThat(json.at("/total/dueNow").asLong()).isEqualTo(2);
        assertThat(json.at("/total/inFlight").asLong()).isEqualTo(1);
        assertThat(json.at("/total/dead").asLong()).isEqualTo(1);
        assertThat(json.at("/total/oldestOverdueMillis").asLong()).isGreaterThanOrEqualTo(120_000);
        assertThat(json.get("perShard")).hasSize(2);
        long perShardScheduled = 0;
        for (JsonNode s : json.get("perShard")) {
            perShardScheduled += s.get("scheduled").asLong();
            assertThat(s.get("scheduled").asLong()).isEqualTo(queue.client().stats().shards().get(s.get("shard").asInt()).scheduled());
        }
        assertThat(perShardScheduled).isEqualTo(3);
    }

    @Test
    void topRefreshesTheGivenNumberOfTimesWithRates() {
        CliRun r = CliRun.run("top", "--redis", redis.url(), "--queue", "orders", "--interval", "100ms", "--iterations", "3");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out().lines().filter(l -> l.startsWith("queue orders (2 shards)"))).hasSize(3);
        assertThat(r.out().lines().filter(l -> l.startsWith("total"))).hasSize(3);
        assertThat(r.out()).contains("rates: fired -/s");
        assertThat(r.out().lines().filter(l -> l.matches("rates over \\d+\\.\\ds: fired 0\\.0/s  done 0\\.0/s  failed 0\\.0/s"))).hasSize(2);
    }

    @Test
    void topRejectsATooShortInterval() {
        CliRun r = CliRun.run("top", "--redis", redis.url(), "--queue", "orders", "--interval", "10ms", "--iterations", "1");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("interval: must be at least 100ms");
    }

    @Test
    void unknownQueueIsNotFound_missingRedisUrlIsUsage() {
        CliRun unknown = CliRun.run("stats", "--redis", redis.url(), "--queue", "payments");
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(unknown.oneErrorLine()).isTrue();
        assertThat(unknown.err()).contains("queue: no queue 'payments' in Redis", "dq:{payments}:meta");

        CliRun noUrl = CliRun.run("stats", "--queue", "orders");
        assertThat(noUrl.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noUrl.err()).contains("redis: no Redis URL", "REDIS_URL");

        CliRun badName = CliRun.run("stats", "--redis", redis.url(), "--queue", "Orders_1");
        assertThat(badName.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(badName.err()).contains("queue: must be a lower-case DNS label");
    }
}
