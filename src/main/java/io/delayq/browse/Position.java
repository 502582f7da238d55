package io.delayq.browse;

import io.delayq.InvalidInputException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * A place in a browse order: score, then the id's UTF-8 bytes (the order Redis gives members of
 * equal score, and the order browse.lua compares). Its text form is the opaque page cursor.
 */
public record Position(long score, String id) implements Comparable<Position> {
    private static final String VERSION = "c1";

    @Override
    public int compareTo(Position o) {
        int c = Long.compare(score, o.score);
        return c != 0 ? c : Arrays.compareUnsigned(id.getBytes(StandardCharsets.UTF_8), o.id.getBytes(StandardCharsets.UTF_8));
    }

    /** The opaque cursor a page hands out for the next one. */
    public String cursor() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((VERSION + ":" + score + ":" + id).getBytes(StandardCharsets.UTF_8));
    }

    /** Reads a cursor from {@link #cursor()}; anything else is refused naming the field. */
    public static Position fromCursor(String cursor) {
        if (cursor == null || cursor.isBlank()) {
            return null;
        }
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(cursor.trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw malformed();
        }
        String[] parts = text.split(":", 3);
        if (parts.length != 3 || !parts[0].equals(VERSION) || parts[2].isEmpty()) {
            throw malformed();
        }
        try {
            return new Position(Long.parseLong(parts[1]), parts[2]);
        } catch (NumberFormatException e) {
            throw malformed();
        }
    }

    private static InvalidInputException malformed() {
        return new InvalidInputException("cursor", "is not a cursor this browser handed out (use the 'next' value of a page, or none to start)");
    }
}
