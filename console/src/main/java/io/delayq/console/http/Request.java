package io.delayq.console.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One API request: method, decoded path segments, query parameters and (for POST) a bounded JSON body. */
public final class Request {
    static final int MAX_BODY_BYTES = 256 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpExchange exchange;
    private final List<String> segments;
    private final Map<String, String> query;

    Request(HttpExchange exchange, List<String> segments) {
        this.exchange = exchange;
        this.segments = segments;
        this.query = parseQuery(exchange.getRequestURI().getRawQuery());
    }

    public String method() {
        return exchange.getRequestMethod();
    }

    public List<String> segments() {
        return segments;
    }

    public String segment(int i) {
        return segments.get(i);
    }

    public String param(String name) {
        String v = query.get(name);
        return v == null || v.isBlank() ? null : v.trim();
    }

    public String header(String name) {
        return exchange.getRequestHeaders().getFirst(name);
    }

    public String remoteAddress() {
        return exchange.getRemoteAddress().getAddress().getHostAddress();
    }

    public HttpExchange exchange() {
        return exchange;
    }

    /** The body as JSON; refused when larger than {@link #MAX_BODY_BYTES} or not JSON. */
    public JsonNode json() throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
            if (body.length > MAX_BODY_BYTES) {
                throw ApiException.badRequest("body", "must be at most " + MAX_BODY_BYTES + " bytes");
            }
            if (body.length == 0) {
                return JSON.createObjectNode();
            }
            try {
                JsonNode node = JSON.readTree(body);
                if (node == null || !node.isObject()) {
                    throw ApiException.badRequest("body", "must be a JSON object");
                }
                return node;
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw ApiException.badRequest("body", "is not valid JSON: " + e.getOriginalMessage());
            }
        }
    }

    static Map<String, String> parseQuery(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            String v = eq < 0 ? "" : pair.substring(eq + 1);
            try {
                out.putIfAbsent(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest(k, "is not URL-encoded correctly");
            }
        }
        return out;
    }
}
