package io.delayq.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Jackson's YAML reader and writer, with the multi-document handling Helm's output needs. */
public final class Yaml {
    public static final ObjectMapper MAPPER = new ObjectMapper(
            YAMLFactory.builder().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build());

    private Yaml() {
    }

    /** Every non-empty document of a multi-document YAML stream. */
    public static List<JsonNode> documents(String text) {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = MAPPER.readerFor(JsonNode.class).readValues(text)) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && doc.isObject() && !doc.isEmpty()) {
                    docs.add(doc);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse YAML: " + e.getMessage(), e);
        }
        return docs;
    }

    public static JsonNode read(Path file) {
        try {
            return MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    public static void write(Path file, Object value) {
        try {
            Files.createDirectories(file.getParent());
            MAPPER.writeValue(file.toFile(), value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
