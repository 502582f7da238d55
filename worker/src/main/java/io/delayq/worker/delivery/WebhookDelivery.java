package io.delayq.worker.delivery;

import io.delayq.completion.CompletionRecord;
import io.delayq.handler.Task;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * POSTs each task as JSON (Cloud Tasks style). 2xx acks; 408, 429, 5xx, time-outs and connection
 * errors retry (honouring Retry-After); any other status dead-letters with the status and the start
 * of the body, because sending the same request again cannot succeed.
 */
public final class WebhookDelivery implements Delivery {
    static final int BODY_EXCERPT = 512;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI url;
    private final Duration timeout;
    private final String secret;
    private final HttpClient http;
    private final boolean keepBody;

    public WebhookDelivery(URI url, Duration timeout, String secret) {
        this(url, timeout, secret, false);
    }

    /**
     * @param keepBody read the start of a 2xx response's body (at most {@link CompletionRecord#RESULT_MAX_BYTES} + 1
     *                 bytes, within the time-out) as the task's result, for its completion record; otherwise the body is
     *                 not read at all
     */
    public WebhookDelivery(URI url, Duration timeout, String secret, boolean keepBody) {
        this.keepBody = keepBody;
        this.url = url;
        this.timeout = timeout;
        this.secret = secret;
        // HTTP/1.1: the client's default HTTP/2 first offers an h2c upgrade on every new plain-http connection; HTTP/1.1
        // connections are kept alive and reused from the client's pool, one per request in flight
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    static byte[] body(Task task) {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", task.id());
        n.put("queue", task.queue());
        n.put("shard", task.shard());
        n.put("attempt", task.attempt());
        n.put("dueAt", task.dueAt());
        if (task.enqueuedAt() != null) {
            n.put("enqueuedAt", task.enqueuedAt());
        }
        n.put("priority", task.priority());
        if (task.payload() == null) {
            n.putNull("payload");
        } else {
            n.put("payload", task.payload());
        }
        try {
            return JSON.writeValueAsBytes(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String target() {
        return "webhook POST " + url + (secret != null ? " (signed)" : "") + ", time-out " + io.delayq.DurationText.format(timeout);
    }

    @Override
    public Outcome deliver(Task task) {
        byte[] body = body(task);
        HttpRequest.Builder request = HttpRequest.newBuilder(url)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", task.id())
                .header("X-Delayq-Queue", task.queue())
                .header("X-Delayq-Attempt", String.valueOf(task.attempt()))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        // the delivery's span (or, with tracing off, the producer's context): the receiver's spans join the task's trace
        W3CTraceContextPropagator.getInstance().inject(Context.current(), request, HttpRequest.Builder::header);
        if (secret != null) {
            long ts = System.currentTimeMillis() / 1000;
            request.header(WebhookSignature.TIMESTAMP_HEADER, String.valueOf(ts))
                    .header(WebhookSignature.SIGNATURE_HEADER, WebhookSignature.sign(secret, ts, body));
        }
        HttpResponse<InputStream> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException e) {
            return new Outcome.Retry("webhook timed out after " + timeout.toMillis() + " ms", null);
        } catch (IOException e) {
            return new Outcome.Retry("webhook unreachable: " + Outcome.describe(e), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Retry("interrupted (worker shutting down)", null);
        }
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            if (keepBody) {
                return Outcome.done(resultOf(response.body()));
            }
            discard(response.body());
            return Outcome.DONE;
        }
        String excerpt = excerpt(response.body());
        String error = "webhook answered HTTP " + status + (excerpt.isEmpty() ? "" : ": " + excerpt);
        if (status >= 300 && status < 400) {
            // a redirected POST may turn into a GET or lose its body on the way: never followed, and
            // retrying will not change the answer; the operator must fix the URL (replay the dead letters then)
            error += " (redirect to " + response.headers().firstValue("Location").orElse("nowhere") + " not followed: "
                    + "set DELAYQ_WEBHOOK_URL to the final URL)";
        }
        if (status == 408 || status == 429 || status >= 500) {
            return new Outcome.Retry(error, retryAfter(response.headers().firstValue("Retry-After").orElse(null)));
        }
        return new Outcome.Dead(error);
    }

    /** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
    static Duration retryAfter(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        try {
            return Duration.ofSeconds(Math.max(0, Long.parseLong(header.trim())));
        } catch (NumberFormatException e) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(header.trim(), DateTimeFormatter.RFC_1123_DATE_TIME);
                return Duration.ofMillis(Math.max(0, at.toInstant().toEpochMilli() - System.currentTimeMillis()));
            } catch (RuntimeException notADate) {
                return null;
            }
        }
    }

    /** Reads at most a short excerpt, within the time-out: a receiver that hangs after its headers must not hold a handler thread. */
    private String excerpt(InputStream in) {
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> {
            try (in) {
                byte[] bytes = in.readNBytes(BODY_EXCERPT);
                return new String(bytes, StandardCharsets.UTF_8).replaceAll("\\s+", " ").trim();
            } catch (IOException e) {
                return "";
            }
        });
        try {
            return read.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            read.cancel(true);
            closeQuietly(in);
            return "(body not received within the time-out)";
        }
    }

    /**
     * The start of a successful response's body as text: one byte more than a result keeps, so that a longer body is
     * marked truncated; a body that does not arrive within the time-out, or none, is no result (the task is done all the same).
     */
    private String resultOf(InputStream in) {
        CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
            try (in) {
                return in.readNBytes(CompletionRecord.RESULT_MAX_BYTES + 1);
            } catch (IOException e) {
                return new byte[0];
            }
        });
        try {
            byte[] bytes = read.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return bytes.length == 0 ? null : new String(bytes, StandardCharsets.UTF_8);
        } catch (Exception e) {
            read.cancel(true);
            closeQuietly(in);
            return null;
        }
    }

    private static void discard(InputStream in) {
        closeQuietly(in);
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // the response is finished either way
        }
    }
}
