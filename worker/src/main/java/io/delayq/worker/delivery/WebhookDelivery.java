package io.delayq.worker.delivery;

import io.delayq.completion.CompletionRecord;
import io.delayq.handler.Task;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * POSTs each task as JSON (Cloud Tasks style). 2xx acks; 408, 429, 5xx, time-outs and connection
 * errors retry (honouring Retry-After); any other status dead-letters with the status and the start
 * of the body, because sending the same request again cannot succeed. Asynchronous where {@link #runsAsync}: the JDK
 * client's {@code sendAsync} and a body read as it arrives ({@link BoundedBody}), so no thread waits for a receiver;
 * otherwise {@code send} on a handler thread, the body read the same way.
 */
public final class WebhookDelivery implements AsyncDelivery {
    static final int BODY_EXCERPT = 512;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI url;
    private final Duration timeout;
    private final String secret;
    private final HttpClient http;
    private final boolean keepBody;
    private final boolean async;

    public WebhookDelivery(URI url, Duration timeout, String secret) {
        this(url, timeout, secret, false);
    }

    /**
     * @param keepBody read the start of a 2xx response's body (at most {@link CompletionRecord#RESULT_MAX_BYTES} + 1
     *                 bytes, within the time-out) as the task's result, for its completion record; otherwise the body is
     *                 dropped as it arrives (so that its connection is reused)
     */
    public WebhookDelivery(URI url, Duration timeout, String secret, boolean keepBody) {
        this(url, timeout, secret, keepBody, ForkJoinPool.getCommonPoolParallelism() > 1);
    }

    /** @param async whether the worker runs it asynchronously ({@link #runsAsync}: by default where the common pool has threads to spare) */
    public WebhookDelivery(URI url, Duration timeout, String secret, boolean keepBody, boolean async) {
        this.async = async;
        this.keepBody = keepBody;
        this.url = url;
        this.timeout = timeout;
        this.secret = secret;
        // HTTP/1.1: the client's default HTTP/2 first offers an h2c upgrade on every new plain-http connection; HTTP/1.1
        // connections are kept alive and reused from the client's pool, one per request in flight
        HttpClient.Builder client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER);
        if (async) {
            // the client's own steps run where they are: a request starts on the handler thread that sends it, and its
            // answer is read and settled on the client's selector thread; with its default pool each request was
            // handed to a pool thread to start and again to finish, as many hand-offs as the parked thread it replaces
            client.executor(Runnable::run);
        }
        this.http = client.build();
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
        // which path the worker took by itself (runsAsync): an operator comparing two machines sees why they differ
        return "webhook POST " + url + (secret != null ? " (signed)" : "") + ", time-out " + io.delayq.DurationText.format(timeout)
                + (async ? ", asynchronous" : ", a thread per request in flight (the common pool has one thread)");
    }

    /**
     * The JDK client completes the future of {@code sendAsync} on the common pool, always (even with nobody waiting on
     * it); with a common pool of one thread (fewer than three cores, unless
     * {@code -Djava.util.concurrent.ForkJoinPool.common.parallelism} says otherwise) that is a new thread started per
     * request, which costs more than the parked handler thread it replaces (a third of the deliveries per second on two
     * cores). There the worker runs {@link #deliver}, whose {@code send} hands nothing to the common pool.
     */
    @Override
    public boolean runsAsync() {
        return async;
    }

    /** On a handler thread: {@code send} waits for the headers, then the outcome for what of the body matters. */
    @Override
    public Outcome deliver(Task task) {
        CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        try {
            http.send(request(task), info -> answered(info, outcome));
            return outcome.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Retry("interrupted (worker shutting down)", null);
        } catch (IOException e) {
            return failed(e);
        } catch (ExecutionException e) {
            return Outcome.of(e.getCause());
        }
    }

    /**
     * The outcome is decided in the client's own callbacks: at the response's headers (the status), or once the part
     * of the body that matters arrived. Not on the future {@code sendAsync} returns: the JDK client completes that one
     * on the common pool, which with fewer than three cores is a new thread per request (a thread started per
     * delivery cost more than the parked thread it replaced); that future only brings the failures (time-outs,
     * connection errors).
     */
    @Override
    public CompletableFuture<Outcome> deliverAsync(Task task) {
        CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        CompletableFuture<HttpResponse<BoundedBody>> sent = http.sendAsync(request(task), info -> answered(info, outcome));
        sent.whenComplete((response, failure) -> {
            if (failure != null) {
                outcome.complete(failed(failure));
            }
        });
        // abandoned (the handler deadline, a hard stop): the exchange is aborted, its connection closed
        outcome.whenComplete((o, e) -> {
            if (e instanceof CancellationException) {
                sent.cancel(true);
            }
        });
        return outcome;
    }

    private HttpRequest request(Task task) {
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
        return request.build();
    }

    private Outcome failed(Throwable failure) {
        Throwable e = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (e instanceof HttpTimeoutException) {
            return new Outcome.Retry("webhook timed out after " + timeout.toMillis() + " ms", null);
        }
        if (e instanceof IOException) {
            return new Outcome.Retry("webhook unreachable: " + Outcome.describe(e), null);
        }
        return Outcome.of(e);
    }

    /**
     * The response's headers arrived: completes {@code outcome} as the status says, reading the body (within the
     * time-out) only where it is part of the outcome: a 2xx's result when results are kept, an error's excerpt.
     */
    private BoundedBody answered(HttpResponse.ResponseInfo info, CompletableFuture<Outcome> outcome) {
        int status = info.statusCode();
        if (status >= 200 && status < 300) {
            if (!keepBody) {
                BoundedBody dropped = new BoundedBody(0);
                within(dropped);
                outcome.complete(Outcome.DONE);
                return dropped;
            }
            BoundedBody result = new BoundedBody(CompletionRecord.RESULT_MAX_BYTES + 1);
            // a body that does not arrive within the time-out, or none, is no result (the task is done all the same)
            within(result).thenAccept(bytes -> outcome.complete(
                    Outcome.done(bytes == null || bytes.length == 0 ? null : new String(bytes, StandardCharsets.UTF_8))));
            return result;
        }
        BoundedBody error = new BoundedBody(BODY_EXCERPT);
        within(error).thenAccept(bytes -> {
            String excerpt = bytes == null ? "(body not received within the time-out)"
                    : new String(bytes, StandardCharsets.UTF_8).replaceAll("\\s+", " ").trim();
            outcome.complete(failure(status, excerpt, info.headers()));
        });
        return error;
    }

    private static Outcome failure(int status, String excerpt, HttpHeaders headers) {
        String error = "webhook answered HTTP " + status + (excerpt.isEmpty() ? "" : ": " + excerpt);
        if (status >= 300 && status < 400) {
            // a redirected POST may turn into a GET or lose its body on the way: never followed, and
            // retrying will not change the answer; the operator must fix the URL (replay the dead letters then)
            error += " (redirect to " + headers.firstValue("Location").orElse("nowhere") + " not followed: "
                    + "set DELAYQ_WEBHOOK_URL to the final URL)";
        }
        if (status == 408 || status == 429 || status >= 500) {
            return new Outcome.Retry(error, retryAfter(headers.firstValue("Retry-After").orElse(null)));
        }
        return new Outcome.Dead(error);
    }

    /**
     * The body's bytes as far as they arrive within the time-out, or null: past it the body is cancelled, so that a
     * receiver that stalls after its headers holds no connection (and no thread ever waited for it).
     */
    private CompletableFuture<byte[]> within(BoundedBody body) {
        return body.content().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).handle((bytes, late) -> {
            if (late != null) {
                body.cancel();
                return null;
            }
            return bytes;
        });
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
}
