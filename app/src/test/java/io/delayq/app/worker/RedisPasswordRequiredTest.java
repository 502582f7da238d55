package io.delayq.app.worker;

import io.delayq.localredis.LocalRedisServer;
import io.delayq.worker.config.CapturedStderr;
import io.delayq.worker.config.EnvChanges;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker started against a real Redis that requires a password, without it or with a wrong one: it stops at
 * once with one line saying what to set (not Lettuce's "NOAUTH HELLO must be called…"), whether it serves the
 * whole queue (and follows reshards, connecting for the queue's layout first) or an explicit shard range.
 */
class RedisPasswordRequiredTest {
    private static final String PASSWORD = "pw-7e21-never-printed";
    private static LocalRedisServer redis;

    @RegisterExtension
    final CapturedStderr err = new CapturedStderr();

    @BeforeAll
    static void start() {
        redis = LocalRedisServer.start("--requirepass", PASSWORD);
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    private static Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>();
        env.put("DELAYQ_REDIS_URL", "redis://127.0.0.1:" + redis.port());
        env.put("DELAYQ_QUEUE", "guarded");
        env.put("DELAYQ_SHARDS", "2");
        env.put("DELAYQ_HTTP_PORT", "0");
        // stream delivery: no handler to find on the class path before Redis is tried
        env.put("DELAYQ_DELIVERY", "stream");
        env.put("DELAYQ_STREAM_KEY", "ready");
        return EnvChanges.apply(env, pairs);
    }

    /** The worker's own lines (the log may add its own, e.g. a library's warning). */
    private java.util.List<String> workerLines() {
        assertThat(err.lines()).noneMatch(l -> l.contains(PASSWORD)).noneMatch(l -> l.startsWith("\tat "));
        return err.lines().stream().filter(l -> l.startsWith("delayq worker:")).toList();
    }

    @Test
    void aMissingPasswordOnAWholeQueueWorkerSaysWhatToSet() {
        assertThat(WorkerCommand.run(env())).isEqualTo(3);

        assertThat(workerLines()).containsExactly("delayq worker: cannot start: Redis requires a password and none was given (it answered "
                + "NOAUTH): set DELAYQ_REDIS_PASSWORD (and DELAYQ_REDIS_USERNAME for an ACL user), or put the password in the URL "
                + "(DELAYQ_REDIS_URL): redis://:PASSWORD@host:6379");
    }

    @Test
    void aMissingPasswordOnAShardRangeWorkerSaysTheSame() {
        assertThat(WorkerCommand.run(env("DELAYQ_SHARD_FROM", "0", "DELAYQ_SHARD_TO", "1"))).isEqualTo(3);

        assertThat(workerLines()).singleElement().asString()
                .startsWith("delayq worker: cannot start: Redis requires a password and none was given (it answered NOAUTH): set DELAYQ_REDIS_PASSWORD");
    }

    @Test
    void aWrongPasswordSaysWhatToCheckWithoutPrintingIt() {
        assertThat(WorkerCommand.run(env("DELAYQ_REDIS_PASSWORD", "not-" + PASSWORD, "DELAYQ_SHARD_FROM", "0"))).isEqualTo(3);

        assertThat(workerLines()).singleElement().asString()
                .isEqualTo("delayq worker: cannot start: Redis refused the password given (it answered WRONGPASS: a wrong password, or a "
                        + "user that does not exist or is disabled): check DELAYQ_REDIS_PASSWORD and DELAYQ_REDIS_USERNAME, or the "
                        + "user:password in the URL (DELAYQ_REDIS_URL)");
    }
}
