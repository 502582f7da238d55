package io.delayq.worker.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/** {@code /metrics} (Prometheus text), {@code /healthz} (loops alive), {@code /readyz} (Redis reachable, scripts loaded). */
public final class OpsServer implements AutoCloseable {
    private final HttpServer server;

    public OpsServer(int port, PrometheusMeterRegistry registry, BooleanSupplier live, BooleanSupplier ready) throws IOException {
        server = HttpServer.create(new InetSocketAddress(port), 16);
        server.setExecutor(Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "delayq-http");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/metrics", ex -> reply(ex, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
        server.createContext("/healthz", ex -> probe(ex, live.getAsBoolean()));
        server.createContext("/readyz", ex -> probe(ex, ready.getAsBoolean()));
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void probe(HttpExchange ex, boolean ok) throws IOException {
        reply(ex, ok ? 200 : 503, "text/plain; charset=utf-8", ok ? "ok\n" : "not ok\n");
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
