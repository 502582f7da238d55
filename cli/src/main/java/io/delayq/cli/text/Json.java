package io.delayq.cli.text;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.PrintWriter;

/** The JSON every {@code --output json} prints: pretty, one document per command. */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

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
