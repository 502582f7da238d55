package io.delayq.console.tasks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.task.TaskOptions;
import io.delayq.task.TaskRecord;
import io.delayq.task.TraceContext;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The per-task options of one stored record (docs/protocol.md, "Per-task options"), structured for the task page:
 * the expiry with what happens at it and whether it has passed on the Redis clock, the retry overrides, the W3C trace
 * context split into its parts (with a link when the console knows a trace viewer), the dedup window and the debounce
 * wait with its burst's deadline (docs/protocol.md, "Dedup windows and debounce"), and every other field of a JSON
 * record that is not the payload, the enqueue time or the priority (a task group key, or a field of a later version),
 * as stored. Pure: unit-tested without Redis.
 */
public final class TaskOptionsView {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The record fields the page shows elsewhere, or structured here. */
    private static final Set<String> KNOWN = Set.of("payload", "enqueuedAt", "priority", "expiresAt", "onExpiry", "maxAttempts",
            "backoffMs", "backoffMaxMs", "backoffMultiplier", "traceparent", "tracestate", "dedupWindowMs", "debounceMaxWaitMs",
            "debounceDeadline");

    private TaskOptionsView() {
    }

    /**
     * {@code {expiry?, retry?, dedup?, trace?, other?}}, each present only when the record sets it; empty for a compact or bare
     * record. Null when the record is malformed (the page shows the decoder's reason instead).
     *
     * @param traceUrl a trace viewer's URL with {@code {traceId}} in it, or null
     */
    public static Map<String, Object> of(String storedRecord, long serverNow, String traceUrl) {
        TaskRecord record;
        try {
            record = TaskRecord.decode(storedRecord);
        } catch (TaskRecord.MalformedRecordException e) {
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        TaskOptions o = record.options();
        if (o.expiresAt() != null) {
            Map<String, Object> expiry = new LinkedHashMap<>();
            expiry.put("expiresAt", o.expiresAt());
            expiry.put("onExpiry", o.expiryAction().wire());
            expiry.put("defaultAction", o.onExpiry() == null);
            expiry.put("expired", o.expiresAt() <= serverNow);
            out.put("expiry", expiry);
        }
        if (o.overridesRetry()) {
            Map<String, Object> retry = new LinkedHashMap<>();
            putIfSet(retry, "maxAttempts", o.maxAttempts());
            putIfSet(retry, "backoffMs", o.backoffMs());
            putIfSet(retry, "backoffMaxMs", o.backoffMaxMs());
            putIfSet(retry, "backoffMultiplier", o.backoffMultiplier());
            out.put("retry", retry);
        }
        if (o.dedupWindowMs() != null || o.debounceMaxWaitMs() != null || o.debounceDeadline() != null) {
            Map<String, Object> dedup = new LinkedHashMap<>();
            putIfSet(dedup, "windowMs", o.dedupWindowMs());
            putIfSet(dedup, "debounceMaxWaitMs", o.debounceMaxWaitMs());
            putIfSet(dedup, "debounceDeadline", o.debounceDeadline());
            out.put("dedup", dedup);
        }
        JsonNode tree = tree(storedRecord);
        if (o.trace() != null) {
            out.put("trace", trace(o.trace(), traceUrl));
        } else if (tree != null && tree.hasNonNull("traceparent")) {
            // the worker ignores a malformed trace context (tracing never stops a task): say so, and why
            JsonNode raw = tree.get("traceparent");
            String problem = raw.isTextual() ? TraceContext.traceparentProblem(raw.textValue()) : "must be a string";
            out.put("trace", Map.of("traceparent", raw.isTextual() ? raw.textValue() : raw.toString(), "ignored", "traceparent " + problem));
        }
        Map<String, Object> other = otherFields(tree);
        if (!other.isEmpty()) {
            out.put("other", other);
        }
        return out;
    }

    private static Map<String, Object> trace(TraceContext t, String traceUrl) {
        Map<String, Object> trace = new LinkedHashMap<>();
        trace.put("traceparent", t.traceparent());
        trace.put("traceId", t.traceId());
        trace.put("parentId", t.parentId());
        trace.put("flags", t.flags());
        trace.put("sampled", t.sampled());
        putIfSet(trace, "tracestate", t.tracestate());
        if (traceUrl != null) {
            trace.put("url", traceUrl.replace("{traceId}", t.traceId()));
        }
        return trace;
    }

    /** The JSON form's tree (decoded once already, so it parses), or null for a compact or bare record. */
    private static JsonNode tree(String storedRecord) {
        if (storedRecord == null || !storedRecord.startsWith("{")) {
            return null;
        }
        try {
            return JSON.readTree(storedRecord);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** The JSON record's other fields, in stored order, as their JSON values. */
    private static Map<String, Object> otherFields(JsonNode tree) {
        Map<String, Object> other = new LinkedHashMap<>();
        if (tree == null) {
            return other;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (!KNOWN.contains(field.getKey())) {
                other.put(field.getKey(), JSON.convertValue(field.getValue(), Object.class));
            }
        }
        return other;
    }

    private static void putIfSet(Map<String, Object> m, String key, Object value) {
        if (value != null) {
            m.put(key, value);
        }
    }
}
