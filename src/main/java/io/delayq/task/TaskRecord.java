package io.delayq.task;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delayq.DelayQueueException;

/**
 * The record stored under the task id in the shard's record hashes ({@code dq:{q:i}:tasks:<b>}).
 * Two forms, both read everywhere:
 * <ul>
 *   <li>compact, what delayq's own clients write when there is a payload and an enqueue time:
 *       {@code <priority digit 0-2><enqueuedAt in base 36>:<payload>}, e.g. {@code 0mikxxdds:{"order":42}}.
 *       It is ~40 bytes shorter than the JSON form, which keeps a 50-byte payload under Redis'
 *       64-byte listpack value limit (the memory target of protocol v2);</li>
 *   <li>JSON, the documented v1 form that producers in other languages write by hand (every field
 *       optional, unknown fields ignored): {@code {"payload":"text","enqueuedAt":1764460000000,"priority":1}}.
 *       delayq writes it itself when the compact form cannot say the record (no payload, or no enqueue time).</li>
 * </ul>
 * {@code payload} is any UTF-8 text (often JSON itself), {@code enqueuedAt} epoch ms,
 * {@code priority} 0 (default, also when absent), 1 or 2 (highest). A record with per-task
 * {@link TaskOptions} (expiry, retry overrides, trace context) is always JSON, its fields flat beside
 * these: {@code {"payload":"p","enqueuedAt":1764460000000,"expiresAt":1764463600000,"maxAttempts":10}}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record TaskRecord(String payload, Long enqueuedAt, Integer priority, TaskOptions options) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final String COMPACT_RULE =
            "task record must be JSON (starting with '{') or compact '<priority 0-2><enqueuedAt in base 36>:<payload>'";

    public static final TaskRecord EMPTY = new TaskRecord(null, null, null);

    public TaskRecord {
        if (options == null) {
            options = TaskOptions.NONE;
        }
    }

    public TaskRecord(String payload, Long enqueuedAt, Integer priority) {
        this(payload, enqueuedAt, priority, TaskOptions.NONE);
    }

    public int priorityLevel() {
        return priority == null ? 0 : Math.max(0, Math.min(Priority.MAX, priority));
    }

    /** The stored form: compact when there is a payload and an enqueue time and no option, JSON otherwise. */
    public String encode() {
        if (payload != null && enqueuedAt != null && options.isEmpty()) {
            return new StringBuilder(payload.length() + 12)
                    .append((char) ('0' + priorityLevel()))
                    .append(Long.toString(enqueuedAt, 36))
                    .append(':')
                    .append(payload)
                    .toString();
        }
        ObjectNode n = JSON.createObjectNode();
        if (payload != null) {
            n.put("payload", payload);
        }
        if (enqueuedAt != null) {
            n.put("enqueuedAt", enqueuedAt);
        }
        if (priority != null) {
            n.put("priority", priority);
        }
        putIfSet(n, "expiresAt", options.expiresAt());
        if (options.onExpiry() != null) {
            n.put("onExpiry", options.onExpiry().wire());
        }
        putIfSet(n, "maxAttempts", options.maxAttempts() == null ? null : options.maxAttempts().longValue());
        putIfSet(n, "backoffMs", options.backoffMs());
        putIfSet(n, "backoffMaxMs", options.backoffMaxMs());
        if (options.backoffMultiplier() != null) {
            double m = options.backoffMultiplier();
            // a whole multiplier as an integer ("3", not "3.0"), as JSON.stringify and the Python client write it
            if (m == Math.rint(m)) {
                n.put("backoffMultiplier", (long) m);
            } else {
                n.put("backoffMultiplier", m);
            }
        }
        if (options.trace() != null) {
            n.put("traceparent", options.trace().traceparent());
            if (options.trace().tracestate() != null) {
                n.put("tracestate", options.trace().tracestate());
            }
        }
        if (options.group() != null) {
            n.put("group", options.group());
        }
        putIfSet(n, "dedupWindowMs", options.dedupWindowMs());
        putIfSet(n, "debounceMaxWaitMs", options.debounceMaxWaitMs());
        try {
            return JSON.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void putIfSet(ObjectNode n, String field, Long value) {
        if (value != null) {
            n.put(field, value);
        }
    }

    /**
     * Decodes a stored record in either form; {@code null} or empty (a bare ZADD task) is an empty
     * record. The compact form is parsed without Jackson: it is on the worker's hot path.
     */
    public static TaskRecord decode(String stored) {
        if (stored == null || stored.isEmpty()) {
            return EMPTY;
        }
        char first = stored.charAt(0);
        if (first == '{') {
            return decodeJson(stored);
        }
        if (first == '[' || first == '"') {
            throw new MalformedRecordException("task record is JSON but not an object (it starts with '" + first + "')");
        }
        if (first < '0' || first > '2') {
            throw new MalformedRecordException(COMPACT_RULE + "; it starts with '" + first + "'");
        }
        int colon = stored.indexOf(':', 1);
        if (colon < 0) {
            throw new MalformedRecordException(COMPACT_RULE + "; the ':' before the payload is missing");
        }
        char sign = colon > 1 ? stored.charAt(1) : ' ';
        if (sign == '-' || sign == '+') {
            throw new MalformedRecordException(COMPACT_RULE + "; enqueuedAt '" + stored.substring(1, colon) + "' has a sign");
        }
        long enqueuedAt;
        try {
            enqueuedAt = Long.parseLong(stored, 1, colon, 36);
        } catch (NumberFormatException e) {
            throw new MalformedRecordException(COMPACT_RULE + "; enqueuedAt '" + stored.substring(1, colon) + "' is not a base-36 number");
        }
        int level = first - '0';
        // priority 0 is stored as absent, as in records built by TaskSpec, so that decode(encode(r)) == r
        return new TaskRecord(stored.substring(colon + 1), enqueuedAt, level == 0 ? null : level);
    }

    private static TaskRecord decodeJson(String json) {
        if (json.equals("{}")) {
            return EMPTY; // what a claim stores for a bare ZADD task: skip the parser
        }
        TaskRecord withoutPayload = decodeWithoutPayload(json);
        if (withoutPayload != null) {
            return withoutPayload;
        }
        JsonNode tree;
        try {
            tree = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new MalformedRecordException("task record is not valid JSON: " + e.getOriginalMessage());
        }
        if (tree == null || !tree.isObject()) {
            throw new MalformedRecordException("task record is JSON but not an object");
        }
        return new TaskRecord(payloadField(tree.get("payload")), enqueuedAtField(tree.get("enqueuedAt")),
                priorityField(tree.get("priority")), optionsFields(tree));
    }

    private static final String ENQUEUED_AT_ONLY = "{\"enqueuedAt\":";
    private static final String THEN_PRIORITY = ",\"priority\":";

    /**
     * {@code {"enqueuedAt":<ms>}} or {@code {"enqueuedAt":<ms>,"priority":<1|2>}}, exactly as {@link #encode()} writes a
     * task without a payload (the "keep the data in the business table" style), read without Jackson: on a worker
     * draining such tasks the parser was a sixth of a handler thread's time. Anything else (other spacing, order or
     * fields, a leading zero Jackson refuses) returns null and goes to the parser, so both paths agree.
     */
    private static TaskRecord decodeWithoutPayload(String json) {
        if (!json.startsWith(ENQUEUED_AT_ONLY)) {
            return null;
        }
        int start = ENQUEUED_AT_ONLY.length();
        int end = start;
        while (end < json.length() && json.charAt(end) >= '0' && json.charAt(end) <= '9') {
            end++;
        }
        int digits = end - start;
        if (digits == 0 || digits > 18 || (digits > 1 && json.charAt(start) == '0')) {
            return null;
        }
        Integer priority = null;
        int close = end;
        if (json.startsWith(THEN_PRIORITY, end) && json.length() > end + THEN_PRIORITY.length()) {
            char level = json.charAt(end + THEN_PRIORITY.length());
            if (level != '1' && level != '2') {
                return null;
            }
            priority = level - '0';
            close = end + THEN_PRIORITY.length() + 1;
        }
        if (close != json.length() - 1 || json.charAt(close) != '}') {
            return null;
        }
        return new TaskRecord(null, Long.parseLong(json, start, end, 10), priority);
    }

    /**
     * The per-task options. A control that breaks its rule makes the record malformed (dead-lettered
     * with the field and the rule: running a task against the producer's stated limits is worse than
     * parking it). A trace context that breaks the W3C format is dropped instead: tracing must never
     * stop a task, the worker's span then starts a trace of its own.
     */
    private static TaskOptions optionsFields(JsonNode tree) {
        if (!tree.has("expiresAt") && !tree.has("onExpiry") && !tree.has("maxAttempts") && !tree.has("backoffMs")
                && !tree.has("backoffMaxMs") && !tree.has("backoffMultiplier") && !tree.has("traceparent") && !tree.has("group")
                && !tree.has("dedupWindowMs") && !tree.has("debounceMaxWaitMs") && !tree.has("debounceDeadline")) {
            return TaskOptions.NONE;
        }
        Long expiresAt = checked("expiresAt", wholeField(tree.get("expiresAt"), "expiresAt", "epoch milliseconds"),
                TaskOptions::expiresAtProblem);
        ExpiryAction onExpiry = null;
        JsonNode action = tree.get("onExpiry");
        if (!absent(action)) {
            if (!action.isTextual() || !(action.textValue().equals("dead-letter") || action.textValue().equals("discard"))) {
                throw new MalformedRecordException("task record field 'onExpiry' must be \"dead-letter\" or \"discard\", got " + kind(action));
            }
            onExpiry = ExpiryAction.fromWire(action.textValue());
        }
        Long attempts = wholeField(tree.get("maxAttempts"), "maxAttempts", "a whole number");
        Integer maxAttempts = attempts == null ? null : (int) Math.min(Integer.MAX_VALUE, attempts);
        checked("maxAttempts", maxAttempts, TaskOptions::maxAttemptsProblem);
        Long backoffMs = checked("backoffMs", wholeField(tree.get("backoffMs"), "backoffMs", "milliseconds"), TaskOptions::backoffProblem);
        Long backoffMaxMs = checked("backoffMaxMs", wholeField(tree.get("backoffMaxMs"), "backoffMaxMs", "milliseconds"),
                TaskOptions::backoffProblem);
        if (backoffMs != null && backoffMaxMs != null && backoffMaxMs < backoffMs) {
            throw new MalformedRecordException("task record field 'backoffMaxMs' must not be below backoffMs (" + backoffMs + "), got " + backoffMaxMs);
        }
        Double multiplier = null;
        JsonNode m = tree.get("backoffMultiplier");
        if (!absent(m)) {
            if (!m.isNumber()) {
                throw new MalformedRecordException("task record field 'backoffMultiplier' must be a number from 1 to 100, got " + kind(m));
            }
            multiplier = checked("backoffMultiplier", m.doubleValue(), TaskOptions::multiplierProblem);
        }
        // onExpiry alone says nothing (there is no expiry to act on): ignored, as an unknown field would be
        return new TaskOptions(expiresAt, expiresAt == null ? null : onExpiry, maxAttempts, backoffMs, backoffMaxMs, multiplier,
                traceFields(tree), groupField(tree.get("group")),
                checked("dedupWindowMs", wholeField(tree.get("dedupWindowMs"), "dedupWindowMs", "milliseconds"), TaskOptions::windowProblem),
                checked("debounceMaxWaitMs", wholeField(tree.get("debounceMaxWaitMs"), "debounceMaxWaitMs", "milliseconds"),
                        TaskOptions::windowProblem),
                wholeField(tree.get("debounceDeadline"), "debounceDeadline", "epoch milliseconds"));
    }

    /** A group key breaking its rule makes the record malformed (the scripts leave such a task in the plain due set, ungrouped). */
    private static String groupField(JsonNode v) {
        if (absent(v)) {
            return null;
        }
        if (!v.isTextual()) {
            throw new MalformedRecordException("task record field 'group' must be a JSON string of 1 to " + TaskGroup.MAX_BYTES
                    + " ASCII letters, digits and - _ . : @ /, got " + kind(v));
        }
        String problem = TaskGroup.problem(v.textValue());
        if (problem != null) {
            throw new MalformedRecordException("task record field 'group' " + problem);
        }
        return v.textValue();
    }

    private static TraceContext traceFields(JsonNode tree) {
        JsonNode parent = tree.get("traceparent");
        JsonNode state = tree.get("tracestate");
        if (absent(parent) || !parent.isTextual() || TraceContext.traceparentProblem(parent.textValue()) != null) {
            return null;
        }
        String stateText = !absent(state) && state.isTextual() && TraceContext.tracestateProblem(state.textValue()) == null
                ? state.textValue() : null;
        return new TraceContext(parent.textValue(), stateText);
    }

    private static <T> T checked(String field, T value, java.util.function.Function<T, String> rule) {
        String problem = rule.apply(value);
        if (problem != null) {
            throw new MalformedRecordException("task record field '" + field + "' " + problem);
        }
        return value;
    }

    /** A whole JSON number (a fraction is dropped) or its digits as a string; null when absent. */
    private static Long wholeField(JsonNode v, String field, String what) {
        if (absent(v)) {
            return null;
        }
        if (v.isNumber() && Double.isFinite(v.doubleValue()) && Math.abs(v.doubleValue()) < 9.2e18) {
            return v.longValue();
        }
        if (v.isTextual() && v.textValue().matches("-?[0-9]{1,18}")) {
            return Long.parseLong(v.textValue());
        }
        throw new MalformedRecordException("task record field '" + field + "' must be " + what + " (a JSON number), got " + kind(v));
    }

    private static String payloadField(JsonNode v) {
        if (absent(v)) {
            return null;
        }
        if (!v.isTextual()) {
            throw new MalformedRecordException("task record field 'payload' must be a JSON string (send JSON as text, "
                    + "\"{\\\"order\\\":12}\"), got " + kind(v));
        }
        return v.textValue();
    }

    /** Epoch ms: a whole number (a fraction is dropped) or its digits as a string, as the v1 reader took it. */
    private static Long enqueuedAtField(JsonNode v) {
        if (absent(v)) {
            return null;
        }
        long ms = -1;
        if (v.isNumber() && Double.isFinite(v.doubleValue()) && v.doubleValue() >= 0 && v.doubleValue() < 9.2e18) {
            ms = v.longValue();
        } else if (v.isTextual() && !v.textValue().isEmpty() && v.textValue().length() < 19 && v.textValue().chars().allMatch(Character::isDigit)) {
            ms = Long.parseLong(v.textValue());
        }
        if (ms < 0) {
            throw new MalformedRecordException("task record field 'enqueuedAt' must be epoch milliseconds (a number >= 0), got " + kind(v));
        }
        return ms;
    }

    /** 0, 1 or 2, also written as a string ("2"); 0 is returned as absent, as TaskSpec builds records. */
    private static Integer priorityField(JsonNode v) {
        if (absent(v)) {
            return null;
        }
        String text = v.isNumber() ? v.asText() : v.isTextual() ? v.textValue() : null;
        int level = switch (text == null ? "" : text) {
            case "0", "0.0" -> 0;
            case "1", "1.0" -> 1;
            case "2", "2.0" -> 2;
            default -> throw new MalformedRecordException("task record field 'priority' must be 0, 1 or 2, got " + kind(v));
        };
        return level == 0 ? null : level;
    }

    private static boolean absent(JsonNode v) {
        return v == null || v.isNull();
    }

    private static String kind(JsonNode v) {
        String shown = v.toString();
        if (shown.length() > 40) {
            shown = shown.substring(0, 40) + "...";
        }
        String type = v.isTextual() ? "a string" : v.isNumber() ? "a number" : v.isBoolean() ? "a boolean"
                : v.isArray() ? "an array" : v.isObject() ? "an object" : v.getNodeType().toString().toLowerCase();
        return type + " " + shown;
    }

    /** A stored record that does not follow the protocol: the worker dead-letters such a task. */
    public static final class MalformedRecordException extends DelayQueueException {
        public MalformedRecordException(String message) {
            super(message);
        }
    }
}
