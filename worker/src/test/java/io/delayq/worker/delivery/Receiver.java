package io.delayq.worker.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A real webhook receiver: the JDK's HttpServer on a loopback port. It records every request
 * (headers, body, the Redis server time at arrival) and answers as the test's behaviour says.
 */
public final class Receiver implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request as it arrived. {@code serverMillis} is the Redis server clock when it arrived. */
    public record Request(com.sun.net.httpserver.Headers headers, byte[] body, long serverMillis, CountDownLatch closing) {
        /** Blocks the receiving thread until the receiver closes: a receiver that never answers. */
        public void hang() throws InterruptedException {
            closing.await(60, TimeUnit.SECONDS);
        }

        public String header(String name) {
            return headers.getFirst(name);
        }

        public String id() {
            return header("Idempotency-Key");
        }

        public int attempt() {
            return Integer.parseInt(header("X-Delayq-Attempt"));
        }

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @FunctionalInterface
    public interface Behaviour {
        void respond(Request request, HttpExchange exchange) throws Exception;
    }

    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-receiver");
        t.setDaemon(true);
        return t;
    });
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final LongSupplier serverClock;
    private volatile Behaviour behaviour;

    private Receiver(int port, LongSupplier serverClock, Behaviour behaviour) throws IOException {
        this.serverClock = serverClock;
        this.behaviour = behaviour;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        server.setExecutor(pool);
        server.createContext("/", this::handle);
        server.start();
    }

    public static Receiver start(LongSupplier serverClock, Behaviour behaviour) {
        return start(0, serverClock, behaviour);
    }

    public static Receiver start(int port, LongSupplier serverClock, Behaviour behaviour) {
        try {
            return new Receiver(port, serverClock, behaviour);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] body = ex.getRequestBody().readAllBytes();
            Request r = new Request(ex.getRequestHeaders(), body, serverClock.getAsLong(), closing);
            requests.add(r);
            try {
                behaviour.respond(r, ex);
            } catch (IOException e) {
                // the worker gave up on this request (time-out, closed body): nothing to answer
            } catch (Exception e) {
                throw new IOException(e);
            }
        }
    }

    public void behave(Behaviour b) {
        this.behaviour = b;
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/tasks");
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    public List<Request> requestsFor(String id) {
        return requests.stream().filter(r -> id.equals(r.id())).toList();
    }

    public static void reply(HttpExchange ex, int status, String body, String... headerPairs) throws IOException {
        for (int i = 0; i + 1 < headerPairs.length; i += 2) {
            ex.getResponseHeaders().add(headerPairs[i], headerPairs[i + 1]);
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        pool.shutdownNow();
    }
}
