package io.delayq.cli;

import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** A Redis that may evict keys loses tasks silently: {@code check} must fail and say how to fix it. */
class CheckEvictionPolicyTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension("--maxmemory-policy", "allkeys-lru", "--appendonly", "yes");

    @Test
    void allkeysLruFailsWithTheFix() {
        CliRun r = CliRun.run("check", "--redis", redis.url());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(r.out()).containsPattern("(?m)^FAIL  eviction\\s+maxmemory-policy is allkeys-lru: ")
                .contains("fix: run CONFIG SET maxmemory-policy noeviction")
                .contains("1 failed");
    }

    @Test
    void volatilePolicyOnlyWarns() throws Exception {
        redis.admin().commands().configSet("maxmemory-policy", "volatile-lru").get();
        try {
            CliRun r = CliRun.run("check", "--redis", redis.url());

            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).containsPattern("(?m)^WARN  eviction\\s+maxmemory-policy is volatile-lru");
        } finally {
            redis.admin().commands().configSet("maxmemory-policy", "allkeys-lru").get();
        }
    }
}
