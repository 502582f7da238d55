package io.delayq.worker.delivery;

import io.delayq.handler.Task;
import io.delayq.redis.Replies;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Hands due tasks to a Redis Stream for consumer groups (the "transfer queue" pattern). The task is
 * acked only after XADD succeeded; if the ack itself is lost the task is appended again on
 * re-delivery, so stream consumers deduplicate by the {@code id} field.
 */
public final class StreamDelivery implements Delivery {
    private final RedisClusterAsyncCommands<String, String> redis;
    private final String stream;
    private final long maxLen;
    private final Duration timeout;

    public StreamDelivery(RedisClusterAsyncCommands<String, String> redis, String stream, long maxLen, Duration timeout) {
        this.redis = redis;
        this.stream = stream;
        this.maxLen = maxLen;
        this.timeout = timeout;
    }

    @Override
    public String target() {
        return "Redis stream " + stream + (maxLen > 0 ? " (trimmed to ~" + maxLen + " entries)" : "");
    }

    @Override
    public Outcome deliver(Task task) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("id", task.id());
        fields.put("queue", task.queue());
        fields.put("attempt", String.valueOf(task.attempt()));
        fields.put("dueAt", String.valueOf(task.dueAt()));
        fields.put("payload", task.payload() == null ? "" : task.payload());
        // traceparent / tracestate of the delivery's span (or the producer's context), for the stream's consumers
        W3CTraceContextPropagator.getInstance().inject(Context.current(), fields, Map::put);
        XAddArgs args = new XAddArgs();
        if (maxLen > 0) {
            args.maxlen(maxLen).approximateTrimming();
        }
        try {
            // the entry's id is the task's result: where to find what was handed on
            return Outcome.done(Replies.await(redis.xadd(stream, args, fields), timeout));
        } catch (RuntimeException e) {
            return new Outcome.Retry("XADD to stream " + stream + " failed: " + Outcome.describe(e), null);
        }
    }
}
