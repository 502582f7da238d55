package io.delayq.worker.tracing;

import io.delayq.settings.ConfigException;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The stand-alone worker's OpenTelemetry SDK: built only when {@code OTEL_TRACES_EXPORTER} names an
 * exporter (off by default: no SDK, no export thread, spans cost nothing), then configured by the
 * standard {@code OTEL_*} variables, OTLP over HTTP/protobuf by default. Metrics and logs stay with
 * Prometheus and the log file ({@code OTEL_METRICS_EXPORTER}, {@code OTEL_LOGS_EXPORTER} default to none).
 */
public final class WorkerTelemetry {
    public static final String EXPORTER = "OTEL_TRACES_EXPORTER";

    private WorkerTelemetry() {
    }

    public static boolean configured(Map<String, String> env) {
        String exporter = env.get(EXPORTER);
        return exporter != null && !exporter.isBlank() && !exporter.trim().equalsIgnoreCase("none");
    }

    /** The SDK the {@code OTEL_*} entries of {@code env} describe, or null when tracing is off. */
    public static OpenTelemetrySdk fromEnvironment(Map<String, String> env) {
        if (!configured(env)) {
            return null;
        }
        Map<String, String> properties = new HashMap<>();
        properties.put("otel.service.name", "delayq-worker");
        properties.put("otel.metrics.exporter", "none");
        properties.put("otel.logs.exporter", "none");
        // the worker ships the JDK HTTP sender only (no gRPC, no OkHttp)
        properties.put("otel.exporter.otlp.protocol", "http/protobuf");
        env.forEach((k, v) -> {
            if (k.startsWith("OTEL_")) {
                properties.put(k.toLowerCase(Locale.ROOT).replace('_', '.'), v);
            }
        });
        String protocol = properties.getOrDefault("otel.exporter.otlp.traces.protocol", properties.get("otel.exporter.otlp.protocol"));
        if (!"http/protobuf".equals(protocol)) {
            throw new ConfigException("OTEL_EXPORTER_OTLP_PROTOCOL", "must be http/protobuf (this worker ships no gRPC sender), got '" + protocol + "'");
        }
        try {
            return AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesSupplier(() -> properties)
                    .disableShutdownHook()
                    .build()
                    .getOpenTelemetrySdk();
        } catch (ConfigurationException e) {
            throw new ConfigException(EXPORTER, "OpenTelemetry configuration refused: " + e.getMessage());
        }
    }
}
