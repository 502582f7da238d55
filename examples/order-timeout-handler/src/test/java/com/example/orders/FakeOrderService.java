package com.example.orders;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server standing in for the order service: {@code POST /orders/<id>/cancel} cancels an unpaid order
 * (200), answers 409 for a paid one and 404 for an unknown one, and replays its first answer for a repeated
 * {@code Idempotency-Key} (the contract the handler relies on). It can be told to be busy (503 + Retry-After) or
 * broken (500) for the next requests.
 */
final class FakeOrderService implements AutoCloseable {
    enum State { UNPAID, PAID, CANCELLED }

    record Request(String path, String idempotencyKey, String body) {
    }

    private final HttpServer server;
    private final Map<String, State> orders = new ConcurrentHashMap<>();
    private final Map<String, Integer> answers = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger cancellations = new AtomicInteger();
    private final AtomicInteger busy = new AtomicInteger();
    private final AtomicInteger broken = new AtomicInteger();

    FakeOrderService() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/orders/", this::handle);
        server.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    FakeOrderService order(String id, State state) {
        orders.put(id, state);
        return this;
    }

    State state(String id) {
        return orders.get(id);
    }

    void busyFor(int requests) {
        busy.set(requests);
    }

    void brokenFor(int requests) {
        broken.set(requests);
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    int cancellations() {
        return cancellations.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        requests.add(new Request(path, key, new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
        if (busy.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            exchange.getResponseHeaders().add("Retry-After", "1");
            reply(exchange, 503);
            return;
        }
        if (broken.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            reply(exchange, 500);
            return;
        }
        if (!exchange.getRequestMethod().equals("POST") || !path.matches("/orders/[^/]+/cancel")) {
            reply(exchange, 404);
            return;
        }
        String id = path.substring("/orders/".length(), path.length() - "/cancel".length());
        Integer earlier = key == null ? null : answers.get(key);
        reply(exchange, earlier != null ? earlier : remember(key, cancel(id)));
    }

    private int cancel(String id) {
        State state = orders.get(id);
        if (state == null) {
            return 404;
        }
        if (state == State.PAID) {
            return 409;
        }
        if (state == State.UNPAID) {
            orders.put(id, State.CANCELLED);
            cancellations.incrementAndGet();
        }
        return 200;
    }

    private int remember(String key, int status) {
        if (key != null) {
            answers.put(key, status);
        }
        return status;
    }

    private static void reply(HttpExchange exchange, int status) throws IOException {
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
