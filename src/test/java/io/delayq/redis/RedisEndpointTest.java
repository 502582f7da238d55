package io.delayq.redis;

import io.delayq.InvalidInputException;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.client.DelayQueueClient;
import io.delayq.task.TaskSpec;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Redis URLs: ACL user and password, cluster seeds, bad URLs, and passwords kept out of logs. */
class RedisEndpointTest {

    @Test
    void aclUserAndPasswordFromTheUrl() {
        try (LocalRedisServer server = LocalRedisServer.start("--user", "default", "off",
                "--user", "producer", "on", ">s3cret", "~*", "&*", "+@all")) {
            String url = "redis://producer:s3cret@127.0.0.1:" + server.port();
            try (DelayQueueClient c = DelayQueueClient.builder().redis(url).queue("orders").shards(2).build()) {
                assertThat(c.enqueue(TaskSpec.of("a")).added()).isTrue();
                assertThat(c.redis().toString()).isEqualTo("redis://producer:***@127.0.0.1:" + server.port());
            }
            assertThatThrownBy(() -> DelayQueueClient.builder().redis("redis://producer:wrong@127.0.0.1:" + server.port())
                    .queue("orders").shards(2).build()).isInstanceOf(RuntimeException.class);
            assertThatThrownBy(() -> DelayQueueClient.builder().redis(server.url()).queue("orders").shards(2).build())
                    .isInstanceOf(RuntimeException.class);
        }
    }

    @Test
    void clusterUrlGivesOneSeedPerHostWithTheCredentials() {
        List<RedisURI> seeds = RedisEndpoint.clusterSeeds("rediss-cluster://app:pw@10.0.0.1:7000, 10.0.0.2:7001,", Duration.ofSeconds(3));
        assertThat(seeds).extracting(RedisURI::getHost).containsExactly("10.0.0.1", "10.0.0.2");
        assertThat(seeds).extracting(RedisURI::getPort).containsExactly(7000, 7001);
        assertThat(seeds).allSatisfy(s -> {
            assertThat(s.isSsl()).isTrue();
            io.lettuce.core.RedisCredentials credentials = s.getCredentialsProvider().resolveCredentials().block();
            assertThat(credentials.getUsername()).isEqualTo("app");
            assertThat(new String(credentials.getPassword())).isEqualTo("pw");
            assertThat(s.getTimeout()).isEqualTo(Duration.ofSeconds(3));
        });
        assertThatThrownBy(() -> RedisEndpoint.clusterSeeds("redis-cluster://", Duration.ofSeconds(1)))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("redis: ");
    }

    @Test
    void badUrlsNameTheFieldAndHideThePassword() {
        assertThatThrownBy(() -> RedisEndpoint.connect(""))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("redis: ");
        assertThatThrownBy(() -> RedisEndpoint.connect("http://user:topsecret@host:6379"))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("redis: ")
                .hasMessageNotContaining("topsecret");
    }

    @Test
    void redactRemovesPasswordsOnly() {
        assertThat(RedisEndpoint.redact("redis://user:pw@host:6379/0")).isEqualTo("redis://user:***@host:6379/0");
        assertThat(RedisEndpoint.redact("redis://pw@host:6379")).isEqualTo("redis://***@host:6379");
        assertThat(RedisEndpoint.redact("redis-cluster://u:p@h1:1,h2:2")).isEqualTo("redis-cluster://u:***@h1:1,h2:2");
        assertThat(RedisEndpoint.redact("redis://host:6379")).isEqualTo("redis://host:6379");
    }
}
