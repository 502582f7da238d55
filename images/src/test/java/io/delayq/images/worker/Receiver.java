package io.delayq.images.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.delayq.images.podman.PodmanPod;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/** A real HTTP webhook receiver on the host's loopback that records every delivery (id, attempt) and every answer. */
public final class Receiver implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(64);
    private final ConcurrentLinkedQueue<Delivery> received = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> answered = new ConcurrentLinkedQueue<>();
    private final AtomicInteger working = new AtomicInteger();

    /** @param workMillis how long each request takes before its 200: what keeps tasks in flight */
    public Receiver(long workMillis) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.setExecutor(threads);
        server.createContext("/tasks", ex -> {
            JsonNode body = JSON.readTree(ex.getRequestBody().readAllBytes());
            Delivery d = new Delivery(body.get("id").asText(), body.get("attempt").asInt());
            received.add(d);
            working.incrementAndGet();
            try {
                if (workMillis > 0) {
                    Thread.sleep(workMillis);
                }
                ex.sendResponseHeaders(200, -1);
                answered.add(d.id());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                working.decrementAndGet();
                ex.close();
            }
        });
        server.start();
    }

    /** The webhook URL as a container reaches it. */
    public String urlFromContainers() {
        return "http://" + PodmanPod.HOST + ":" + server.getAddress().getPort() + "/tasks";
    }

    public List<Delivery> received() {
        return List.copyOf(received);
    }

    public List<String> answered() {
        return List.copyOf(answered);
    }

    /** Requests being worked on right now (received, not yet answered). */
    public int working() {
        return working.get();
    }

    public Map<String, List<Integer>> attemptsById() {
        return received.stream().collect(Collectors.groupingBy(Delivery::id, Collectors.mapping(Delivery::attempt, Collectors.toList())));
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }

    public record Delivery(String id, int attempt) {
    }
}
