package io.delayq.cli.backfill;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.Iterator;
import java.util.Set;

/**
 * JSON lines: one object per line, {@code {"id":"order-1","dueAt":"2026-12-01T10:00:00Z","payload":"..."}}.
 * {@code dueAt} is an ISO-8601 instant or epoch milliseconds; {@code payload} a string, or any JSON
 * value (stored as its JSON text); optional {@code priority} 0..2. Blank lines are skipped.
 */
final class JsonLinesReader implements RowReader {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> FIELDS = Set.of("id", "dueAt", "payload", "priority");

    private final BufferedReader in;
    private long line;

    JsonLinesReader(BufferedReader in) {
        this.in = in;
    }

    @Override
    public Row next() throws IOException {
        String text;
        do {
            text = in.readLine();
            line++;
            if (text == null) {
                return null;
            }
            if (line == 1 && text.startsWith("\uFEFF")) {
                text = text.substring(1);
            }
        } while (text.isBlank());
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return Row.rejected(line, "not valid JSON (" + e.getOriginalMessage() + ")");
        }
        if (node == null || !node.isObject()) {
            return Row.rejected(line, "not a JSON object: each line must be {\"id\":…,\"dueAt\":…,\"payload\":…}");
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                return Row.rejected(line, name + ": unknown field (the fields are id, dueAt, payload, priority)");
            }
        }
        JsonNode id = node.get("id");
        if (id != null && !id.isTextual() && !id.isIntegralNumber()) {
            return Row.rejected(line, "id: must be a string, got " + id.getNodeType().name().toLowerCase());
        }
        JsonNode due = node.get("dueAt");
        if (due != null && !due.isTextual() && !due.isIntegralNumber()) {
            return Row.rejected(line, "dueAt: must be an ISO-8601 string or epoch milliseconds, got " + due);
        }
        JsonNode payload = node.get("payload");
        JsonNode priority = node.get("priority");
        if (priority != null && !priority.isNull() && !priority.isIntegralNumber()) {
            return Row.rejected(line, "priority: must be 0, 1 or 2, got " + priority);
        }
        return RowReader.task(line, id == null ? null : id.asText(), due == null ? null : due.asText(),
                payload == null || payload.isNull() ? null : payload.isTextual() ? payload.asText() : payload.toString(),
                priority == null || priority.isNull() ? null : priority.asText());
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
