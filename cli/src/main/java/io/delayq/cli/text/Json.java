package io.delayq.cli.text;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.PrintWriter;

/** The JSON every {@code --output json} prints: pretty, one document per command. */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static {
        // JSON escapes only C0 by itself; DEL, C1 (U+009B is a CSI to some terminals) and invisible format
        // characters go out as \\uXXXX too, so JSON printed to a terminal cannot drive it either (still the same strings)
        MAPPER.getFactory().setCharacterEscapes(new TerminalEscapes());
    }

    private static final class TerminalEscapes extends CharacterEscapes {
        private final int[] ascii = CharacterEscapes.standardAsciiEscapesForJSON();

        TerminalEscapes() {
            ascii[0x7f] = CharacterEscapes.ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return TerminalText.unsafe(ch) ? new SerializedString(String.format("\\u%04x", ch)) : null;
        }
    }

    private Json() {
    }

    public static void print(PrintWriter out, Object value) {
        try {
            out.println(MAPPER.writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }
}
