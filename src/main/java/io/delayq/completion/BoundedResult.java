package io.delayq.completion;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;

/**
 * A task's result as a completion record keeps it: at most {@link CompletionRecord#RESULT_MAX_BYTES} bytes of UTF-8, a
 * longer one cut on a character boundary with {@code truncated} set. Cutting never fails the ack: a handler's result
 * is a note about the task, not part of its outcome.
 */
public record BoundedResult(String text, boolean truncated) {
    public static final BoundedResult NONE = new BoundedResult("", false);

    public static BoundedResult of(String result) {
        return of(result, CompletionRecord.RESULT_MAX_BYTES);
    }

    static BoundedResult of(String result, int maxBytes) {
        if (result == null || result.isEmpty()) {
            return NONE;
        }
        // a UTF-8 character is at most 4 bytes, at least as many bytes as chars: short texts need no encoding
        if (result.length() * 3 <= maxBytes) {
            return new BoundedResult(result, false);
        }
        CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder();
        ByteBuffer out = ByteBuffer.allocate(maxBytes);
        CharBuffer in = CharBuffer.wrap(result);
        CoderResult r = encoder.encode(in, out, true);
        if (r.isUnderflow()) {
            return new BoundedResult(result, false);
        }
        // the encoder stops before a character that does not fit whole (a surrogate pair stays together)
        return new BoundedResult(result.substring(0, in.position()), true);
    }
}
