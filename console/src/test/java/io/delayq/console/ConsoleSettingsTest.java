package io.delayq.console;

import io.delayq.settings.ConsoleVariables;
import io.delayq.settings.WorkerSettings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The console's variables as {@link ConsoleVariables} declares them: their defaults, and bad values named with their rule. */
class ConsoleSettingsTest {
    private static final String URL = "redis://redis.shop.svc:6379";

    @Test
    void leftOutOrBlankVariablesTakeTheirDefaults() {
        ConsoleSettings s = ConsoleSettings.fromEnv(Map.of(WorkerSettings.REDIS_URL.name(), URL, ConsoleVariables.HOST.name(), " "));

        assertThat(s.redisUrl()).isEqualTo(URL);
        assertThat(s.host()).isEqualTo(ConsoleVariables.DEFAULT_HOST);
        assertThat(s.port()).isEqualTo(ConsoleVariables.PORT.fallback());
        assertThat(s.maxQueues()).isEqualTo(ConsoleVariables.MAX_QUEUES.fallback());
        assertThat(s.sampleEvery()).isEqualTo(ConsoleVariables.SAMPLE_EVERY.fallback());
        assertThat(s.history()).isEqualTo(ConsoleVariables.HISTORY.fallback());
        assertThat(s.readOnly()).isTrue();
        assertThat(s.queues()).isEmpty();
        assertThat(s.basePath()).isEqualTo("/");
    }

    @Test
    void everyVariableIsReadByItsName() {
        ConsoleSettings s = ConsoleSettings.fromEnv(Map.ofEntries(
                Map.entry(WorkerSettings.REDIS_URL_FALLBACK.name(), URL),
                Map.entry(WorkerSettings.REDIS_PASSWORD.name(), "s3cret"),
                Map.entry("DELAYQ_CONSOLE_HOST", "0.0.0.0"),
                Map.entry("DELAYQ_CONSOLE_PORT", "9000"),
                Map.entry("DELAYQ_CONSOLE_TOKEN", "token-1"),
                Map.entry("DELAYQ_CONSOLE_QUEUES", "orders, payouts,"),
                Map.entry("DELAYQ_CONSOLE_MAX_QUEUES", "20"),
                Map.entry("DELAYQ_CONSOLE_ALLOWED_HOSTS", "ops.example.com"),
                Map.entry("DELAYQ_CONSOLE_PATH", "/delayq"),
                Map.entry("DELAYQ_CONSOLE_SAMPLE_EVERY", "5s"),
                Map.entry("DELAYQ_CONSOLE_HISTORY", "2h"),
                Map.entry("DELAYQ_CONSOLE_TRACE_URL", "https://jaeger.example/trace/{traceId}")));

        assertThat(s.redisUrl()).isEqualTo("redis://:s3cret@redis.shop.svc:6379");
        assertThat(s.host()).isEqualTo("0.0.0.0");
        assertThat(s.port()).isEqualTo(9000);
        assertThat(s.actionToken()).isEqualTo("token-1");
        assertThat(s.queues()).containsExactly("orders", "payouts");
        assertThat(s.maxQueues()).isEqualTo(20);
        assertThat(s.allowedHosts()).containsExactly("ops.example.com");
        assertThat(s.basePath()).isEqualTo("/delayq/");
        assertThat(s.sampleEvery()).isEqualTo(Duration.ofSeconds(5));
        assertThat(s.history()).isEqualTo(Duration.ofHours(2));
        assertThat(s.traceUrl()).isEqualTo("https://jaeger.example/trace/{traceId}");
        assertThat(ConsoleVariables.ALL).extracting(io.delayq.settings.Setting::name)
                .as("the variables this test sets are the console's").containsExactlyInAnyOrder("DELAYQ_CONSOLE_HOST", "DELAYQ_CONSOLE_PORT",
                        "DELAYQ_CONSOLE_TOKEN", "DELAYQ_CONSOLE_QUEUES", "DELAYQ_CONSOLE_MAX_QUEUES", "DELAYQ_CONSOLE_ALLOWED_HOSTS",
                        "DELAYQ_CONSOLE_PATH", "DELAYQ_CONSOLE_SAMPLE_EVERY", "DELAYQ_CONSOLE_HISTORY", "DELAYQ_CONSOLE_TRACE_URL");
    }

    @Test
    void aValueOutsideItsBoundsIsNamedWithTheRule() {
        for (Map.Entry<String, String> bad : List.of(
                Map.entry("DELAYQ_CONSOLE_PORT", "70000"),
                Map.entry("DELAYQ_CONSOLE_MAX_QUEUES", "0"),
                Map.entry("DELAYQ_CONSOLE_SAMPLE_EVERY", "50ms"),
                Map.entry("DELAYQ_CONSOLE_HISTORY", "31d"))) {
            assertThatThrownBy(() -> ConsoleSettings.fromEnv(Map.of(WorkerSettings.REDIS_URL.name(), URL, bad.getKey(), bad.getValue())))
                    .as(bad.getKey()).hasMessageStartingWith(bad.getKey() + ": must be between").hasMessageEndingWith(bad.getValue());
        }
        assertThatThrownBy(() -> ConsoleSettings.fromEnv(Map.of(WorkerSettings.REDIS_URL.name(), URL, "DELAYQ_CONSOLE_PORT", "web")))
                .hasMessage("DELAYQ_CONSOLE_PORT: must be a whole number, got 'web'");
        assertThatThrownBy(() -> ConsoleSettings.fromEnv(Map.of(WorkerSettings.REDIS_URL.name(), URL, "DELAYQ_CONSOLE_SAMPLE_EVERY", "1m",
                "DELAYQ_CONSOLE_HISTORY", "30s"))).hasMessageStartingWith("DELAYQ_CONSOLE_HISTORY: must be at least the sample interval");
        assertThatThrownBy(() -> ConsoleSettings.fromEnv(Map.of())).hasMessageStartingWith(WorkerSettings.REDIS_URL.name() + ": ");
    }
}
