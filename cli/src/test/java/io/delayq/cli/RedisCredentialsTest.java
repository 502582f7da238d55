package io.delayq.cli;

import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.RedisEndpoint;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Inside a worker pod the URL carries no password: DELAYQ_REDIS_PASSWORD (from a Secret) does, and
 * the CLI must use it like the worker. The password has URL-special characters on purpose.
 */
class RedisCredentialsTest {
    private static final String PASSWORD = "s3cr:t@/x y";
    private static LocalRedisServer server;

    @BeforeAll
    static void start() throws Exception {
        // LocalRedisServer waits for +PONG, which a server started with --requirepass never answers
        server = LocalRedisServer.start();
        try (RedisEndpoint admin = RedisEndpoint.connect(server.url())) {
            admin.commands().configSet("requirepass", PASSWORD).get();
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void passwordFromTheEnvironmentIsUsed() {
        Map<String, String> env = Map.of("DELAYQ_REDIS_URL", server.url(), "DELAYQ_REDIS_PASSWORD", PASSWORD, "DELAYQ_QUEUE", "orders");

        CliRun enqueue = CliRun.run(env, "enqueue", "a", "--delay", "1m", "--shards", "2");
        assertThat(enqueue.exitCode()).as(enqueue.toString()).isZero();

        CliRun stats = CliRun.run(env, "stats");
        assertThat(stats.exitCode()).as(stats.toString()).isZero();
        assertThat(stats.out()).doesNotContain(PASSWORD);
    }

    @Test
    void missingPasswordSaysWhatToSetInOneLine() {
        CliRun r = CliRun.run(Map.of("DELAYQ_REDIS_URL", server.url(), "DELAYQ_QUEUE", "orders"), "stats");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.REDIS);
        assertThat(r.oneErrorLine()).as(r.toString()).isTrue();
        assertThat(r.err().trim()).isEqualTo("delayq stats: Redis requires a password and none was given (it answered NOAUTH): set "
                + "DELAYQ_REDIS_PASSWORD (and DELAYQ_REDIS_USERNAME for an ACL user), or put the password in the URL "
                + "(--redis or DELAYQ_REDIS_URL): redis://:PASSWORD@host:6379");
    }

    @Test
    void wrongPasswordSaysWhatToCheckWithoutPrintingIt() {
        String wrong = "not-the-pw-91f3";
        CliRun r = CliRun.run(Map.of("DELAYQ_QUEUE", "orders"), "stats", "--redis", "redis://:" + wrong + "@" + server.url().substring("redis://".length()));

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.REDIS);
        assertThat(r.oneErrorLine()).as(r.toString()).isTrue();
        assertThat(r.err().trim()).isEqualTo("delayq stats: Redis refused the password given (it answered WRONGPASS: a wrong password, or a "
                + "user that does not exist or is disabled): check DELAYQ_REDIS_PASSWORD and DELAYQ_REDIS_USERNAME, or the user:password in "
                + "the URL (--redis or DELAYQ_REDIS_URL)");
        assertThat(r.out() + r.err()).doesNotContain(wrong);
    }

    @Test
    void checkFailsTheConnectionCheckWithTheFix() {
        CliRun r = CliRun.run(Map.of("DELAYQ_REDIS_URL", server.url()), "check");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(r.out()).contains("Redis requires a password and none was given (it answered NOAUTH)")
                .contains("set DELAYQ_REDIS_PASSWORD (and DELAYQ_REDIS_USERNAME for an ACL user)");
    }
}
