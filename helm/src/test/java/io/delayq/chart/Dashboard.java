package io.delayq.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The Grafana dashboard the chart ships (files/dashboard.json) and its PromQL. */
public final class Dashboard {
    private Dashboard() {
    }

    public static JsonNode read() {
        Path file = RepoPaths.chart().resolve("files/dashboard.json");
        try {
            return new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Every panel target's expression, as written (with Grafana variables). */
    public static List<String> expressions(JsonNode dashboard) {
        List<String> exprs = new ArrayList<>();
        dashboard.path("panels").forEach(p -> p.path("targets").forEach(t -> exprs.add(t.path("expr").asText())));
        return exprs;
    }

    /** An expression as Prometheus can run it: variables replaced by "all" and a fixed rate window. */
    public static String runnable(String expr) {
        return expr.replace("$__rate_interval", "1m")
                .replace("\"$namespace\"", "\".*\"")
                .replace("\"$delayqueue\"", "\".*\"")
                .replace("\"$queue\"", "\".*\"");
    }
}
