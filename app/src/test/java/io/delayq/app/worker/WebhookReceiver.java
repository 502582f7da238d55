package io.delayq.app.worker;

import io.delayq.worker.fleet.Fleet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** A real HTTP server that records every task delivered to it (id, attempt, due time, time received). */
final class WebhookReceiver implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    final ConcurrentLinkedQueue<Fleet.Delivered> deliveries = new ConcurrentLinkedQueue<>();
    final ConcurrentHashMap<String, Integer> countById = new ConcurrentHashMap<>();
    /** Requests being worked on per payload (a test that sends the group as payload counts running tasks per group). */
    final ConcurrentHashMap<String, AtomicInteger> runningByPayload = new ConcurrentHashMap<>();
    /** The most requests of one payload worked on at once. */
    final ConcurrentHashMap<String, Integer> mostByPayload = new ConcurrentHashMap<>();
    private final HttpServer server;

    /** @param workMillis how long each request takes before its 200, so tasks are in flight when a worker dies */
    WebhookReceiver(long workMillis) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.setExecutor(Executors.newFixedThreadPool(64));
        server.createContext("/tasks", ex -> {
            long received = System.currentTimeMillis();
            JsonNode body = JSON.readTree(ex.getRequestBody().readAllBytes());
            String id = body.get("id").asText();
            deliveries.add(new Fleet.Delivered(id, body.get("attempt").asInt(), body.get("dueAt").asLong(), received,
                    body.get("payload").isNull() ? null : body.get("payload").asText()));
            countById.merge(id, 1, Integer::sum);
            String payload = body.get("payload").isNull() ? "" : body.get("payload").asText();
            AtomicInteger running = runningByPayload.computeIfAbsent(payload, k -> new AtomicInteger());
            mostByPayload.merge(payload, running.incrementAndGet(), Math::max);
            try {
                if (workMillis > 0) {
                    Thread.sleep(workMillis); // the receiver's own work: it is what keeps tasks in flight
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/tasks";
    }

    /** A worker process's variables for {@code queue} delivering to this receiver by webhook; tests put theirs on top. */
    Map<String, String> workerEnv(String redisUrl, String queue, int shards) {
        Map<String, String> env = Fleet.env(redisUrl, queue, shards);
        env.put("DELAYQ_DELIVERY", "webhook");
        env.put("DELAYQ_WEBHOOK_URL", url());
        return env;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
