package io.delayq.operator.redis;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RedisCredentialsTest {

    @Test
    void putsPercentEncodedCredentialsIntoTheUrl() {
        assertThat(new RedisCredentials("app", "p@ss:w/rd").applyTo("redis://redis:6379/0"))
                .isEqualTo("redis://app:p%40ss%3Aw%2Frd@redis:6379/0");
        assertThat(new RedisCredentials(null, "pw").applyTo("rediss-cluster://a:1,b:2")).isEqualTo("rediss-cluster://:pw@a:1,b:2");
        assertThat(RedisCredentials.NONE.applyTo("redis://r:1")).isEqualTo("redis://r:1");
        // credentials already in the URL are replaced, not stacked in front of them
        assertThat(new RedisCredentials("app", "pw").applyTo("redis://old:x@r:1/0")).isEqualTo("redis://app:pw@r:1/0");
    }

    @Test
    void neverShowsThePassword() {
        RedisCredentials c = new RedisCredentials("app", "hunter2");

        assertThat(c.toString()).doesNotContain("hunter2").contains("***");
        assertThat(c.scrub("auth failed for hunter2 at redis://app:hunter2@r")).doesNotContain("hunter2");
    }
}
