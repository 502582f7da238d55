package io.delayq.worker.config;

import io.delayq.claim.GroupCaps;
import io.delayq.claim.RateLimit;
import io.delayq.settings.ConfigException;
import io.delayq.shard.ShardRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Every DELAYQ_* variable's rule: a wrong value fails with an error that names the variable and the rule. */
class WorkerConfigTest {

    private static Map<String, String> base() {
        Map<String, String> env = new HashMap<>();
        env.put("DELAYQ_REDIS_URL", "redis://redis:6379");
        env.put("DELAYQ_QUEUE", "orders");
        env.put("DELAYQ_SHARDS", "4");
        return env;
    }

    /** {@code base()} with the given changes; a null value removes the variable. */
    private static Map<String, String> with(String... pairs) {
        return EnvChanges.apply(base(), pairs);
    }

    static Stream<Arguments> brokenRules() {
        return Stream.of(
                arguments(with("DELAYQ_REDIS_URL", null), "DELAYQ_REDIS_URL", "is required"),
                arguments(with("DELAYQ_REDIS_URL", "  "), "DELAYQ_REDIS_URL", "is required"),
                arguments(with("DELAYQ_REDIS_URL", "localhost:6379"), "DELAYQ_REDIS_URL", "redis://"),
                arguments(with("DELAYQ_REDIS_URL", "http://redis:6379"), "DELAYQ_REDIS_URL", "redis://"),
                arguments(with("DELAYQ_QUEUE", null), "DELAYQ_QUEUE", "is required"),
                arguments(with("DELAYQ_QUEUE", "Orders_EU"), "DELAYQ_QUEUE", "lower-case DNS label"),
                arguments(with("DELAYQ_QUEUE", "q".repeat(41)), "DELAYQ_QUEUE", "at most 40 characters"),
                arguments(with("DELAYQ_SHARDS", null), "DELAYQ_SHARDS", "is required"),
                arguments(with("DELAYQ_SHARDS", "four"), "DELAYQ_SHARDS", "must be a whole number, got 'four'"),
                arguments(with("DELAYQ_SHARDS", "0"), "DELAYQ_SHARDS", "must be between 1 and 1024, got 0"),
                arguments(with("DELAYQ_SHARDS", "1025"), "DELAYQ_SHARDS", "must be between 1 and 1024"),
                arguments(with("DELAYQ_SHARD_FROM", "-1"), "DELAYQ_SHARD_FROM", "must be between 0 and 3, got -1"),
                arguments(with("DELAYQ_SHARD_FROM", "4"), "DELAYQ_SHARD_FROM", "must be between 0 and 3, got 4"),
                arguments(with("DELAYQ_SHARD_TO", "4"), "DELAYQ_SHARD_TO", "must be between 0 and 3, got 4"),
                arguments(with("DELAYQ_SHARD_FROM", "3", "DELAYQ_SHARD_TO", "1"), "DELAYQ_SHARD_TO",
                        "must be at least DELAYQ_SHARD_FROM (3), got 1"),
                arguments(with("DELAYQ_BATCH_SIZE", "lots"), "DELAYQ_BATCH_SIZE", "must be a whole number"),
                arguments(with("DELAYQ_BATCH_SIZE", "0"), "DELAYQ_BATCH_SIZE", "must be between 1 and 1000, got 0"),
                arguments(with("DELAYQ_BATCH_SIZE", "1001"), "DELAYQ_BATCH_SIZE", "must be between 1 and 1000, got 1001"),
                arguments(with("DELAYQ_POLL_INTERVAL", "soon"), "DELAYQ_POLL_INTERVAL", "must be a duration like 500ms, 30s, 5m, 2h, 14d or PT30S, got 'soon'"),
                arguments(with("DELAYQ_POLL_INTERVAL", "1.5s"), "DELAYQ_POLL_INTERVAL", "must be a duration"),
                arguments(with("DELAYQ_POLL_INTERVAL", "5ms"), "DELAYQ_POLL_INTERVAL", "must be between 10ms and 10m, got 5ms"),
                arguments(with("DELAYQ_LEASE", "30"), "DELAYQ_LEASE", "must be a duration"),
                arguments(with("DELAYQ_LEASE", "50ms"), "DELAYQ_LEASE", "must be between 100ms and 12h"),
                arguments(with("DELAYQ_LEASE", "13h"), "DELAYQ_LEASE", "must be between 100ms and 12h"),
                arguments(with("DELAYQ_LEASE", "99999999999999999999s"), "DELAYQ_LEASE", "99999999999999999999s"),
                arguments(with("DELAYQ_LEASE", "999999999999999d"), "DELAYQ_LEASE", "999999999999999d"),
                arguments(with("DELAYQ_CONCURRENCY", "0"), "DELAYQ_CONCURRENCY", "must be between 1 and 4096"),
                arguments(with("DELAYQ_CONCURRENCY", "many"), "DELAYQ_CONCURRENCY", "must be a whole number"),
                arguments(with("DELAYQ_RETRY_MAX_ATTEMPTS", "0"), "DELAYQ_RETRY_MAX_ATTEMPTS", "must be between 1 and 1000"),
                arguments(with("DELAYQ_RETRY_MAX_ATTEMPTS", "five"), "DELAYQ_RETRY_MAX_ATTEMPTS", "must be a whole number"),
                arguments(with("DELAYQ_RETRY_BACKOFF_INITIAL", "-1s"), "DELAYQ_RETRY_BACKOFF_INITIAL", "must be a duration"),
                arguments(with("DELAYQ_RETRY_BACKOFF_INITIAL", "8d"), "DELAYQ_RETRY_BACKOFF_INITIAL", "must be between 0s and 7d"),
                arguments(with("DELAYQ_RETRY_BACKOFF_MAX", "31d"), "DELAYQ_RETRY_BACKOFF_MAX", "must be between 0s and 30d"),
                arguments(with("DELAYQ_RETRY_BACKOFF_INITIAL", "2s", "DELAYQ_RETRY_BACKOFF_MAX", "1s"), "DELAYQ_RETRY_BACKOFF_MAX",
                        "must be at least DELAYQ_RETRY_BACKOFF_INITIAL (2s)"),
                arguments(with("DELAYQ_RETRY_BACKOFF_MULTIPLIER", "0.5"), "DELAYQ_RETRY_BACKOFF_MULTIPLIER", "must be between 1.0 and 100.0, got 0.5"),
                arguments(with("DELAYQ_RETRY_BACKOFF_MULTIPLIER", "double"), "DELAYQ_RETRY_BACKOFF_MULTIPLIER", "must be a number, got 'double'"),
                arguments(with("DELAYQ_RETRY_JITTER", "1.5"), "DELAYQ_RETRY_JITTER", "must be between 0.0 and 1.0"),
                arguments(with("DELAYQ_RETRY_JITTER", "NaN"), "DELAYQ_RETRY_JITTER", "must be between 0.0 and 1.0"),
                arguments(with("DELAYQ_DEAD_LETTER_MAX_COUNT", "-1"), "DELAYQ_DEAD_LETTER_MAX_COUNT", "must be between 0 and"),
                arguments(with("DELAYQ_DEAD_LETTER_MAX_COUNT", "all"), "DELAYQ_DEAD_LETTER_MAX_COUNT", "must be a whole number"),
                arguments(with("DELAYQ_DEAD_LETTER_MAX_AGE", "forever"), "DELAYQ_DEAD_LETTER_MAX_AGE", "must be a duration"),
                arguments(with("DELAYQ_RATE_LIMIT", "-5"), "DELAYQ_RATE_LIMIT", "must be between 0.0 and 1000000.0, got -5"),
                arguments(with("DELAYQ_RATE_LIMIT", "fast"), "DELAYQ_RATE_LIMIT", "must be a number"),
                arguments(with("DELAYQ_RATE_LIMIT", "10", "DELAYQ_RATE_BURST", "0"), "DELAYQ_RATE_BURST", "must be between 1 and"),
                arguments(with("DELAYQ_RATE_BURST", "x"), "DELAYQ_RATE_BURST", "must be a whole number"),
                arguments(with("DELAYQ_DELIVERY", "kafka"), "DELAYQ_DELIVERY", "must be handler, webhook, stream or the name of an installed delivery module (installed: none), got 'kafka'"),
                arguments(with("DELAYQ_DELIVERY", "webhook"), "DELAYQ_WEBHOOK_URL", "is required when DELAYQ_DELIVERY=webhook"),
                arguments(with("DELAYQ_DELIVERY", "webhook", "DELAYQ_WEBHOOK_URL", "ftp://files/x"), "DELAYQ_WEBHOOK_URL", "must be an http(s) URL"),
                arguments(with("DELAYQ_DELIVERY", "webhook", "DELAYQ_WEBHOOK_URL", "/tasks"), "DELAYQ_WEBHOOK_URL", "must be an http(s) URL"),
                arguments(with("DELAYQ_DELIVERY", "webhook", "DELAYQ_WEBHOOK_URL", "http://exa mple/"), "DELAYQ_WEBHOOK_URL", "must be an http(s) URL"),
                arguments(with("DELAYQ_WEBHOOK_TIMEOUT", "0ms"), "DELAYQ_WEBHOOK_TIMEOUT", "must be between 1ms and 30m"),
                arguments(with("DELAYQ_WEBHOOK_TIMEOUT", "later"), "DELAYQ_WEBHOOK_TIMEOUT", "must be a duration"),
                arguments(with("DELAYQ_DELIVERY", "stream"), "DELAYQ_STREAM_KEY", "is required when DELAYQ_DELIVERY=stream"),
                arguments(with("DELAYQ_STREAM_MAXLEN", "-1"), "DELAYQ_STREAM_MAXLEN", "must be between 0 and"),
                arguments(with("DELAYQ_HTTP_PORT", "65536"), "DELAYQ_HTTP_PORT", "must be between 0 and 65535, got 65536"),
                arguments(with("DELAYQ_HTTP_PORT", "http"), "DELAYQ_HTTP_PORT", "must be a whole number"),
                arguments(with("DELAYQ_SHUTDOWN_GRACE", "2h"), "DELAYQ_SHUTDOWN_GRACE", "must be between 0s and 1h, got 2h"),
                arguments(with("DELAYQ_HANDLER_TIMEOUT", "50ms"), "DELAYQ_HANDLER_TIMEOUT", "must be 0s (no deadline) or at least 100ms, got 50ms"),
                arguments(with("DELAYQ_HANDLER_TIMEOUT", "8d"), "DELAYQ_HANDLER_TIMEOUT", "must be between 0s and 7d"),
                arguments(with("DELAYQ_HANDLER_TIMEOUT", "soon"), "DELAYQ_HANDLER_TIMEOUT", "must be a duration"),
                arguments(with("DELAYQ_CLAIM_AHEAD", "4s"), "DELAYQ_CLAIM_AHEAD", "must be 0s (off) or at most a tenth of DELAYQ_LEASE (3s), got 4s"),
                arguments(with("DELAYQ_CLAIM_AHEAD", "-1ms"), "DELAYQ_CLAIM_AHEAD", "must be"),
                arguments(with("DELAYQ_CLAIM_AHEAD", "11s"), "DELAYQ_CLAIM_AHEAD", "must be between 0s and 10s"),
                arguments(with("DELAYQ_SHUTDOWN_GRACE", "a while"), "DELAYQ_SHUTDOWN_GRACE", "must be a duration"),
                arguments(with("DELAYQ_SCHEDULE_INTERVAL", "11m"), "DELAYQ_SCHEDULE_INTERVAL", "must be between 0s and 10m"),
                arguments(with("DELAYQ_SCHEDULE_INTERVAL", "1m", "DELAYQ_SCHEDULE_HORIZON", "90s"), "DELAYQ_SCHEDULE_HORIZON",
                        "must be at least twice DELAYQ_SCHEDULE_INTERVAL plus 1s (121s)"),
                arguments(with("DELAYQ_SCHEDULE_MISFIRE_THRESHOLD", "0s"), "DELAYQ_SCHEDULE_MISFIRE_THRESHOLD", "must be between 1s and 1d"),
                arguments(with("DELAYQ_CONFIG_FILE", "/nonexistent/delayq.properties"), "DELAYQ_CONFIG_FILE",
                        "must name a readable properties file"));
    }

    @ParameterizedTest(name = "{1}: {2}")
    @MethodSource("brokenRules")
    void aBrokenRuleNamesTheVariableAndTheRule(Map<String, String> env, String variable, String rule) {
        assertThatThrownBy(() -> WorkerConfig.fromEnv(env))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo(variable))
                .hasMessageStartingWith(variable + ": ")
                .hasMessageContaining(rule);
    }

    @Test
    void theDefaultsAreTheOnesTheContractDocuments() {
        WorkerConfig c = WorkerConfig.fromEnv(base());
        assertThat(c.redisUrl()).isEqualTo("redis://redis:6379");
        assertThat(c.queue()).isEqualTo("orders");
        assertThat(c.shards()).isEqualTo(4);
        assertThat(c.range()).isEqualTo(new ShardRange(0, 3));
        assertThat(c.batchSize()).isEqualTo(500);
        assertThat(c.pollInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.lease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.concurrency()).isEqualTo(16);
        assertThat(c.retry()).isEqualTo(new RetryPolicy(5, Duration.ofSeconds(1), Duration.ofMinutes(5), 2.0, 0.2));
        assertThat(c.deadLetters().maxCount()).isEqualTo(100_000);
        assertThat(c.deadLetters().maxAge()).isEqualTo(Duration.ofDays(14));
        assertThat(c.rateLimit()).isEqualTo(RateLimit.NONE);
        assertThat(c.delivery()).isEqualTo(DeliveryKind.HANDLER);
        assertThat(c.handlerClass()).isNull();
        assertThat(c.webhookUrl()).isNull();
        assertThat(c.webhookTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.webhookSecret()).isNull();
        assertThat(c.streamKey()).isNull();
        assertThat(c.streamMaxLen()).isZero();
        assertThat(c.httpPort()).isEqualTo(8080);
        assertThat(c.shutdownGrace()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.handlerTimeout()).isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void theSchedulePlannerSettings() {
        WorkerConfig c = WorkerConfig.fromEnv(base());
        assertThat(c.scheduleInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.scheduleRules().horizon()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.scheduleRules().misfireThreshold()).isEqualTo(Duration.ofMinutes(1));
        WorkerConfig set = WorkerConfig.fromEnv(with("DELAYQ_SCHEDULE_INTERVAL", "0s", "DELAYQ_SCHEDULE_HORIZON", "10m",
                "DELAYQ_SCHEDULE_MISFIRE_THRESHOLD", "5m"));
        assertThat(set.scheduleInterval()).isZero();
        assertThat(set.scheduleRules().horizon()).isEqualTo(Duration.ofMinutes(10));
        assertThat(set.scheduleRules().misfireThreshold()).isEqualTo(Duration.ofMinutes(5));
        assertThat(set.describe()).contains("schedules=off");
    }

    @Test
    void claimingAheadIsOnByDefaultShrinksUnderAShortLeaseAndTurnsOffWithZero() {
        assertThat(WorkerConfig.fromEnv(base()).claimAhead()).isEqualTo(Duration.ofMillis(100));
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_LEASE", "500ms")).claimAhead()).isEqualTo(Duration.ofMillis(50));
        WorkerConfig off = WorkerConfig.fromEnv(with("DELAYQ_CLAIM_AHEAD", "0s"));
        assertThat(off.claimAhead()).isZero();
        assertThat(off.describe()).contains("claimAhead=off");
    }

    @Test
    void aHandlerTimeoutOfZeroTurnsTheDeadlineOff() {
        WorkerConfig c = WorkerConfig.fromEnv(with("DELAYQ_HANDLER_TIMEOUT", "0s"));
        assertThat(c.handlerTimeout()).isZero();
        assertThat(c.describe()).contains("handlerTimeout=none");
    }

    @Test
    void everyVariableIsRead() {
        WorkerConfig c = WorkerConfig.fromEnv(with(
                "DELAYQ_SHARDS", " 16 ",
                "DELAYQ_SHARD_FROM", "4",
                "DELAYQ_SHARD_TO", "7",
                "DELAYQ_BATCH_SIZE", "250",
                "DELAYQ_POLL_INTERVAL", "500ms",
                "DELAYQ_LEASE", "PT45S",
                "DELAYQ_CONCURRENCY", "64",
                "DELAYQ_RETRY_MAX_ATTEMPTS", "8",
                "DELAYQ_RETRY_BACKOFF_INITIAL", "2s",
                "DELAYQ_RETRY_BACKOFF_MAX", "2h",
                "DELAYQ_RETRY_BACKOFF_MULTIPLIER", "3.5",
                "DELAYQ_RETRY_JITTER", "0",
                "DELAYQ_DEAD_LETTER_MAX_COUNT", "500",
                "DELAYQ_DEAD_LETTER_MAX_AGE", "3d",
                "DELAYQ_RATE_LIMIT", "50.5",
                "DELAYQ_RATE_BURST", "10",
                "DELAYQ_DELIVERY", "WebHook",
                "DELAYQ_HANDLER", "com.example.OrderHandler",
                "DELAYQ_WEBHOOK_URL", "https://billing.internal/hooks/delayq",
                "DELAYQ_WEBHOOK_TIMEOUT", "5m",
                "DELAYQ_WEBHOOK_SECRET", "s3cret",
                "DELAYQ_STREAM_KEY", "orders:ready",
                "DELAYQ_STREAM_MAXLEN", "100000",
                "DELAYQ_HTTP_PORT", "9090",
                "DELAYQ_SHUTDOWN_GRACE", "0s"));
        assertThat(c.shards()).isEqualTo(16);
        assertThat(c.range()).isEqualTo(new ShardRange(4, 7));
        assertThat(c.batchSize()).isEqualTo(250);
        assertThat(c.pollInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.lease()).isEqualTo(Duration.ofSeconds(45));
        assertThat(c.concurrency()).isEqualTo(64);
        assertThat(c.retry()).isEqualTo(new RetryPolicy(8, Duration.ofSeconds(2), Duration.ofHours(2), 3.5, 0.0));
        assertThat(c.deadLetters().maxCount()).isEqualTo(500);
        assertThat(c.deadLetters().maxAge()).isEqualTo(Duration.ofDays(3));
        assertThat(c.rateLimit()).isEqualTo(new RateLimit(50.5, 10));
        assertThat(c.delivery()).isEqualTo(DeliveryKind.WEBHOOK);
        assertThat(c.handlerClass()).isEqualTo("com.example.OrderHandler");
        assertThat(c.webhookUrl()).isEqualTo(URI.create("https://billing.internal/hooks/delayq"));
        assertThat(c.webhookTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.webhookSecret()).isEqualTo("s3cret");
        assertThat(c.streamKey()).isEqualTo("orders:ready");
        assertThat(c.streamMaxLen()).isEqualTo(100_000);
        assertThat(c.httpPort()).isEqualTo(9090);
        assertThat(c.shutdownGrace()).isZero();
        assertThat(c.describe()).doesNotContain("s3cret");
    }

    @Test
    void durationsAcceptEveryDocumentedForm() {
        Map<String, Duration> forms = Map.of("500ms", Duration.ofMillis(500), "30s", Duration.ofSeconds(30), "5m", Duration.ofMinutes(5),
                "2h", Duration.ofHours(2), "1d", Duration.ofDays(1), "PT30S", Duration.ofSeconds(30), "PT1H30M", Duration.ofMinutes(90));
        forms.forEach((text, expected) -> assertThat(WorkerConfig.fromEnv(with("DELAYQ_RETRY_BACKOFF_INITIAL", "0s",
                        "DELAYQ_RETRY_BACKOFF_MAX", text)).retry().max())
                .as(text).isEqualTo(expected));
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_DEAD_LETTER_MAX_AGE", "14d")).deadLetters().maxAge()).isEqualTo(Duration.ofDays(14));
    }

    @Test
    void theRateBurstDefaultsToOneSecondOfRate() {
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_RATE_LIMIT", "20")).rateLimit()).isEqualTo(new RateLimit(20, 20));
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_RATE_LIMIT", "0.5")).rateLimit()).isEqualTo(new RateLimit(0.5, 1));
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_RATE_LIMIT", "0")).rateLimit().enabled()).isFalse();
    }

    @Test
    void groupWeightsAreReadAndABadOneNamesTheSettingAndTheRule() {
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_GROUP_WEIGHTS", "paying=3,trial=1")).groupWeights().weights())
                .containsExactly(Map.entry("paying", 3), Map.entry("trial", 1));
        assertThat(WorkerConfig.fromEnv(with()).groupWeights().any()).isFalse();
        assertThatThrownBy(() -> WorkerConfig.fromEnv(with("DELAYQ_GROUP_WEIGHTS", "paying=101")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("DELAYQ_GROUP_WEIGHTS").hasMessageContaining("weight of group paying must be 1 to 100, got 101");
    }

    @Test
    void groupCapsAreReadAndABadOneNamesTheSettingAndTheRule() {
        GroupCaps caps = WorkerConfig.fromEnv(with("DELAYQ_GROUP_MAX_RUNNING", "5", "DELAYQ_GROUP_MAX_RUNNING_OVERRIDES", "payouts=1")).groupCaps();
        assertThat(caps.capOf("payouts")).isEqualTo(1);
        assertThat(caps.capOf("anyone")).isEqualTo(5);
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_GROUP_MAX_RUNNING_OVERRIDES", "payouts=1")).groupCaps().capOf("anyone")).isZero();
        assertThat(WorkerConfig.fromEnv(with()).groupCaps().any()).isFalse();
        assertThatThrownBy(() -> WorkerConfig.fromEnv(with("DELAYQ_GROUP_MAX_RUNNING_OVERRIDES", "payouts=0")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("DELAYQ_GROUP_MAX_RUNNING_OVERRIDES").hasMessageContaining("cap of group payouts must be 1 to 10000, got 0");
        assertThatThrownBy(() -> WorkerConfig.fromEnv(with("DELAYQ_GROUP_MAX_RUNNING", "-1")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("DELAYQ_GROUP_MAX_RUNNING");
        assertThatThrownBy(() -> WorkerConfig.fromEnv(with("DELAYQ_GROUP_MAX_RUNNING", "10001")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("DELAYQ_GROUP_MAX_RUNNING");
    }

    @Test
    void aGroupRateLimitIsReadBesideTheQueuesOwnAndItsBurstDefaultsToOneSecondOfIt() {
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_GROUP_RATE_LIMIT", "5")).rateLimit()).isEqualTo(new RateLimit(0, 0, 5, 5));
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_RATE_LIMIT", "100", "DELAYQ_GROUP_RATE_LIMIT", "2.5", "DELAYQ_GROUP_RATE_BURST", "40"))
                .rateLimit()).isEqualTo(new RateLimit(100, 100, 2.5, 40));
        assertThat(WorkerConfig.fromEnv(with()).rateLimit().groupsLimited()).isFalse();
        assertThatThrownBy(() -> WorkerConfig.fromEnv(with("DELAYQ_GROUP_RATE_LIMIT", "-1")))
                .hasMessageContaining("DELAYQ_GROUP_RATE_LIMIT");
        assertThatThrownBy(() -> WorkerConfig.fromEnv(with("DELAYQ_GROUP_RATE_LIMIT", "5", "DELAYQ_GROUP_RATE_BURST", "0")))
                .hasMessageContaining("DELAYQ_GROUP_RATE_BURST");
    }

    @Test
    void redisUrlFallsBackToRedisUrl() {
        Map<String, String> env = with("DELAYQ_REDIS_URL", null, "REDIS_URL", "redis://cache:6380");
        assertThat(WorkerConfig.fromEnv(env).redisUrl()).isEqualTo("redis://cache:6380");
    }

    @Test
    void credentialsFromTheirOwnVariablesAreMergedIntoTheUrl() {
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_REDIS_USERNAME", "app", "DELAYQ_REDIS_PASSWORD", "p@ss:w/rd %x")).redisUrl())
                .isEqualTo("redis://app:p%40ss%3Aw%2Frd%20%25x@redis:6379");
        // the variables win over credentials written in the URL
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_REDIS_URL", "rediss://old:oldpw@redis:6380/2",
                "DELAYQ_REDIS_USERNAME", "app", "DELAYQ_REDIS_PASSWORD", "new")).redisUrl())
                .isEqualTo("rediss://app:new@redis:6380/2");
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_REDIS_PASSWORD", "only-pw")).redisUrl()).isEqualTo("redis://:only-pw@redis:6379");
        // a user named in the URL keeps its name when only the password comes from a Secret
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_REDIS_URL", "redis://app@redis:6379", "DELAYQ_REDIS_PASSWORD", "pw")).redisUrl())
                .isEqualTo("redis://app:pw@redis:6379");
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_REDIS_URL", "redis-cluster://n1:7000,n2:7001",
                "DELAYQ_REDIS_USERNAME", "app", "DELAYQ_REDIS_PASSWORD", "pw")).redisUrl())
                .isEqualTo("redis-cluster://app:pw@n1:7000,n2:7001");
        assertThat(WorkerConfig.fromEnv(with("DELAYQ_REDIS_PASSWORD", "topsecret")).describe())
                .doesNotContain("topsecret").contains("redis://:***@redis:6379");
    }

    @Test
    void aUsernameWithoutAPasswordIsRefused() {
        assertThatThrownBy(() -> WorkerConfig.fromEnv(with("DELAYQ_REDIS_USERNAME", "app")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("DELAYQ_REDIS_USERNAME: needs DELAYQ_REDIS_PASSWORD too (Redis authenticates a user by its password)");
    }

    @Test
    void aConfigFileSuppliesValuesAndTheEnvironmentWins(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("delayq.properties");
        Files.writeString(file, String.join("\n",
                "# written by the operator",
                "DELAYQ_QUEUE=payouts",
                "DELAYQ_SHARDS=8",
                "DELAYQ_LEASE=45s",
                "DELAYQ_BATCH_SIZE=50",
                "DELAYQ_DELIVERY=stream",
                "DELAYQ_STREAM_KEY=payouts:ready"));
        Map<String, String> env = new HashMap<>();
        env.put("DELAYQ_CONFIG_FILE", file.toString());
        env.put("DELAYQ_REDIS_URL", "redis://redis:6379");
        env.put("DELAYQ_BATCH_SIZE", "20");
        // an empty variable (a template that left it unset) does not hide the file's value
        env.put("DELAYQ_LEASE", "");
        WorkerConfig c = WorkerConfig.fromEnv(env);
        assertThat(c.queue()).isEqualTo("payouts");
        assertThat(c.shards()).isEqualTo(8);
        assertThat(c.lease()).isEqualTo(Duration.ofSeconds(45));
        assertThat(c.batchSize()).isEqualTo(20);
        assertThat(c.delivery()).isEqualTo(DeliveryKind.STREAM);
        assertThat(c.streamKey()).isEqualTo("payouts:ready");
    }

    @Test
    void aBadValueInTheConfigFileNamesItsVariable(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("delayq.properties");
        Files.writeString(file, "DELAYQ_QUEUE=payouts\nDELAYQ_SHARDS=8\nDELAYQ_CONCURRENCY=lots\n");
        Map<String, String> env = Map.of("DELAYQ_CONFIG_FILE", file.toString(), "DELAYQ_REDIS_URL", "redis://redis:6379");
        assertThatThrownBy(() -> WorkerConfig.fromEnv(env)).isInstanceOf(ConfigException.class)
                .hasMessage("DELAYQ_CONCURRENCY: must be a whole number, got 'lots'");
        Map<String, String> dirInstead = Map.of("DELAYQ_CONFIG_FILE", dir.toString(), "DELAYQ_REDIS_URL", "redis://redis:6379");
        assertThatThrownBy(() -> WorkerConfig.fromEnv(dirInstead)).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("DELAYQ_CONFIG_FILE: must name a readable properties file");
    }
}
