package io.delayq.console;

import io.delayq.DurationText;
import io.delayq.InvalidInputException;
import io.delayq.queue.QueueName;
import io.delayq.redis.RedisUrls;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * How a console runs. {@code actionToken} null or blank: read-only (every action answers 403).
 * {@code queues} empty: the console lists every queue it finds ({@code dq:{*}:meta}).
 *
 * @param sampleEvery how often the rolling history samples each queue's backlog
 * @param history     how much history it keeps (the plot's width)
 */
public record ConsoleSettings(String redisUrl, String host, int port, String actionToken, List<String> queues,
                              Duration sampleEvery, Duration history) {
    public static final int DEFAULT_PORT = 8090;

    public ConsoleSettings {
        if (redisUrl == null || redisUrl.isBlank()) {
            throw new InvalidInputException("DELAYQ_REDIS_URL", "a Redis URL is required");
        }
        if (port < 0 || port > 65535) {
            throw new InvalidInputException("DELAYQ_CONSOLE_PORT", "must be between 0 and 65535, got " + port);
        }
        queues = List.copyOf(queues == null ? List.of() : queues);
        queues.forEach(QueueName::require);
        if (sampleEvery == null || sampleEvery.toMillis() < 100) {
            throw new InvalidInputException("DELAYQ_CONSOLE_SAMPLE_EVERY", "must be at least 100ms, got " + sampleEvery);
        }
        if (history == null || history.compareTo(sampleEvery) < 0) {
            throw new InvalidInputException("DELAYQ_CONSOLE_HISTORY", "must be at least the sample interval, got " + history);
        }
        actionToken = actionToken == null || actionToken.isBlank() ? null : actionToken;
    }

    public static ConsoleSettings local(String redisUrl, int port, String actionToken) {
        return new ConsoleSettings(redisUrl, "127.0.0.1", port, actionToken, List.of(), Duration.ofSeconds(10), Duration.ofHours(1));
    }

    /** DELAYQ_REDIS_URL (or REDIS_URL), DELAYQ_CONSOLE_HOST, _PORT, _TOKEN, _QUEUES (comma-separated), _SAMPLE_EVERY, _HISTORY. */
    public static ConsoleSettings fromEnv(Map<String, String> env) {
        String url = first(env, "DELAYQ_REDIS_URL", "REDIS_URL");
        if (url != null) {
            // in the cluster the URL has no password: the Secret fills these two, as for the workers
            url = RedisUrls.withCredentials(url, first(env, "DELAYQ_REDIS_USERNAME"), first(env, "DELAYQ_REDIS_PASSWORD"));
        }
        String port = env.getOrDefault("DELAYQ_CONSOLE_PORT", String.valueOf(DEFAULT_PORT));
        int p;
        try {
            p = Integer.parseInt(port.trim());
        } catch (NumberFormatException e) {
            throw new InvalidInputException("DELAYQ_CONSOLE_PORT", "must be a whole number, got '" + port + "'");
        }
        String queues = env.getOrDefault("DELAYQ_CONSOLE_QUEUES", "");
        return new ConsoleSettings(url, env.getOrDefault("DELAYQ_CONSOLE_HOST", "127.0.0.1"), p, env.get("DELAYQ_CONSOLE_TOKEN"),
                Arrays.stream(queues.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList(),
                duration(env, "DELAYQ_CONSOLE_SAMPLE_EVERY", "10s"), duration(env, "DELAYQ_CONSOLE_HISTORY", "1h"));
    }

    private static Duration duration(Map<String, String> env, String name, String fallback) {
        return DurationText.require(name, env.getOrDefault(name, fallback));
    }

    public boolean readOnly() {
        return actionToken == null;
    }

    private static String first(Map<String, String> env, String... names) {
        for (String n : names) {
            String v = env.get(n);
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return null;
    }
}
