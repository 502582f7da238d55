package io.delayq.task;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.DelayQueueException;

/**
 * The JSON record stored in {@code dq:{q:i}:tasks} under the task id. Every field is optional, so
 * that producers in other languages can write it by hand:
 * <pre>{"payload":"text","enqueuedAt":1764460000000,"priority":1}</pre>
 * {@code payload} is any UTF-8 text (often JSON itself), {@code enqueuedAt} epoch ms,
 * {@code priority} 0 (default), 1 or 2 (highest).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record TaskRecord(String payload, Long enqueuedAt, Integer priority) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static final TaskRecord EMPTY = new TaskRecord(null, null, null);

    public int priorityLevel() {
        return priority == null ? 0 : Math.max(0, Math.min(Priority.MAX, priority));
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Decodes a stored record; {@code null} (a bare ZADD task) is an empty record. */
    public static TaskRecord fromJson(String json) {
        if (json == null || json.isEmpty()) {
            return EMPTY;
        }
        try {
            return JSON.readValue(json, TaskRecord.class);
        } catch (JsonProcessingException e) {
            throw new MalformedRecordException("task record is not valid JSON: " + e.getOriginalMessage());
        }
    }

    /** A stored record that does not follow the protocol: the worker dead-letters such a task. */
    public static final class MalformedRecordException extends DelayQueueException {
        public MalformedRecordException(String message) {
            super(message);
        }
    }
}
