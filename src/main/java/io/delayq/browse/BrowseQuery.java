package io.delayq.browse;

import io.delayq.InvalidInputException;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * What to list: a state, optionally only ids starting with {@code idPrefix} and only scores (due
 * time, lease expiry or time of death) inside [{@code from}, {@code to}], {@code limit} tasks per page,
 * starting after {@code cursor} (null: from the start).
 */
public record BrowseQuery(BrowseState state, String idPrefix, Instant from, Instant to, int limit, String cursor) {
    public static final int MAX_LIMIT = 500;
    public static final int DEFAULT_LIMIT = 50;

    public BrowseQuery {
        if (state == null) {
            throw new InvalidInputException("state", "is required");
        }
        idPrefix = idPrefix == null ? "" : idPrefix;
        int bytes = idPrefix.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > 256) {
            throw new InvalidInputException("prefix", "must be at most 256 bytes of UTF-8 (the longest id), got " + bytes);
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new InvalidInputException("limit", "must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
        if (from != null && to != null && from.isAfter(to)) {
            throw new InvalidInputException("from", "must not be after 'to' (" + from + " > " + to + ")");
        }
        Position.fromCursor(cursor); // a malformed cursor is refused before anything is sent
    }

    public static BrowseQuery of(BrowseState state) {
        return new BrowseQuery(state, "", null, null, DEFAULT_LIMIT, null);
    }

    public BrowseQuery prefix(String prefix) {
        return new BrowseQuery(state, prefix, from, to, limit, cursor);
    }

    public BrowseQuery window(Instant from, Instant to) {
        return new BrowseQuery(state, idPrefix, from, to, limit, cursor);
    }

    public BrowseQuery limit(int n) {
        return new BrowseQuery(state, idPrefix, from, to, n, cursor);
    }

    public BrowseQuery after(String nextCursor) {
        return new BrowseQuery(state, idPrefix, from, to, limit, nextCursor);
    }

    public Position position() {
        return Position.fromCursor(cursor);
    }
}
