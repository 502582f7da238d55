package io.delayq.health;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

class ProbeServerTest {
    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(ProbeServer server, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void answersMetricsAndTheProbesFromTheirSuppliers() throws Exception {
        AtomicBoolean live = new AtomicBoolean(true);
        AtomicBoolean ready = new AtomicBoolean(false);
        try (ProbeServer server = new ProbeServer(0, "probe-test", () -> "delayq_up 1\n", live::get, ready::get)) {
            HttpResponse<String> metrics = get(server, "/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.body()).isEqualTo("delayq_up 1\n");
            assertThat(metrics.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");

            assertThat(get(server, "/healthz").statusCode()).isEqualTo(200);
            assertThat(get(server, "/readyz").statusCode()).isEqualTo(503);
            ready.set(true);
            live.set(false);
            assertThat(get(server, "/readyz").statusCode()).isEqualTo(200);
            assertThat(get(server, "/healthz").statusCode()).isEqualTo(503);
        }
    }
}
