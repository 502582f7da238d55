package io.delayq.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.console.actions.ActionLog;
import io.delayq.console.actions.Actions;
import io.delayq.console.history.BacklogHistory;
import io.delayq.console.history.HistorySampler;
import io.delayq.console.http.ConsoleHttp;
import io.delayq.console.queues.QueueDirectory;
import io.delayq.console.queues.QueueViews;
import io.delayq.console.safety.SignInThrottle;
import io.delayq.console.schedules.ScheduleViews;
import io.delayq.console.safety.Sessions;
import io.delayq.console.tasks.TaskViews;
import io.delayq.redis.RedisEndpoint;

import io.delayq.redis.Replies;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A running console: the HTTP server, the queue directory on one shared Redis connection, and the
 * history sampler. {@code Console.start(settings)}; {@link #close()} stops all three.
 */
public final class Console implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final ConsoleSettings settings;
    private final RedisEndpoint redis;
    private final QueueDirectory queues;
    private final HistorySampler sampler;
    private final BacklogHistory history;
    private final ConsoleHttp http;

    private Console(ConsoleSettings settings, RedisEndpoint redis, QueueDirectory queues, HistorySampler sampler, BacklogHistory history,
                    ConsoleHttp http) {
        this.history = history;
        this.settings = settings;
        this.redis = redis;
        this.queues = queues;
        this.sampler = sampler;
        this.http = http;
    }

    public static Console start(ConsoleSettings settings) throws IOException {
        RedisEndpoint redis = RedisEndpoint.connect(settings.redisUrl(), null, TIMEOUT);
        try {
            QueueDirectory queues = new QueueDirectory(redis, settings.queues(), settings.maxQueues(), TIMEOUT);
            BacklogHistory history = new BacklogHistory(settings.history().toMillis());
            ActionLog log = new ActionLog();
            Sessions sessions = new Sessions(settings.actionToken(), new SignInThrottle(System::currentTimeMillis), log);
            QueueViews queueViews = new QueueViews(queues, history, TIMEOUT);
            TaskViews taskViews = new TaskViews(queues, settings.traceUrl());
            ScheduleViews scheduleViews = new ScheduleViews(queues);
            io.delayq.console.calendars.CalendarViews calendarViews = new io.delayq.console.calendars.CalendarViews(queues);
            Actions actions = new Actions(queues, log);
            io.delayq.console.bulk.BulkViews bulk = new io.delayq.console.bulk.BulkViews(queues, log, TIMEOUT);
            ConsoleHttp http = new ConsoleHttp(settings.host(), settings.port(), settings.allowedHosts(), settings.basePath());
            String cookiePath = "; Path=" + settings.basePath();
            http.hideInErrors(secrets(settings));
            String shownRedis = redis.toString();
            http.route("GET", "session", r -> {
                Map<String, Object> out = session(sessions.readOnly(), sessions.current(r));
                out.put("redis", shownRedis);
                return out;
            })
                    .route("POST", "session", r -> {
                        JsonNode body = r.json();
                        Sessions.SignedIn in = sessions.signIn(body.path("token").asText(null), body.path("name").asText(null),
                                r.remoteAddress());
                        // behind a TLS-terminating Ingress the cookie must not travel over plain HTTP
                        boolean https = "https".equalsIgnoreCase(r.header("X-Forwarded-Proto"));
                        r.exchange().getResponseHeaders().add("Set-Cookie",
                                Sessions.COOKIE + "=" + in.cookie() + cookiePath + "; HttpOnly; SameSite=Strict" + (https ? "; Secure" : ""));
                        return session(sessions.readOnly(), in.session());
                    })
                    .route("DELETE", "session", r -> {
                        sessions.signOut(r);
                        r.exchange().getResponseHeaders().add("Set-Cookie", Sessions.COOKIE + "=" + cookiePath + "; Max-Age=0; HttpOnly; SameSite=Strict");
                        return Map.of("signedIn", false, "readOnly", sessions.readOnly());
                    })
                    .route("GET", "overview", r -> {
                        if ("1".equals(r.param("refresh"))) {
                            queues.refresh();
                        }
                        return queueViews.overview();
                    })
                    .route("GET", "queues/[^/]+", r -> queueViews.queue(r.segment(1)))
                    .route("GET", "queues/[^/]+/schedules", r -> scheduleViews.list(r.segment(1)))
                    .route("GET", "queues/[^/]+/calendars", r -> calendarViews.list(r.segment(1)))
                    .route("GET", "queues/[^/]+/tasks", r -> taskViews.browse(r.segment(1), TaskViews.query(r)))
                    .route("GET", "queues/[^/]+/tasks/[^/]+", r -> taskViews.task(r.segment(1), r.segment(3)))
                    .route("GET", "queues/[^/]+/completions", r -> taskViews.completions(r.segment(1), TaskViews.limit(r, 20)))
                    .route("POST", "queues/[^/]+/actions/[^/]+", r -> {
                        Sessions.Session s = sessions.requireAction(r);
                        return actions.run(r.segment(1), r.segment(3), r.json(), s.user() + "@" + r.remoteAddress());
                    })
                    .route("GET", "queues/[^/]+/bulk", r -> bulk.jobs(r.segment(1)))
                    .route("GET", "queues/[^/]+/bulk/[^/]+", r -> bulk.job(r.segment(1), r.segment(3)))
                    .route("POST", "queues/[^/]+/bulk", r -> bulk.submit(r.segment(1), r.json(), sessions.requireAction(r).user() + "@" + r.remoteAddress()))
                    .route("POST", "queues/[^/]+/bulk/[^/]+/resume", r -> bulk.resume(r.segment(1), r.segment(3), sessions.requireAction(r).user() + "@" + r.remoteAddress()))
                    .route("GET", "audit", r -> Map.of("actions", log.recent()))
                    // probes: alive = the server answers; ready = Redis answers too
                    .route("GET", "healthz", r -> Map.of("status", "ok"))
                    .route("GET", "readyz", r -> Map.of("status", "ok", "redisTime",
                            Replies.await(redis.commands().time(), Duration.ofSeconds(2)).get(0)));
            HistorySampler sampler = HistorySampler.start(new HistorySampler.Settings(queues, history, settings.sampleEvery()));
            http.start();
            return new Console(settings, redis, queues, sampler, history, http);
        } catch (IOException | RuntimeException e) {
            redis.close();
            throw e;
        }
    }

    /** The Redis password (as written in the URL and decoded) and the action token. */
    static java.util.List<String> secrets(ConsoleSettings settings) {
        java.util.List<String> out = new java.util.ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("://[^:/@]*:([^@/]+)@").matcher(settings.redisUrl());
        if (m.find()) {
            out.add(m.group(1));
            out.add(java.net.URLDecoder.decode(m.group(1).replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8));
        }
        if (settings.actionToken() != null) {
            out.add(settings.actionToken());
        }
        return out;
    }

    /** The sign-in state the page needs; the CSRF token goes only to the holder of the session cookie. */
    private static Map<String, Object> session(boolean readOnly, Sessions.Session s) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("readOnly", readOnly);
        out.put("signedIn", s != null);
        out.put("user", s == null ? null : s.user());
        out.put("csrf", s == null ? null : s.csrf());
        return out;
    }

    public int port() {
        return http.port();
    }

    public String url() {
        String host = settings.host().equals("0.0.0.0") ? "localhost" : settings.host();
        return "http://" + host + ":" + port() + settings.basePath();
    }

    /** The rolling history the plots show. */
    public BacklogHistory history() {
        return history;
    }

    public ConsoleSettings settings() {
        return settings;
    }

    @Override
    public void close() {
        http.close();
        sampler.close();
        queues.close();
        redis.close();
    }
}
