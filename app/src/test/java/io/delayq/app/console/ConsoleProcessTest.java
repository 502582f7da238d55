package io.delayq.app.console;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code delayq console} as a newcomer runs it: no REDIS_URL, so it starts a redis-server, fills the
 * sample queue, prints an action token and serves the pages; SIGTERM stops it with exit 0.
 */
class ConsoleProcessTest {
    private static final Pattern URL = Pattern.compile("delayq console at (http://127\\.0\\.0\\.1:\\d+/)");

    @Test
    void oneCommandStartsAConsoleOnALocalRedisWithASampleQueue() throws Exception {
        Path jar = Path.of("target", "delayq.jar").toAbsolutePath();
        Path log = Files.createTempFile("delayq-console-", ".log");
        ProcessBuilder pb = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString(), "console", "--port", "0")).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("DELAYQ_") || k.equals("REDIS_URL"));
        Process console = pb.start();
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> URL.matcher(Files.readString(log)).find() || !console.isAlive());
            String out = Files.readString(log);
            Matcher m = URL.matcher(out);
            assertThat(m.find()).as(out).isTrue();
            assertThat(out).contains("No REDIS_URL set: started a local redis-server")
                    .contains("Filled sample queue 'shop-orders' (8 shards): " + (5000 + io.delayq.console.sample.SampleQueue.WITH_OPTIONS)
                            + " scheduled, 40 due, 2 in flight, 24 dead")
                    .containsPattern("Action token for this run: [0-9a-f]{24}");
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(m.group(1))).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<title>delayq console</title>");
            HttpResponse<String> overview = http.send(HttpRequest.newBuilder(URI.create(m.group(1) + "api/overview")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(overview.body()).contains("\"name\":\"shop-orders\"").contains("\"scheduled\":" + (5000 + io.delayq.console.sample.SampleQueue.WITH_OPTIONS)).contains("\"dead\":24");
        } finally {
            console.destroy(); // SIGTERM
        }
        assertThat(console.waitFor(20, TimeUnit.SECONDS)).isTrue();
        String out = Files.readString(log);
        assertThat(console.exitValue()).as(out).isZero();
        assertThat(out).contains("Stopping the console.").doesNotContain("Exception");
    }
}
