package io.delayq.script;

import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/** Scripts are loaded once, called by SHA, and sent again in full when Redis has forgotten them. */
class ScriptRunnerTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void scriptsAreReloadedAfterRedisForgetsThem() {
        try (TestQueue q = TestQueue.open(redis.url(), "orders", 2)) {
            q.client().enqueue(TaskSpec.of("a"));
            get(q.redis().scriptFlush());
            assertThat(get(q.redis().scriptExists(LuaScript.INSPECT.sha()))).containsExactly(false);
            // NOSCRIPT -> EVAL with the source, which caches the script again
            assertThat(q.client().inspect("a").state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(get(q.redis().scriptExists(LuaScript.INSPECT.sha()))).containsExactly(true);
        }
    }

    @Test
    void loadAllCachesEveryScriptUnderTheShaTheClientUses() {
        try (TestQueue q = TestQueue.open(redis.url(), "orders", 1)) {
            get(q.redis().scriptFlush());
            sync(q.protocol().scripts().loadAll());
            String[] shas = Arrays.stream(LuaScript.values()).map(LuaScript::sha).toArray(String[]::new);
            assertThat(get(q.redis().scriptExists(shas))).containsOnly(true).hasSize(LuaScript.values().length);
            assertThat(get(q.redis().scriptLoad(LuaScript.CLAIM.source()))).isEqualTo(LuaScript.CLAIM.sha());
        }
    }

    @ParameterizedTest
    @EnumSource(LuaScript.class)
    void everyScriptHeaderListsItsKeysArgvAndReply(LuaScript script) throws IOException {
        String raw;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("delayq/lua/" + script.fileName())) {
            assertThat(in).isNotNull();
            raw = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(raw).containsPattern("(?m)^-- KEYS").containsPattern("(?m)^-- ARGV").containsPattern("(?m)^-- Returns");
        // includes are pasted in, so Redis receives one self-contained script
        assertThat(script.source()).doesNotContain("--@include");
    }
}
