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
 * @param sampleEvery  how often the rolling history samples each queue's backlog
 * @param history      how much history it keeps (the plot's width)
 * @param allowedHosts Host header values it answers to ({@code name} any port, {@code name:port} that port);
 *                     empty: loopback names only when bound to loopback, any name otherwise
 * @param basePath     the path it is served under, e.g. {@code /delayq/} behind an Ingress path (absolute, ends with '/')
 * @param maxQueues    most queues a {@code SCAN} lists (beyond it the list says it is truncated)
 * @param traceUrl     a trace viewer's page of one trace, with {@code {traceId}} where the id goes
 *                     (e.g. {@code https://jaeger.example/trace/{traceId}}): the task page links a task's trace id to it; null: no link
 */
public record ConsoleSettings(String redisUrl, String host, int port, String actionToken, List<String> queues,
                              Duration sampleEvery, Duration history, List<String> allowedHosts, String basePath, int maxQueues,
                              String traceUrl) {
    public static final int DEFAULT_PORT = 8090;
    public static final int DEFAULT_MAX_QUEUES = 500;
    /** Segments of letters, digits and - _ ~ . (not starting with a dot: no "." or ".." segment). */
    private static final java.util.regex.Pattern PATH = java.util.regex.Pattern.compile("/([A-Za-z0-9_~-][A-Za-z0-9._~-]*/)*");
    private static final java.util.regex.Pattern HOST = java.util.regex.Pattern.compile(
            "(\\*|[a-z0-9]([-a-z0-9.]*[a-z0-9])?|\\[[0-9a-f:.]+\\])(:[0-9]{1,5})?");

    public ConsoleSettings(String redisUrl, String host, int port, String actionToken, List<String> queues, Duration sampleEvery,
                           Duration history) {
        this(redisUrl, host, port, actionToken, queues, sampleEvery, history, List.of(), "/", DEFAULT_MAX_QUEUES);
    }

    public ConsoleSettings(String redisUrl, String host, int port, String actionToken, List<String> queues, Duration sampleEvery,
                           Duration history, List<String> allowedHosts, String basePath, int maxQueues) {
        this(redisUrl, host, port, actionToken, queues, sampleEvery, history, allowedHosts, basePath, maxQueues, null);
    }

    public ConsoleSettings {
        allowedHosts = List.copyOf(allowedHosts == null ? List.of() : allowedHosts.stream().map(h -> h.trim().toLowerCase(java.util.Locale.ROOT))
                .filter(h -> !h.isEmpty()).toList());
        for (String h : allowedHosts) {
            if (!HOST.matcher(h).matches()) {
                throw new InvalidInputException("DELAYQ_CONSOLE_ALLOWED_HOSTS", "'" + h + "' is not a host name, host:port, [IPv6] or *");
            }
        }
        basePath = basePath == null || basePath.isBlank() ? "/" : basePath.trim();
        if (!basePath.endsWith("/")) {
            basePath = basePath + "/";
        }
        if (!PATH.matcher(basePath).matches()) {
            throw new InvalidInputException("DELAYQ_CONSOLE_PATH", "must be an absolute path of plain segments (letters, digits, - _ ~ ., "
                    + "no '.' or '..'), e.g. /delayq/, got '" + basePath + "'");
        }
        if (maxQueues < 1 || maxQueues > 100_000) {
            throw new InvalidInputException("DELAYQ_CONSOLE_MAX_QUEUES", "must be between 1 and 100000, got " + maxQueues);
        }
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
        traceUrl = traceUrl == null || traceUrl.isBlank() ? null : traceUrl.trim();
        if (traceUrl != null && (!traceUrl.matches("https?://[^\\s\"<>]+") || !traceUrl.contains("{traceId}"))) {
            throw new InvalidInputException("DELAYQ_CONSOLE_TRACE_URL", "must be an http:// or https:// URL with {traceId} where the "
                    + "trace id goes, e.g. https://jaeger.example/trace/{traceId}, got '" + traceUrl + "'");
        }
    }

    public static ConsoleSettings local(String redisUrl, int port, String actionToken) {
        return new ConsoleSettings(redisUrl, "127.0.0.1", port, actionToken, List.of(), Duration.ofSeconds(10), Duration.ofHours(1));
    }

    /** DELAYQ_REDIS_URL (or REDIS_URL), DELAYQ_CONSOLE_HOST, _PORT, _TOKEN, _QUEUES (comma-separated), _SAMPLE_EVERY, _HISTORY, _TRACE_URL. */
    public static ConsoleSettings fromEnv(Map<String, String> env) {
        String url = first(env, "DELAYQ_REDIS_URL", "REDIS_URL");
        if (url != null) {
            // in the cluster the URL has no password: the Secret fills these two, as for the workers
            url = RedisUrls.withCredentials(url, first(env, "DELAYQ_REDIS_USERNAME"), first(env, "DELAYQ_REDIS_PASSWORD"));
        }
        return new ConsoleSettings(url, env.getOrDefault("DELAYQ_CONSOLE_HOST", "127.0.0.1"),
                whole(env, "DELAYQ_CONSOLE_PORT", DEFAULT_PORT), env.get("DELAYQ_CONSOLE_TOKEN"), list(env, "DELAYQ_CONSOLE_QUEUES"),
                duration(env, "DELAYQ_CONSOLE_SAMPLE_EVERY", "10s"), duration(env, "DELAYQ_CONSOLE_HISTORY", "1h"),
                list(env, "DELAYQ_CONSOLE_ALLOWED_HOSTS"), env.get("DELAYQ_CONSOLE_PATH"), whole(env, "DELAYQ_CONSOLE_MAX_QUEUES", DEFAULT_MAX_QUEUES),
                env.get("DELAYQ_CONSOLE_TRACE_URL"));
    }

    private static List<String> list(Map<String, String> env, String name) {
        return Arrays.stream(env.getOrDefault(name, "").split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static int whole(Map<String, String> env, String name, int fallback) {
        String text = env.get(name);
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new InvalidInputException(name, "must be a whole number, got '" + text + "'");
        }
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
