package com.example.orders;

import io.delayq.handler.HandlerContext;
import io.delayq.handler.PermanentFailure;
import io.delayq.handler.RetryLater;
import io.delayq.handler.Task;
import io.delayq.handler.TaskHandler;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Fires when an order's payment window closes: the task id is the order id (the producer enqueued
 * {@code "8812"} with a 30-minute delay at checkout), and the handler asks the order service to cancel the
 * order if it is still unpaid.
 *
 * <p>Idempotent by task id: delayq delivers at least once (a task comes again after a worker died mid-call),
 * so every call carries {@code Idempotency-Key: <task id>}, and the order service answers a repeated key with
 * the first answer instead of acting twice. An order that was paid in the meantime answers 409: nothing to do.
 */
public final class OrderTimeoutHandler implements TaskHandler {
    private final URI orderService;
    private final HttpClient http;

    /** The worker builds it this way ({@code META-INF/services}); {@code ORDER_SERVICE_URL} says where the service is. */
    public OrderTimeoutHandler() {
        this(URI.create(System.getenv().getOrDefault("ORDER_SERVICE_URL", "http://orders:8080")));
    }

    public OrderTimeoutHandler(URI orderService) {
        this.orderService = orderService;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    @Override
    public void start(HandlerContext context) {
        System.out.println("order-timeout handler for queue " + context.queue() + " calls " + orderService);
    }

    @Override
    public void handle(Task task) throws Exception {
        String order = task.id();
        HttpRequest request = HttpRequest.newBuilder(orderService.resolve("/orders/" + URLEncoder.encode(order, StandardCharsets.UTF_8) + "/cancel"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", task.id())
                .POST(HttpRequest.BodyPublishers.ofString("{\"reason\":\"payment window closed\",\"attempt\":" + task.attempt() + "}"))
                .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        int status = response.statusCode();
        if (status / 100 == 2 || status == 409) {
            return; // cancelled now, cancelled by an earlier delivery, or paid meanwhile (409): done either way
        }
        if (status == 404) {
            throw new PermanentFailure("order " + order + " does not exist");
        }
        if (status == 429 || status == 503) {
            throw new RetryLater("order service busy (" + status + ")", retryAfter(response));
        }
        // anything else (500, a proxy's 502...) is retried with the queue's backoff until attempts run out
        throw new IOException("order service answered " + status + " for order " + order);
    }

    private static Duration retryAfter(HttpResponse<?> response) {
        return response.headers().firstValue("Retry-After").map(v -> {
            try {
                return Duration.ofSeconds(Long.parseLong(v.trim()));
            } catch (NumberFormatException e) {
                return null;
            }
        }).orElse(Duration.ofSeconds(5));
    }
}
