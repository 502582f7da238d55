package io.delayq.task;

import io.delayq.InvalidInputException;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The W3C trace context (https://www.w3.org/TR/trace-context/) of the request that scheduled a task,
 * kept in its record so that the worker's span joins the producer's trace.
 */
public record TraceContext(String traceparent, String tracestate) {
    /** version-traceid-parentid-flags; a version above 00 may append fields, version ff is invalid. */
    private static final Pattern TRACEPARENT = Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?");
    /** What propagators must at least pass on (the W3C limit for tracestate). */
    public static final int MAX_TRACESTATE = 512;

    private static final TextMapGetter<Map<String, String>> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    public TraceContext {
        if (traceparent == null && tracestate != null) {
            throw new InvalidInputException("tracestate", "needs a traceparent");
        }
        String problem = traceparentProblem(traceparent);
        if (problem != null) {
            throw new InvalidInputException("traceparent", problem);
        }
        problem = tracestateProblem(tracestate);
        if (problem != null) {
            throw new InvalidInputException("tracestate", problem);
        }
        if (tracestate != null && tracestate.isEmpty()) {
            tracestate = null;
        }
    }

    /** The 32-hex trace id of the traceparent (valid: the constructor checked it). */
    public String traceId() {
        return field(2);
    }

    /** The 16-hex id of the producer's span, the parent of the delivery's. */
    public String parentId() {
        return field(3);
    }

    /** The 2-hex trace flags. */
    public String flags() {
        return field(4);
    }

    /** Whether the producer sampled its trace (flag bit 0). */
    public boolean sampled() {
        return (Integer.parseInt(flags(), 16) & 1) == 1;
    }

    private String field(int group) {
        var m = TRACEPARENT.matcher(traceparent);
        if (!m.matches()) {
            throw new IllegalStateException("checked at construction: " + traceparent);
        }
        return m.group(group);
    }

    /** Why {@code value} is not a W3C traceparent, or null when it is one. */
    public static String traceparentProblem(String value) {
        if (value == null) {
            return "must not be null";
        }
        var m = TRACEPARENT.matcher(value);
        if (!m.matches()) {
            return "must be a W3C traceparent, 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags> in lower case, got \""
                    + shorten(value) + "\"";
        }
        if (m.group(1).equals("ff")) {
            return "version ff is invalid (W3C trace context), got \"" + shorten(value) + "\"";
        }
        if (m.group(1).equals("00") && m.group(5) != null) {
            return "a version 00 traceparent is exactly 55 characters, got " + value.length();
        }
        if (m.group(2).chars().allMatch(c -> c == '0')) {
            return "trace id must not be all zeros";
        }
        if (m.group(3).chars().allMatch(c -> c == '0')) {
            return "parent id must not be all zeros";
        }
        return null;
    }

    /** Why {@code value} is not a tracestate delayq keeps, or null when it is fine (null and empty are fine). */
    public static String tracestateProblem(String value) {
        if (value == null) {
            return null;
        }
        if (value.length() > MAX_TRACESTATE) {
            return "must be at most " + MAX_TRACESTATE + " characters (the W3C limit), got " + value.length();
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return "must be printable ASCII (W3C list of key=value), got character U+" + String.format("%04X", (int) c) + " at " + i;
            }
        }
        return null;
    }

    /**
     * The trace context of {@link Context#current()} (the caller's active span, as the OpenTelemetry agent
     * or SDK set it), or null when there is no valid span: without OpenTelemetry this costs a thread-local read.
     */
    public static TraceContext current() {
        Map<String, String> carrier = new HashMap<>(4);
        W3CTraceContextPropagator.getInstance().inject(Context.current(), carrier, (c, k, v) -> c.put(k, v));
        String parent = carrier.get("traceparent");
        return parent == null ? null : new TraceContext(parent, carrier.get("tracestate"));
    }

    /** This context as the parent of a new span (an OpenTelemetry {@link Context} around {@code base}). */
    public Context extract(Context base) {
        Map<String, String> carrier = new HashMap<>(4);
        carrier.put("traceparent", traceparent);
        if (tracestate != null) {
            carrier.put("tracestate", tracestate);
        }
        return W3CTraceContextPropagator.getInstance().extract(base, carrier, GETTER);
    }

    private static String shorten(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
