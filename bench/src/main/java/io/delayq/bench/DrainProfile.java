package io.delayq.bench;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A JFR recording of this JVM while one system drains W1 (the consumers only: it starts after the tasks are stored),
 * summarised by who the CPU samples belong to (so that a missed goal shows where its time goes). A sample goes to the first
 * frame, from the top of its stack, that is not the JDK's own: a lock or a map inside the settler counts as the
 * settler's. Switched on with {@code -Dbench.profile=<parts of system names, comma-separated>} (bench/run.sh profiles delayq's defaults and
 * tuned rows; the 1 ms sampling costs the JVM about a percent).
 */
final class DrainProfile {
    static final String PROPERTY = "bench.profile";
    /** Areas in the order they are checked; the first prefix a frame's class starts with names it. */
    private static final Map<String, String> AREAS = new LinkedHashMap<>();

    static {
        AREAS.put("io.lettuce.", "Lettuce + Netty (command encoding, reply decoding, socket I/O)");
        AREAS.put("io.netty.", "Lettuce + Netty (command encoding, reply decoding, socket I/O)");
        AREAS.put("io.micrometer.", "metrics (Micrometer timers and histograms per task)");
        AREAS.put("io.opentelemetry.", "tracing (OpenTelemetry, off: a no-op span per task)");
        AREAS.put("com.fasterxml.", "JSON (Jackson)");
        AREAS.put("io.delayq.worker.dispatch.HandlerPool", "handler pool (hand-off to handler threads)");
        AREAS.put("io.delayq.worker.settle.", "settler (outcome, group-committed acks)");
        AREAS.put("io.delayq.worker.lease.", "lease registry and renewals");
        AREAS.put("io.delayq.worker.dispatch.ClaimLoop", "claim loop (claims, answers, slots)");
        AREAS.put("io.delayq.claim.", "claim loop (claims, answers, slots)");
        AREAS.put("io.delayq.queue.", "protocol client (script arguments and answers)");
        AREAS.put("io.delayq.script.", "protocol client (script arguments and answers)");
        AREAS.put("io.delayq.worker.dispatch.", "task run (record decoding, lag, delivery call)");
        AREAS.put("io.delayq.worker.", "other worker code (wake-ups, sweeps, clock)");
        AREAS.put("io.delayq.bench.", "the harness (no-op handler: recording each task)");
        AREAS.put("io.delayq.", "other delayq code (core)");
    }

    /** Samples so far per subject, over all its profiled drains: area → count, and top frame → count. */
    private static final Map<String, Map<String, Integer>> AREA_SAMPLES = new LinkedHashMap<>();
    private static final Map<String, Map<String, Integer>> LEAF_SAMPLES = new LinkedHashMap<>();
    private static final Map<String, Integer> DRAINS = new LinkedHashMap<>();

    /** Off during the warm-up rounds: they measure the JIT compiler, not the drain. */
    private static volatile boolean armed;

    private final Recording recording;

    private DrainProfile(Recording recording) {
        this.recording = recording;
    }

    /**
     * From now on drains are recorded. A first, empty recording sets JFR up here: its one-time start (class loading,
     * metadata, a buffer thread; hundreds of ms of CPU) otherwise lands inside the first profiled drain.
     */
    static void arm() {
        if (!armed && !System.getProperty(PROPERTY, "").isBlank()) {
            try (Recording warm = new Recording()) {
                warm.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1)).withStackTrace();
                warm.start();
                warm.stop();
            }
        }
        armed = true;
    }

    /** Drains are no longer recorded (a warm-up round between two profiled rows). */
    static void disarm() {
        armed = false;
    }

    /** A recording when {@link #arm()} was called and {@code -Dbench.profile} names part of {@code subject}, else null. */
    static DrainProfile startFor(String subject) {
        String wanted = System.getProperty(PROPERTY);
        if (!armed || wanted == null || java.util.Arrays.stream(wanted.split(",")).map(String::trim)
                .noneMatch(w -> !w.isEmpty() && subject.toLowerCase().contains(w.toLowerCase()))) {
            return null;
        }
        Recording r = new Recording();
        r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1)).withStackTrace();
        r.start();
        return new DrainProfile(r);
    }

    /** A report section with the samples of every profiled drain, one table per subject, or null when none was taken. */
    static synchronized String section() {
        if (DRAINS.isEmpty()) {
            return null;
        }
        StringBuilder md = new StringBuilder("## Where the worker's JVM spends a W1 drain\n\nA JFR recording (`jdk.ExecutionSample`, 1 ms period) "
                + "of the harness' JVM while the consumers drain W1 (after the tasks are stored, so the producer is idle), in an extra W1 "
                + "after the subject's row of the last run: a recording costs the JVM it samples (delayq's defaults: several times the "
                + "client CPU), so no row's figures are taken with it. A sample counts for the first frame from the top of its stack that is not the JDK's own (a "
                + "lock or a map inside the settler counts as the settler's). The harness' share is its no-op handler recording each "
                + "task.\n\n");
        for (String subject : DRAINS.keySet()) {
            md.append("### ").append(subject).append(" (").append(DRAINS.get(subject)).append(DRAINS.get(subject) == 1 ? " drain)\n\n" : " drains)\n\n")
                    .append(table(AREA_SAMPLES.get(subject), LEAF_SAMPLES.get(subject))).append('\n');
        }
        return md.toString();
    }

    /** Stops the recording and adds its samples to {@code subject}'s. */
    void stopFor(String subject) throws IOException {
        recording.stop();
        Path file = Files.createTempFile("delayq-drain", ".jfr");
        try {
            recording.dump(file);
            recording.close();
            String keep = System.getProperty(PROPERTY + ".keep");
            if (keep != null && !keep.isBlank()) {
                // a tuning aid: the raw recording, for whole stacks (jfr print --events jdk.ExecutionSample)
                Files.copy(file, Path.of(keep).resolve(subject.replaceAll("[^A-Za-z0-9]+", "-") + ".jfr"),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            List<RecordedEvent> events = RecordingFile.readAllEvents(file);
            synchronized (DrainProfile.class) {
                DRAINS.merge(subject, 1, Integer::sum);
                Map<String, Integer> areas = AREA_SAMPLES.computeIfAbsent(subject, s -> new TreeMap<>());
                Map<String, Integer> leaves = LEAF_SAMPLES.computeIfAbsent(subject, s -> new TreeMap<>());
                for (RecordedEvent e : events) {
                    RecordedStackTrace stack = e.getStackTrace();
                    if (stack == null || stack.getFrames().isEmpty()) {
                        continue;
                    }
                    areas.merge(area(stack.getFrames()), 1, Integer::sum);
                    RecordedFrame top = stack.getFrames().get(0);
                    leaves.merge(top.getMethod().getType().getName() + "." + top.getMethod().getName(), 1, Integer::sum);
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static String table(Map<String, Integer> byArea, Map<String, Integer> byLeaf) {
        int total = byArea.values().stream().mapToInt(Integer::intValue).sum();
        StringBuilder md = new StringBuilder("| area (first non-JDK frame from the top of the stack) | samples | share |\n|---|---:|---:|\n");
        int all = Math.max(1, total);
        byArea.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(a -> md.append(String.format("| %s | %,d | %.0f %% |%n", a.getKey(), a.getValue(), 100.0 * a.getValue() / all)));
        md.append("\nHottest methods (top frame): ");
        md.append(String.join(", ", byLeaf.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(8)
                .map(l -> String.format("`%s` %.0f %%", shortName(l.getKey()), 100.0 * l.getValue() / all)).toList()));
        return md.append(String.format(" (%,d samples).%n", total)).toString();
    }

    private static String area(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String type = f.getMethod().getType().getName();
            if (type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun.")) {
                continue;
            }
            for (Map.Entry<String, String> a : AREAS.entrySet()) {
                if (type.startsWith(a.getKey())) {
                    return a.getValue();
                }
            }
            return "other libraries (" + type.substring(0, Math.max(0, type.lastIndexOf('.'))) + ")";
        }
        return "JDK only (thread start, locks and queues with no caller recorded)";
    }

    private static String shortName(String method) {
        int dot = method.lastIndexOf('.', method.lastIndexOf('.') - 1);
        return dot < 0 ? method : method.substring(dot + 1);
    }
}
