package io.delayq.images.worker;

import com.sun.net.httpserver.HttpServer;
import io.delayq.images.podman.PodmanPod;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A real HTTP order service on the host's loopback, as the example handler calls it:
 * {@code POST /orders/<id>/cancel} with an {@code Idempotency-Key}; it records each call and answers 200.
 */
final class OrderService implements AutoCloseable {
    private final HttpServer server;
    private final ConcurrentLinkedQueue<Cancel> cancels = new ConcurrentLinkedQueue<>();

    OrderService() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/orders/", ex -> {
            String path = ex.getRequestURI().getPath();
            String body = new String(ex.getRequestBody().readAllBytes());
            if ("POST".equals(ex.getRequestMethod()) && path.endsWith("/cancel")) {
                cancels.add(new Cancel(path.substring("/orders/".length(), path.length() - "/cancel".length()),
                        ex.getRequestHeaders().getFirst("Idempotency-Key"), body));
                ex.sendResponseHeaders(200, -1);
            } else {
                ex.sendResponseHeaders(404, -1);
            }
            ex.close();
        });
        server.start();
    }

    /** The service's URL as a container reaches it. */
    String urlFromContainers() {
        return "http://" + PodmanPod.HOST + ":" + server.getAddress().getPort();
    }

    List<Cancel> cancels() {
        return List.copyOf(cancels);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    record Cancel(String order, String idempotencyKey, String body) {
    }
}
