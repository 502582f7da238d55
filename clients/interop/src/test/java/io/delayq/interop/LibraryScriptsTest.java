package io.delayq.interop;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.bucket.BucketScript;
import io.delayq.script.LuaScript;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One source of truth: every library runs exactly the scripts core's {@link LuaScript} and {@link BucketScript}
 * (protocol 3's, named {@code p3/<name>}) assemble from {@code src/main/resources/delayq/lua} (same names, same
 * SHA-1, so the same text). A library built before
 * a script changed fails here until it is built again.
 */
class LibraryScriptsTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    static List<Producer> producers() {
        return List.of(Producer.python(), Producer.node(), Producer.go());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void theLibraryRunsCoresScriptsExactly(Producer producer) {
        Map<String, String> core = Arrays.stream(LuaScript.values())
                .collect(Collectors.toMap(s -> s.fileName().replace(".lua", ""), LuaScript::sha));
        // protocol 3's, by their path under lua/: p3/enqueue, ...
        Arrays.stream(BucketScript.values()).forEach(s -> core.put(s.path().replace("delayq/lua/", "").replace(".lua", ""), s.sha()));
        try (ProducerProcess p = producer.connect(redis.url(), "scripts", 1).connected()) {
            JsonNode answer = p.ok(Map.of("op", "scripts"));
            Map<String, String> library = new HashMap<>();
            answer.fields().forEachRemaining(e -> library.put(e.getKey(), e.getValue().asText()));
            assertThat(library).as("%s scripts (name -> SHA-1) vs core's LuaScript", producer).isEqualTo(core);
        }
    }
}
