package io.delayq.console;

import io.delayq.DurationText;
import io.delayq.InvalidInputException;
import io.delayq.queue.QueueName;
import io.delayq.redis.RedisUrls;
import io.delayq.settings.ConsoleVariables;
import io.delayq.settings.Setting;
import io.delayq.settings.Settings;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.delayq.settings.ConsoleVariables.ALLOWED_HOSTS;
import static io.delayq.settings.ConsoleVariables.HISTORY;
import static io.delayq.settings.ConsoleVariables.HOST;
import static io.delayq.settings.ConsoleVariables.MAX_QUEUES;
import static io.delayq.settings.ConsoleVariables.PORT;
import static io.delayq.settings.ConsoleVariables.QUEUES;
import static io.delayq.settings.ConsoleVariables.SAMPLE_EVERY;
import static io.delayq.settings.ConsoleVariables.TOKEN;
import static io.delayq.settings.ConsoleVariables.TRACE_URL;
import static io.delayq.settings.WorkerSettings.REDIS_PASSWORD;
import static io.delayq.settings.WorkerSettings.REDIS_URL;
import static io.delayq.settings.WorkerSettings.REDIS_URL_FALLBACK;
import static io.delayq.settings.WorkerSettings.REDIS_USERNAME;

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
    public static final int DEFAULT_PORT = ConsoleVariables.DEFAULT_PORT;
    public static final int DEFAULT_MAX_QUEUES = ConsoleVariables.DEFAULT_MAX_QUEUES;
    /** Segments of letters, digits and - _ ~ . (not starting with a dot: no "." or ".." segment). */
    private static final java.util.regex.Pattern PATH_FORM = java.util.regex.Pattern.compile("/([A-Za-z0-9_~-][A-Za-z0-9._~-]*/)*");
    private static final java.util.regex.Pattern HOST_FORM = java.util.regex.Pattern.compile(
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
            if (!HOST_FORM.matcher(h).matches()) {
                throw new InvalidInputException(ALLOWED_HOSTS.name(), "'" + h + "' is not a host name, host:port, [IPv6] or *");
            }
        }
        basePath = basePath == null || basePath.isBlank() ? "/" : basePath.trim();
        if (!basePath.endsWith("/")) {
            basePath = basePath + "/";
        }
        if (!PATH_FORM.matcher(basePath).matches()) {
            throw new InvalidInputException(ConsoleVariables.PATH.name(), "must be an absolute path of plain segments (letters, digits, - _ ~ ., "
                    + "no '.' or '..'), e.g. /delayq/, got '" + basePath + "'");
        }
        if (maxQueues < MAX_QUEUES.min() || maxQueues > MAX_QUEUES.max()) {
            throw new InvalidInputException(MAX_QUEUES.name(), "must be between " + MAX_QUEUES.min() + " and " + MAX_QUEUES.max() + ", got " + maxQueues);
        }
        if (redisUrl == null || redisUrl.isBlank()) {
            throw new InvalidInputException(REDIS_URL.name(), "a Redis URL is required");
        }
        if (port < PORT.min() || port > PORT.max()) {
            throw new InvalidInputException(PORT.name(), "must be between " + PORT.min() + " and " + PORT.max() + ", got " + port);
        }
        queues = List.copyOf(queues == null ? List.of() : queues);
        queues.forEach(QueueName::require);
        if (sampleEvery == null || sampleEvery.compareTo(SAMPLE_EVERY.min()) < 0 || sampleEvery.compareTo(SAMPLE_EVERY.max()) > 0) {
            throw new InvalidInputException(SAMPLE_EVERY.name(), "must be between " + DurationText.format(SAMPLE_EVERY.min()) + " and "
                    + DurationText.format(SAMPLE_EVERY.max()) + ", got " + (sampleEvery == null ? "none" : DurationText.format(sampleEvery)));
        }
        if (history == null || history.compareTo(sampleEvery) < 0 || history.compareTo(HISTORY.max()) > 0) {
            throw new InvalidInputException(HISTORY.name(), "must be at least the sample interval (" + SAMPLE_EVERY.name() + ") and at most "
                    + DurationText.format(HISTORY.max()) + ", got " + (history == null ? "none" : DurationText.format(history)));
        }
        actionToken = actionToken == null || actionToken.isBlank() ? null : actionToken;
        traceUrl = traceUrl == null || traceUrl.isBlank() ? null : traceUrl.trim();
        if (traceUrl != null && (!traceUrl.matches("https?://[^\\s\"<>]+") || !traceUrl.contains("{traceId}"))) {
            throw new InvalidInputException(TRACE_URL.name(), "must be an http:// or https:// URL with {traceId} where the "
                    + "trace id goes, e.g. https://jaeger.example/trace/{traceId}, got '" + traceUrl + "'");
        }
    }

    public static ConsoleSettings local(String redisUrl, int port, String actionToken) {
        return new ConsoleSettings(redisUrl, ConsoleVariables.DEFAULT_HOST, port, actionToken, List.of(), SAMPLE_EVERY.fallback(), HISTORY.fallback());
    }

    /**
     * From the environment: the Redis connection by the worker's names ({@code DELAYQ_REDIS_URL} or {@code REDIS_URL}, the
     * credentials variables), the rest by {@link ConsoleVariables}; typed values are checked against their bounds there.
     */
    public static ConsoleSettings fromEnv(Map<String, String> env) {
        Settings settings = Settings.fromEnvironmentOnly(env);
        String url = settings.string(REDIS_URL.name(), settings.string(REDIS_URL_FALLBACK));
        if (url != null) {
            // in the cluster the URL has no password: the Secret fills these two, as for the workers
            url = RedisUrls.withCredentials(url, settings.string(REDIS_USERNAME), settings.string(REDIS_PASSWORD));
        }
        return new ConsoleSettings(url, settings.string(HOST.name(), ConsoleVariables.DEFAULT_HOST), settings.getInt(PORT),
                settings.string(TOKEN), list(settings, QUEUES), settings.get(SAMPLE_EVERY), settings.get(HISTORY),
                list(settings, ALLOWED_HOSTS), settings.string(ConsoleVariables.PATH), settings.getInt(MAX_QUEUES),
                settings.string(TRACE_URL));
    }

    private static List<String> list(Settings settings, Setting.Text setting) {
        String text = settings.string(setting);
        return text == null ? List.of() : Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    public boolean readOnly() {
        return actionToken == null;
    }
}
