package io.delayq.redis;

import io.delayq.localredis.LocalRedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A real Redis that requires a password: connecting without one, or with a wrong one, fails with a
 * {@link RedisCredentialsException} that says what to set (Redis's own NOAUTH / WRONGPASS kept as the cause),
 * in the words of the caller's {@link RedisCredentialsException.Fix}, and never with the password in it.
 */
class RedisCredentialsRefusalTest {
    private static final String PASSWORD = "s3cr3t-pw-4c1d";

    private static LocalRedisServer redis;

    @BeforeAll
    static void start() {
        redis = LocalRedisServer.start("--requirepass", PASSWORD);
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    private String url(String userInfo) {
        return "redis://" + userInfo + "127.0.0.1:" + redis.port();
    }

    @Test
    void noPasswordNamesTheVariablesAndTheUrlForm() {
        assertThatThrownBy(() -> RedisEndpoint.connect(url("")))
                .isInstanceOfSatisfying(RedisCredentialsException.class, e -> {
                    assertThat(e.problem()).isEqualTo(RedisCredentialsException.Problem.PASSWORD_MISSING);
                    assertThat(e.getMessage()).isEqualTo("Redis requires a password and none was given (it answered NOAUTH): set "
                            + "DELAYQ_REDIS_PASSWORD (and DELAYQ_REDIS_USERNAME for an ACL user), or put the password in the URL "
                            + "(DELAYQ_REDIS_URL): redis://:PASSWORD@host:6379");
                })
                .rootCause().hasMessageStartingWith("NOAUTH");
    }

    @Test
    void aWrongPasswordSaysWhatToCheck() {
        assertThatThrownBy(() -> RedisEndpoint.connect(url(":not-it@")))
                .isInstanceOfSatisfying(RedisCredentialsException.class, e -> {
                    assertThat(e.problem()).isEqualTo(RedisCredentialsException.Problem.CREDENTIALS_REFUSED);
                    assertThat(e.refusal()).startsWith("Redis refused the password given (it answered WRONGPASS");
                    assertThat(e.fix()).isEqualTo("check DELAYQ_REDIS_PASSWORD and DELAYQ_REDIS_USERNAME, or the user:password in the URL "
                            + "(DELAYQ_REDIS_URL)");
                    assertThat(e.getMessage()).doesNotContain("not-it");
                })
                .rootCause().hasMessageStartingWith("WRONGPASS");
    }

    @Test
    void theCallerNamesItsOwnSettings() {
        RedisCredentialsException.Fix fix = RedisCredentialsException.Fix.forUrlIn("--redis or DELAYQ_REDIS_URL");
        assertThatThrownBy(() -> RedisEndpoint.connect(url(""), null, Duration.ofSeconds(5), null, fix))
                .hasMessageEndingWith("or put the password in the URL (--redis or DELAYQ_REDIS_URL): redis://:PASSWORD@host:6379");
    }

    @Test
    void theRightPasswordConnects() {
        try (RedisEndpoint ok = RedisEndpoint.connect(url(":" + PASSWORD + "@"))) {
            assertThat(Replies.await(ok.commands().ping(), Duration.ofSeconds(5))).isEqualTo("PONG");
        }
    }
}
