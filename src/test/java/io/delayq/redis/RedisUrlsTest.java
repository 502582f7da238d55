package io.delayq.redis;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The one way credentials go into a Redis URL: worker, CLI, console and operator all call it. */
class RedisUrlsTest {

    @Test
    void credentialsArePercentEncodedIntoTheUserInfo() {
        assertThat(RedisUrls.withCredentials("redis://redis:6379/0", "app", "p@ss:w/rd %x"))
                .isEqualTo("redis://app:p%40ss%3Aw%2Frd%20%25x@redis:6379/0");
        assertThat(RedisUrls.withCredentials("rediss-cluster://a:1,b:2", null, "pw")).isEqualTo("rediss-cluster://:pw@a:1,b:2");
    }

    @Test
    void theGivenCredentialsReplaceThoseInTheUrl() {
        assertThat(RedisUrls.withCredentials("rediss://old:oldpw@redis:6380/2", "app", "new")).isEqualTo("rediss://app:new@redis:6380/2");
        // a password alone keeps the URL's user
        assertThat(RedisUrls.withCredentials("redis://old:oldpw@redis:6380", null, "new")).isEqualTo("redis://old:new@redis:6380");
        assertThat(RedisUrls.withCredentials("redis://app@redis:6379", null, "pw")).isEqualTo("redis://app:pw@redis:6379");
    }

    @Test
    void onlyTheAuthorityChanges() {
        assertThat(RedisUrls.withCredentials("redis-sentinel://s1:26379,s2:26379/0?sentinelMasterId=main&x=a@b#f", "app", "pw"))
                .isEqualTo("redis-sentinel://app:pw@s1:26379,s2:26379/0?sentinelMasterId=main&x=a@b#f");
    }

    @Test
    void withoutAPasswordTheUrlStaysAsItWas() {
        // Lettuce reads a user-info without ':' as a password: a user alone cannot be expressed
        assertThat(RedisUrls.withCredentials("redis://redis:6379", "app", null)).isEqualTo("redis://redis:6379");
        assertThat(RedisUrls.withCredentials("redis://u:p@redis:6379", null, null)).isEqualTo("redis://u:p@redis:6379");
    }
}
