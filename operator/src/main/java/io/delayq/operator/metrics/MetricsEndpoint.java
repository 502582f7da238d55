package io.delayq.operator.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * The operator's HTTP endpoint: {@code /metrics} (Prometheus text format: the SDK's reconciliation
 * metrics, JVM metrics and the queue backlog gauges), {@code /healthz} (the process answers) and
 * {@code /readyz} (the operator has started its controllers).
 */
public final class MetricsEndpoint implements AutoCloseable {
    private final HttpServer server;

    public MetricsEndpoint(int port, PrometheusMeterRegistry registry, BooleanSupplier ready) throws IOException {
        server = HttpServer.create(new InetSocketAddress(port), 0);
        server.createContext("/metrics", exchange -> respond(exchange, 200, registry.scrape(), "text/plain; version=0.0.4; charset=utf-8"));
        server.createContext("/healthz", exchange -> respond(exchange, 200, "ok\n", "text/plain"));
        server.createContext("/readyz", exchange -> {
            boolean ok = ready.getAsBoolean();
            respond(exchange, ok ? 200 : 503, ok ? "ready\n" : "starting\n", "text/plain");
        });
        server.setExecutor(Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "delayq-operator-http");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void respond(HttpExchange exchange, int code, String body, String type) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
