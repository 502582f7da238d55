package io.delayq.console.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.delayq.DelayQueueException;
import io.delayq.InvalidInputException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Pattern;

/**
 * The console's HTTP server (the JDK's): static files from {@code delayq/console/} on the classpath and
 * JSON routes under {@code /api/}. Every failure becomes a JSON error naming the field and the rule
 * ({@code {"error":{"status":400,"field":"cursor","message":"..."}}}); an unexpected one is logged and
 * answered as "internal error" without its stack trace.
 */
public final class ConsoleHttp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleHttp.class);
    static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8", "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8", "svg", "image/svg+xml", "png", "image/png", "ico", "image/x-icon");
    private static final String CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

    static {
        // the JDK server writes headers and body separately; without TCP_NODELAY, Nagle plus the client's
        // delayed ACK add ~40 ms to every answer (read once, when the server classes first load)
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private record Entry(String method, Pattern path, Route route) {
    }

    private final List<Entry> routes = new ArrayList<>();
    private final HttpServer server;
    private final ExecutorService threads;
    private final List<String> allowedHosts;
    private final String basePath;
    private volatile List<String> secrets = List.of();

    /**
     * @param allowedHosts Host header values answered ({@code name}: any port; {@code name:port}; {@code *}: any);
     *                     empty: loopback names when bound to loopback, else any
     * @param basePath     the path prefix everything is served under ({@code /} or {@code /delayq/})
     */
    public ConsoleHttp(String host, int port, List<String> allowedHosts, String basePath) throws IOException {
        this.allowedHosts = List.copyOf(allowedHosts);
        this.basePath = basePath;
        this.server = HttpServer.create(new InetSocketAddress(host, port), 64);
        this.threads = Executors.newFixedThreadPool(8, r -> {
            Thread t = new Thread(r, "delayq-console-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(threads);
        server.createContext("/", this::serve);
    }

    /** {@code path} is a regex over the path after {@code /api/}, segments separated by '/', e.g. {@code queues/[^/]+}. */
    public ConsoleHttp route(String method, String path, Route route) {
        routes.add(new Entry(method, Pattern.compile(path), route));
        return this;
    }

    /** Strings never to appear in an answer (the Redis password, the action token): replaced by *** in every error message. */
    public ConsoleHttp hideInErrors(List<String> values) {
        this.secrets = values.stream().filter(v -> v != null && v.length() >= 3).toList();
        return this;
    }

    public void start() {
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void serve(HttpExchange ex) throws IOException {
        try (ex) {
            security(ex);
            String full = ex.getRequestURI().getRawPath();
            if (!full.startsWith(basePath)) {
                if ((full + "/").equals(basePath) || full.equals("/")) {
                    // "/delayq" and "/" lead to the console's own root, so that relative links resolve under it
                    ex.getResponseHeaders().set("Location", basePath);
                    send(ex, 308, "text/plain; charset=utf-8", ("see " + basePath).getBytes(StandardCharsets.UTF_8));
                } else {
                    notFoundPage(ex, full);
                }
                return;
            }
            String path = "/" + full.substring(basePath.length());
            // the probes say nothing about the queues: the kubelet asks with the pod's IP as Host
            boolean probe = path.equals("/api/healthz") || path.equals("/api/readyz");
            if (!probe && !hostAllowed(ex.getRequestHeaders().getFirst("Host"))) {
                // DNS rebinding: a foreign page whose name now points at this console sends its own name as Host
                byte[] refused = JSON.writeValueAsBytes(error(421, "Host", allowedHosts.isEmpty()
                        ? "this console answers only to 127.0.0.1, localhost or [::1] on port " + port() + " (it is bound to loopback)"
                        : "this console answers only to the host names in DELAYQ_CONSOLE_ALLOWED_HOSTS (" + String.join(", ", allowedHosts) + ")"));
                send(ex, 421, "application/json; charset=utf-8", refused);
                return;
            }
            if (path.startsWith("/api/")) {
                api(ex, path.substring(5));
            } else {
                file(ex, path);
            }
        } catch (IOException e) {
            LOG.debug("client went away: {}", e.toString());
        }
    }

    /**
     * With an allowed-hosts list, only those names; without one: bound to loopback, only a loopback name
     * on our port; bound elsewhere (a Service, an Ingress), any.
     */
    boolean hostAllowed(String host) {
        String h = host == null ? null : host.toLowerCase(java.util.Locale.ROOT);
        if (!allowedHosts.isEmpty()) {
            if (h == null) {
                return false;
            }
            for (String a : allowedHosts) {
                boolean hasPort = a.startsWith("[") ? a.contains("]:") : a.contains(":");
                if (a.equals("*") || a.equals(h) || !hasPort && a.equals(withoutPort(h))) {
                    return true;
                }
            }
            return false;
        }
        if (!server.getAddress().getAddress().isLoopbackAddress()) {
            return true;
        }
        int port = port();
        return h != null && List.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port).contains(h);
    }

    /** {@code name:port} → {@code name}; {@code [::1]:8090} → {@code [::1]}. */
    static String withoutPort(String host) {
        int close = host.lastIndexOf(']');
        int colon = host.lastIndexOf(':');
        return colon > close && (close >= 0 || host.indexOf(':') == colon) ? host.substring(0, colon) : host;
    }

    private static void security(HttpExchange ex) {
        var h = ex.getResponseHeaders();
        h.set("Content-Security-Policy", CSP);
        h.set("X-Content-Type-Options", "nosniff");
        h.set("X-Frame-Options", "DENY");
        h.set("Referrer-Policy", "no-referrer");
        h.set("Cache-Control", "no-store");
    }

    private void api(HttpExchange ex, String rest) throws IOException {
        Object body;
        int status = 200;
        try {
            List<String> segments = new ArrayList<>();
            for (String s : rest.split("/", -1)) {
                try {
                    segments.add(URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8));
                } catch (IllegalArgumentException e) {
                    throw ApiException.badRequest("path", "bad %-escape in '" + s + "' (a % needs two hex digits)");
                }
            }
            String joined = String.join("/", segments.stream().map(s -> s.replace("/", "%2F")).toList());
            Entry match = null;
            boolean pathKnown = false;
            for (Entry e : routes) {
                if (e.path.matcher(joined).matches()) {
                    pathKnown = true;
                    if (e.method.equals(ex.getRequestMethod())) {
                        match = e;
                        break;
                    }
                }
            }
            if (match == null) {
                throw pathKnown ? new ApiException(405, "method", ex.getRequestMethod() + " is not allowed here")
                        : ApiException.notFound("path", "no API at /api/" + rest);
            }
            body = match.route.handle(new Request(ex, segments));
        } catch (ApiException e) {
            status = e.status();
            if (e.retryAfterSeconds() >= 0) {
                ex.getResponseHeaders().set("Retry-After", String.valueOf(e.retryAfterSeconds()));
            }
            body = error(status, e.field(), e.getMessage());
        } catch (InvalidInputException e) {
            status = 400;
            body = error(status, e.field(), e.getMessage().substring(e.field().length() + 2));
        } catch (IllegalArgumentException e) {
            status = 400;
            body = error(status, null, e.getMessage());
        } catch (DelayQueueException | io.lettuce.core.RedisException e) {
            status = 502;
            LOG.warn("Redis failed for {} {}: {}", ex.getRequestMethod(), rest, e.toString());
            body = error(status, "redis", "Redis failed: " + e.getMessage());
        } catch (Exception e) {
            status = 500;
            LOG.error("internal error for {} {}", ex.getRequestMethod(), rest, e);
            body = error(status, null, "internal error (logged by the console)");
        }
        byte[] bytes = JSON.writeValueAsBytes(body);
        if (status >= 400 && !secrets.isEmpty()) {
            // a driver's message can quote what it was given; an error answer never repeats a secret
            bytes = JSON.writeValueAsBytes(scrubbed(body));
        }
        ex.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @SuppressWarnings("unchecked")
    private Object scrubbed(Object body) {
        if (body instanceof Map<?, ?> m && m.get("error") instanceof Map<?, ?> e) {
            Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) e);
            String msg = String.valueOf(copy.get("message"));
            for (String secret : secrets) {
                msg = msg.replace(secret, "***");
            }
            copy.put("message", io.delayq.redis.RedisEndpoint.redact(msg));
            return Map.of("error", copy);
        }
        return body;
    }

    private static Map<String, Object> error(int status, String field, String message) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("status", status);
        e.put("field", field);
        e.put("message", message);
        return Map.of("error", e);
    }

    private void file(HttpExchange ex, String path) throws IOException {
        if (!ex.getRequestMethod().equals("GET") && !ex.getRequestMethod().equals("HEAD")) {
            send(ex, 405, "text/plain; charset=utf-8", "method not allowed".getBytes(StandardCharsets.UTF_8));
            return;
        }
        String name = path.equals("/") ? "index.html" : path.substring(1);
        if (!name.matches("[a-z0-9-]+\\.(html|js|css|svg|png|ico)")) {
            notFoundPage(ex, path);
            return;
        }
        try (InputStream in = ConsoleHttp.class.getClassLoader().getResourceAsStream("delayq/console/" + name)) {
            if (in == null) {
                notFoundPage(ex, path);
                return;
            }
            send(ex, 200, TYPES.get(name.substring(name.lastIndexOf('.') + 1)), in.readAllBytes());
        }
    }

    private void notFoundPage(HttpExchange ex, String path) throws IOException {
        String safe = path.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
        String html = "<!doctype html><meta charset=utf-8><title>Not found · delayq console</title><link rel=stylesheet href=\"" + basePath
                + "app.css\"><main><div class=\"error\" role=\"alert\"><h1>Not found</h1><p>There is no page at <code>" + safe
                + "</code>.</p><p><a href=\"" + basePath + "\">All queues</a></p></div></main>";
        send(ex, 404, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
