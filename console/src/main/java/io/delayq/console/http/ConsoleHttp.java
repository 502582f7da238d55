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

    public ConsoleHttp(String host, int port) throws IOException {
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

    public void start() {
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void serve(HttpExchange ex) throws IOException {
        try (ex) {
            security(ex);
            if (!hostAllowed(ex.getRequestHeaders().getFirst("Host"))) {
                // DNS rebinding: a foreign page whose name now points at 127.0.0.1 sends its own name as Host
                byte[] refused = JSON.writeValueAsBytes(error(421, "Host", "this console answers only to 127.0.0.1, localhost or [::1] on port "
                        + port() + " (it is bound to loopback)"));
                send(ex, 421, "application/json; charset=utf-8", refused);
                return;
            }
            String path = ex.getRequestURI().getRawPath();
            if (path.startsWith("/api/")) {
                api(ex, path.substring(5));
            } else {
                file(ex, path);
            }
        } catch (IOException e) {
            LOG.debug("client went away: {}", e.toString());
        }
    }

    /** Bound to loopback, only a loopback name may be asked for; bound elsewhere (a Service, an Ingress), any. */
    private boolean hostAllowed(String host) {
        if (!server.getAddress().getAddress().isLoopbackAddress()) {
            return true;
        }
        int port = port();
        return host != null && List.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port).contains(host.toLowerCase(java.util.Locale.ROOT));
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
        ex.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
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

    private static void notFoundPage(HttpExchange ex, String path) throws IOException {
        String safe = path.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        String html = "<!doctype html><meta charset=utf-8><title>Not found · delayq console</title><link rel=stylesheet href=/app.css>"
                + "<main><div class=\"error\" role=\"alert\"><h1>Not found</h1><p>There is no page at <code>" + safe
                + "</code>.</p><p><a href=\"/\">All queues</a></p></div></main>";
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
