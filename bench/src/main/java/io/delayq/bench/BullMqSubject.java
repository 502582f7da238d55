package io.delayq.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * BullMQ delayed jobs, run by node ({@code bench/bullmq/bench.js}): one node process per workload,
 * driven by JSON lines on stdin and answering with JSON lines, so that the harness reads Redis'
 * counters right around each phase. Handlers do nothing; completed jobs are removed.
 */
final class BullMqSubject implements Subject {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path script;
    private final int concurrency;
    private final boolean measuresMemory;
    private final Path log;
    private String version = "6.7.0";

    BullMqSubject(Path script, int concurrency, boolean measuresMemory, Path log) {
        this.script = script;
        this.concurrency = concurrency;
        this.measuresMemory = measuresMemory;
        this.log = log;
    }

    @Override
    public String system() {
        return "BullMQ " + version;
    }

    @Override
    public String variant() {
        return "concurrency " + concurrency;
    }

    @Override
    public String settings() {
        return "node " + nodeVersion() + ", one Worker with concurrency " + concurrency
                + ", jobs added with { delay } (W1: addBulk of 1,000, 4 in flight; W2: queue.add per job), removeOnComplete";
    }

    @Override
    public Results.W1 w1(Workbench bench) throws Exception {
        int n = bench.sizes().w1Tasks();
        try (Node node = new Node(bench)) {
            RedisProbe.Snapshot s0 = bench.probe().snapshot();
            JsonNode enq = node.call(command("w1enqueue").put("n", n));
            RedisProbe.Snapshot s1 = bench.probe().snapshot();
            long cpu0 = ClientCpu.processNanos(node.pid());
            JsonNode drain = node.call(command("w1drain").put("n", n).put("concurrency", concurrency));
            RedisProbe.Snapshot s2 = bench.probe().snapshot();
            long cpu1 = ClientCpu.processNanos(node.pid());
            String note = drain.path("timedOut").asBoolean() ? "timed out" : "";
            return new Results.W1(n, enq.get("ms").asDouble() / 1000, drain.get("firstToLastAckedMs").asDouble() / 1000,
                    drain.get("completed").asInt(), drain.get("dups").asInt(), s0.until(s1), s1.until(s2), (cpu1 - cpu0) / 1e6, note);
        }
    }

    @Override
    public Results.W2 w2(Workbench bench) throws Exception {
        Sizes sizes = bench.sizes();
        try (Node node = new Node(bench)) {
            RedisProbe.Snapshot s0 = bench.probe().snapshot();
            JsonNode r = node.call(command("w2").put("rate", sizes.w2Rate()).put("seconds", sizes.w2Seconds())
                    .put("maxDelayMs", sizes.w2MaxDelayMs()).put("concurrency", concurrency).put("seed", bench.seed())
                    .put("graceMs", JvmSubject.W2_GRACE_MILLIS));
            RedisProbe.Snapshot s1 = bench.probe().snapshot();
            JsonNode lags = r.get("lagsMicros");
            long[] handled = new long[r.get("distinct").asInt()];
            int k = 0;
            for (JsonNode lag : lags) {
                if (lag.asLong() != -1 && k < handled.length) {
                    handled[k++] = lag.asLong();
                }
            }
            int n = r.get("n").asInt();
            int lost = n - r.get("distinct").asInt();
            int dups = node.call(command("w2stop")).get("dups").asInt();
            return Results.W2.of(n, handled, lost, dups, s0.until(s1), "");
        }
    }

    @Override
    public Results.Memory memory(Workbench bench) throws Exception {
        if (!measuresMemory) {
            return null;
        }
        Sizes sizes = bench.sizes();
        try (Node node = new Node(bench)) {
            long before = bench.probe().usedMemory();
            node.call(command("memory").put("n", sizes.memoryTasks()).put("payload", TaskIds.payload(sizes.payloadBytes())).put("ids", "t"));
            Pause.millis(500);
            long after = bench.probe().usedMemory();
            return new Results.Memory(sizes.memoryTasks(), after - before, TaskIds.ID_BYTES, sizes.payloadBytes(),
                    "job hash + delayed-set entry; the events stream is capped at 10,000 entries");
        }
    }

    private static ObjectNode command(String name) {
        return JSON.createObjectNode().put("cmd", name);
    }

    private static String nodeVersion() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            p.waitFor(10, TimeUnit.SECONDS);
            return v;
        } catch (IOException e) {
            return "(not found)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }

    /** One node process speaking the line protocol of bench.js. */
    private final class Node implements AutoCloseable {
        private final Process process;
        private final BufferedReader out;
        private final BufferedWriter in;

        Node(Workbench bench) throws IOException {
            process = new ProcessBuilder("node", script.toString(), bench.redisUrl())
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
            JsonNode hello = read();
            if (hello.hasNonNull("bullmq")) {
                version = hello.get("bullmq").asText();
            }
        }

        long pid() {
            return process.pid();
        }

        JsonNode call(ObjectNode command) throws IOException {
            in.write(JSON.writeValueAsString(command));
            in.newLine();
            in.flush();
            JsonNode answer = read();
            if (!answer.path("ok").asBoolean()) {
                throw new IllegalStateException("bench.js " + command.get("cmd").asText() + " failed: " + answer.path("error").asText());
            }
            return answer;
        }

        private JsonNode read() throws IOException {
            String line = out.readLine();
            if (line == null) {
                throw new IllegalStateException("node exited early; see " + log);
            }
            return JSON.readTree(line);
        }

        @Override
        public void close() {
            try {
                in.write("{\"cmd\":\"quit\"}");
                in.newLine();
                in.flush();
            } catch (IOException ignored) {
                // already gone
            }
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
