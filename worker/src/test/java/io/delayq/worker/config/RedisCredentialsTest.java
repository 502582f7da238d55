package io.delayq.worker.config;

import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * DELAYQ_REDIS_USERNAME / DELAYQ_REDIS_PASSWORD against a real Redis with an ACL user whose password
 * has characters that need escaping in a URL: the worker authenticates as that user.
 */
class RedisCredentialsTest {
    private static final String USER = "delayq-app";
    private static final String PASSWORD = "p@ss:w/rd %x#1";

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension("--user", USER, "on", ">" + PASSWORD, "~*", "&*", "+@all");

    private static final String Q = "secured";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 1);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    private Map<String, String> env(String url) {
        return RunningWorkers.env(url, Q, 1);
    }

    private Set<String> clientUsers() {
        String list = TestQueue.get(queue.redis().clientList());
        Set<String> users = ConcurrentHashMap.newKeySet();
        for (String line : list.split("\n")) {
            for (String field : line.split(" ")) {
                if (field.startsWith("user=")) {
                    users.add(field.substring(5));
                }
            }
        }
        return users;
    }

    @Test
    void theWorkerAuthenticatesWithTheCredentialVariables() {
        Map<String, String> env = env(redis.url());
        env.put("DELAYQ_REDIS_USERNAME", USER);
        env.put("DELAYQ_REDIS_PASSWORD", PASSWORD);
        Set<String> handled = ConcurrentHashMap.newKeySet();
        Worker w = workers.startHandler(env, task -> handled.add(task.id()));

        queue.client().enqueue(TaskSpec.of("order-1"));
        await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("order-1"));
        assertThat(clientUsers()).contains(USER);
        assertThat(w.config().describe()).doesNotContain(PASSWORD).doesNotContain("p%40ss");
    }

    @Test
    void aUserInTheUrlKeepsItsNameWhenOnlyThePasswordComesFromAVariable() {
        Map<String, String> env = env("redis://" + USER + "@127.0.0.1:" + redis.server().port());
        env.put("DELAYQ_REDIS_PASSWORD", PASSWORD);
        Set<String> handled = ConcurrentHashMap.newKeySet();
        workers.startHandler(env, task -> handled.add(task.id()));

        queue.client().enqueue(TaskSpec.of("order-2"));
        await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("order-2"));
        assertThat(clientUsers()).contains(USER);
    }

    @Test
    void aWrongPasswordStopsTheStart() {
        Map<String, String> env = env(redis.url());
        env.put("DELAYQ_REDIS_USERNAME", USER);
        env.put("DELAYQ_REDIS_PASSWORD", "wrong");
        // the root cause alone, so that a failure here prints what Redis (or the network) answered
        // instead of a stack trace cut short by the build log
        assertThatThrownBy(() -> workers.startHandler(env, task -> { }))
                .rootCause().hasMessageContaining("WRONGPASS");
    }
}
