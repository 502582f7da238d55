package io.delayq.task;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A task id as it can be shown in one log line: UTF-8 text as it is, with control characters, quotes and
 * backslashes escaped; bytes that are not UTF-8 as {@code \xNN}, so {@code bin\xff\xfeid} shows exactly
 * what a producer wrote.
 */
public final class TaskIdText {
    private TaskIdText() {
    }

    public static String show(String id) {
        return show(id.getBytes(StandardCharsets.UTF_8));
    }

    public static String show(byte[] id) {
        StringBuilder out = new StringBuilder(id.length + 8);
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(id)).toString();
            text.codePoints().forEach(c -> {
                if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
                    out.append(String.format("\\x%02x", c));
                } else {
                    escapeQuote(out, c);
                }
            });
        } catch (CharacterCodingException notUtf8) {
            for (byte b : id) {
                int c = b & 0xff;
                if (c < 0x20 || c >= 0x7f) {
                    out.append(String.format("\\x%02x", c));
                } else {
                    escapeQuote(out, c);
                }
            }
        }
        return out.toString();
    }

    private static void escapeQuote(StringBuilder out, int c) {
        if (c == '\\' || c == '"') {
            out.append('\\');
        }
        out.appendCodePoint(c);
    }
}
