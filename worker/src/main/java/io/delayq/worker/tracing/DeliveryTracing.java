package io.delayq.worker.tracing;

import io.delayq.claim.ClaimedTask;
import io.delayq.task.TaskOptions;
import io.delayq.worker.delivery.Outcome;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One consumer span per delivery attempt, a child of the producer's span when the task's record carries
 * a trace context (docs/tracing.md). The span is current while the handler, webhook or stream delivery
 * runs, so a handler's own spans nest under it and the webhook and stream deliveries pass it on.
 * <p>
 * With no SDK (the default) nothing is recorded: a task without a trace context runs as if this class
 * did not exist, and one with a context only has it made current, so the webhook still forwards the
 * producer's {@code traceparent}.
 */
public final class DeliveryTracing {
    static final String INSTRUMENTATION = "io.delayq.worker";
    static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("messaging.operation.type");
    static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    public static final AttributeKey<Long> SHARD = AttributeKey.longKey("delayq.shard");
    public static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("delayq.attempt");
    public static final AttributeKey<Long> LAG_MS = AttributeKey.longKey("delayq.lag_ms");
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("delayq.outcome");

    private final Tracer tracer;
    private final boolean enabled;
    private final String queue;
    private final String spanName;

    public DeliveryTracing(OpenTelemetry otel, String queue) {
        this.tracer = otel.getTracer(INSTRUMENTATION);
        this.enabled = otel.getTracerProvider() != TracerProvider.noop();
        this.queue = queue;
        this.spanName = "process " + queue;
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * Runs {@code delivery} inside the span of this attempt.
     *
     * @param maxAttempts the task's attempt limit, so that a retry on the last attempt is reported as {@code dead}
     */
    public Outcome around(ClaimedTask task, TaskOptions options, long lagMillis, int maxAttempts, Supplier<Outcome> delivery) {
        if (!enabled && options.trace() == null) {
            return delivery.get(); // the common case costs no future
        }
        // an outcome known at once is a completed future: the span ends before this returns
        return aroundAsync(task, options, lagMillis, maxAttempts, () -> CompletableFuture.completedFuture(delivery.get())).join();
    }

    /**
     * As {@link #around}, for a delivery that completes later ({@link io.delayq.worker.delivery.AsyncDelivery}): the
     * span is current while {@code delivery} starts (so that the request carries it) and ends when the outcome is known.
     */
    public CompletableFuture<Outcome> aroundAsync(ClaimedTask task, TaskOptions options, long lagMillis, int maxAttempts,
                                                  Supplier<CompletableFuture<Outcome>> delivery) {
        if (!enabled && options.trace() == null) {
            return delivery.get();
        }
        Context parent = options.trace() == null ? Context.root() : options.trace().extract(Context.root());
        if (!enabled) {
            try (Scope ignored = parent.makeCurrent()) {
                return delivery.get();
            }
        }
        Span span = start(task, parent, lagMillis);
        CompletableFuture<Outcome> outcome;
        try (Scope ignored = parent.with(span).makeCurrent()) {
            outcome = delivery.get();
        } catch (RuntimeException | Error e) {
            span.recordException(e);
            record(span, null, task.attempt(), maxAttempts);
            span.end();
            throw e;
        }
        outcome.whenComplete((o, e) -> {
            // cancelled: abandoned at the handler deadline, which retries the task
            record(span, e instanceof java.util.concurrent.CancellationException
                    ? new Outcome.Retry("abandoned at the handler deadline", null) : o, task.attempt(), maxAttempts);
            span.end();
        });
        return outcome;
    }

    private Span start(ClaimedTask task, Context parent, long lagMillis) {
        return tracer.spanBuilder(spanName).setSpanKind(SpanKind.CONSUMER).setParent(parent)
                .setAttribute(SYSTEM, "delayq")
                .setAttribute(OPERATION, "process")
                .setAttribute(DESTINATION, queue)
                .setAttribute(MESSAGE_ID, task.id())
                .setAttribute(SHARD, (long) task.shard())
                .setAttribute(ATTEMPT, (long) task.attempt())
                .setAttribute(LAG_MS, Math.max(0, lagMillis))
                .startSpan();
    }

    private static void record(Span span, Outcome outcome, int attempt, int maxAttempts) {
        if (outcome instanceof Outcome.Done) {
            span.setAttribute(OUTCOME, "acked");
        } else if (outcome instanceof Outcome.Retry r) {
            span.setAttribute(OUTCOME, maxAttempts > 0 && attempt >= maxAttempts ? "dead" : "retried");
            span.setStatus(StatusCode.ERROR, r.error());
        } else if (outcome instanceof Outcome.Dead d) {
            span.setAttribute(OUTCOME, "dead");
            span.setStatus(StatusCode.ERROR, d.error());
        } else if (outcome instanceof Outcome.Expired x) {
            span.setAttribute(OUTCOME, x.discard() ? "discarded" : "expired");
        } else {
            span.setAttribute(OUTCOME, "error");
            span.setStatus(StatusCode.ERROR, "delivery threw");
        }
    }
}
