package io.delayq.interop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One running driver: a JSON line per operation in, a JSON line per answer out. An answer is
 * {@code {"ok": value}} or {@code {"error": {"type", "message", "field"}}}.
 */
final class ProducerProcess implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final Process process;
    private final Writer in;
    private final BufferedReader out;
    private final Path stderr;
    private final JsonNode connectAnswer;

    private ProducerProcess(String name, Process process, Path stderr, Map<String, Object> config) throws IOException {
        this.name = name;
        this.process = process;
        this.stderr = stderr;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.connectAnswer = send(config);
    }

    static ProducerProcess start(String name, List<String> command, Map<String, Object> config) {
        try {
            Path stderr = Files.createTempFile("delayq-interop-" + name + "-", ".err");
            stderr.toFile().deleteOnExit();
            ProcessBuilder pb = new ProcessBuilder(command).redirectError(stderr.toFile());
            // a queue the library creates is recorded as this JVM's clients would record it (a test class may pin 2)
            pb.environment().put("DELAYQ_PROTOCOL", String.valueOf(io.delayq.queue.QueueProtocol.protocolForNewQueues()));
            Process p = pb.start();
            return new ProducerProcess(name, p, stderr, config);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The connect's error ({type, message, field}), or null when the library connected. */
    JsonNode connectError() {
        return connectAnswer.get("error");
    }

    /** Connected, or the test fails with the library's reason. */
    ProducerProcess connected() {
        assertThat(connectError()).as("%s connect error", name).isNull();
        return this;
    }

    /** Sends one operation; answers {ok} or {error}. */
    JsonNode call(Map<String, ?> op) {
        return send(op);
    }

    /** Sends one operation that must succeed; answers its value. */
    JsonNode ok(Map<String, ?> op) {
        JsonNode answer = send(op);
        assertThat(answer.get("error")).as("%s: error answering %s", name, op).isNull();
        return answer.get("ok");
    }

    private JsonNode send(Object message) {
        try {
            in.write(JSON.writeValueAsString(message));
            in.write('\n');
            in.flush();
            String line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).get(60, TimeUnit.SECONDS);
            if (line == null) {
                throw new AssertionError(name + " driver exited (" + exitCode() + "): " + Files.readString(stderr));
            }
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new AssertionError(name + " driver failed: " + stderrText(), e);
        } catch (Exception e) {
            throw new AssertionError(name + " driver did not answer " + message + ": " + stderrText(), e);
        }
    }

    private String exitCode() {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? String.valueOf(process.exitValue()) : "running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }

    private String stderrText() {
        try {
            return Files.readString(stderr);
        } catch (IOException e) {
            return "(no stderr: " + e + ")";
        }
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException ignored) {
            // the driver may have exited already
        }
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
