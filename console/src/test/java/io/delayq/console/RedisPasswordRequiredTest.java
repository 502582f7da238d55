package io.delayq.console;

import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.RedisCredentialsException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The console against a real Redis that requires a password, started without it or with a wrong one: it does
 * not start, and the error says which variable to set (`delayq console` prints it as its one error line: the app's
 * ConsoleCommandTest).
 */
class RedisPasswordRequiredTest {
    private static final String PASSWORD = "console-pw-5d2a";
    private static LocalRedisServer redis;

    @BeforeAll
    static void start() {
        redis = LocalRedisServer.start("--requirepass", PASSWORD);
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    @Test
    void aMissingPasswordSaysWhatToSet() {
        ConsoleSettings settings = ConsoleSettings.fromEnv(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_CONSOLE_PORT", "0"));
        assertThatThrownBy(() -> Console.start(settings))
                .isInstanceOf(RedisCredentialsException.class)
                .hasMessage("Redis requires a password and none was given (it answered NOAUTH): set DELAYQ_REDIS_PASSWORD (and "
                        + "DELAYQ_REDIS_USERNAME for an ACL user), or put the password in the URL (DELAYQ_REDIS_URL): redis://:PASSWORD@host:6379");
    }

    @Test
    void aWrongPasswordSaysWhatToCheck() {
        ConsoleSettings settings = ConsoleSettings.fromEnv(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_REDIS_PASSWORD", "wrong-one",
                "DELAYQ_CONSOLE_PORT", "0"));
        assertThatThrownBy(() -> Console.start(settings))
                .isInstanceOf(RedisCredentialsException.class)
                .hasMessageStartingWith("Redis refused the password given (it answered WRONGPASS")
                .hasMessageEndingWith("check DELAYQ_REDIS_PASSWORD and DELAYQ_REDIS_USERNAME, or the user:password in the URL (DELAYQ_REDIS_URL)")
                .hasMessageNotContaining("wrong-one");
    }

    @Test
    void theRightPasswordStartsIt() throws Exception {
        ConsoleSettings settings = ConsoleSettings.fromEnv(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_REDIS_PASSWORD", PASSWORD,
                "DELAYQ_CONSOLE_PORT", "0"));
        try (Console console = Console.start(settings)) {
            assertThat(console.port()).isPositive();
        }
    }
}
