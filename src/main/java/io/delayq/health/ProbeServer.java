package io.delayq.health;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What Kubernetes and Prometheus probe on a worker or the operator: {@code /metrics} (Prometheus
 * text), {@code /healthz} (liveness) and {@code /readyz} (readiness; 503 until ready). The JDK's
 * own HTTP server: two small handler threads, no extra dependency.
 */
public final class ProbeServer implements AutoCloseable {
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final String TEXT = "text/plain; charset=utf-8";
    private final HttpServer server;

    public ProbeServer(int port, String threadName, Supplier<String> metrics, BooleanSupplier live, BooleanSupplier ready) throws IOException {
        server = HttpServer.create(new InetSocketAddress(port), 16);
        server.setExecutor(Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/metrics", ex -> reply(ex, 200, PROMETHEUS_TEXT, metrics.get()));
        server.createContext("/healthz", ex -> probe(ex, live.getAsBoolean()));
        server.createContext("/readyz", ex -> probe(ex, ready.getAsBoolean()));
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void probe(HttpExchange ex, boolean ok) throws IOException {
        reply(ex, ok ? 200 : 503, TEXT, ok ? "ok\n" : "not ok\n");
    }

    private static void reply(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
