package io.delayq.bench;

import java.util.Random;
import java.util.function.Function;

/** Runs the three workloads against a system that lives in this JVM, the same way for each. */
final class JvmSubject implements Subject {
    static final long W1_TIMEOUT_MILLIS = 600_000;
    static final long W2_GRACE_MILLIS = 10_000;
    static final long SETTLE_TIMEOUT_MILLIS = 30_000;

    private final String system;
    private final String variant;
    private final String settings;
    private final boolean measuresMemory;
    private final Function<Workbench, Contender> factory;

    JvmSubject(String system, String variant, String settings, boolean measuresMemory, Function<Workbench, Contender> factory) {
        this.system = system;
        this.variant = variant;
        this.settings = settings;
        this.measuresMemory = measuresMemory;
        this.factory = factory;
    }

    @Override
    public String system() {
        return system;
    }

    @Override
    public String variant() {
        return variant;
    }

    @Override
    public String settings() {
        return settings;
    }

    @Override
    public Results.W1 w1(Workbench bench) throws Exception {
        int n = bench.sizes().w1Tasks();
        RedisProbe probe = bench.probe();
        try (Contender c = factory.apply(bench)) {
            RedisProbe.Snapshot s0 = probe.snapshot();
            long t0 = System.nanoTime();
            c.enqueueDue(n, System.currentTimeMillis() - 1_000);
            long t1 = System.nanoTime();
            RedisProbe.Snapshot s1 = probe.snapshot();
            Recorder r = new Recorder(n);
            java.util.Map<String, Long> threads0 = ThreadCpu.byName();
            long cpu0 = ClientCpu.thisProcessNanos();
            DrainProfile profile = DrainProfile.startFor(name());
            c.startConsumers(r);
            boolean all = r.awaitDistinct(n, W1_TIMEOUT_MILLIS);
            long end = r.lastNanos();
            if (!c.settled()) {
                long deadline = System.nanoTime() + SETTLE_TIMEOUT_MILLIS * 1_000_000L;
                while (!c.settled() && System.nanoTime() < deadline) {
                    Pause.millis(1);
                }
                end = Math.max(end, System.nanoTime());
            }
            RedisProbe.Snapshot s2 = probe.snapshot();
            long cpu1 = ClientCpu.thisProcessNanos();
            ThreadCpu.print(name(), threads0, ThreadCpu.byName(), n);
            if (profile != null) {
                profile.stopFor(name());
            }
            c.stopConsumers();
            String note = all ? "" : String.format("timed out after %d s with %,d of %,d handled", W1_TIMEOUT_MILLIS / 1000, r.distinct(), n);
            return new Results.W1(n, (t1 - t0) / 1e9, (end - r.firstNanos()) / 1e9, r.distinct(), r.duplicates(),
                    s0.until(s1), s1.until(s2), (cpu1 - cpu0) / 1e6, note);
        }
    }

    @Override
    public Results.W2 w2(Workbench bench) throws Exception {
        Sizes sizes = bench.sizes();
        int n = sizes.w2Tasks();
        RedisProbe probe = bench.probe();
        Random random = new Random(bench.seed());
        try (Contender c = factory.apply(bench)) {
            Recorder r = new Recorder(n);
            c.startConsumers(r);
            Pause.millis(500); // consumers connected and idle before the clock starts
            RedisProbe.Snapshot s0 = probe.snapshot();
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                Pause.until(start + i * 1_000_000_000L / sizes.w2Rate());
                long due = System.currentTimeMillis() + random.nextInt(sizes.w2MaxDelayMs() + 1);
                r.due(i, due);
                c.enqueueOne(i, due);
            }
            boolean all = r.awaitDistinct(n, sizes.w2MaxDelayMs() + W2_GRACE_MILLIS);
            long deadline = System.nanoTime() + SETTLE_TIMEOUT_MILLIS * 1_000_000L;
            while (!c.settled() && System.nanoTime() < deadline) {
                Pause.millis(1);
            }
            RedisProbe.Snapshot s1 = probe.snapshot();
            String dump = System.getProperty("bench.dump");
            if (dump != null) {
                r.dump(java.nio.file.Path.of(dump + "-" + name().replaceAll("[^a-zA-Z0-9]+", "_") + ".csv"));
            }
            Pause.millis(1_000); // late duplicates still count
            c.stopConsumers();
            String note = all ? "" : String.format("%,d of %,d not handled within %d s after the last one was due",
                    r.lost(), n, (sizes.w2MaxDelayMs() + W2_GRACE_MILLIS) / 1000);
            return Results.W2.of(n, r.lagsMicros(), r.lost(), r.duplicates(), s0.until(s1), note);
        }
    }

    @Override
    public Results.Memory memory(Workbench bench) throws Exception {
        if (!measuresMemory) {
            return null;
        }
        Sizes sizes = bench.sizes();
        try (Contender c = factory.apply(bench)) {
            long before = bench.probe().usedMemory();
            c.enqueueWaiting(sizes.memoryTasks(), TaskIds.payload(sizes.payloadBytes()), System.currentTimeMillis() + 86_400_000L);
            Pause.millis(500);
            long after = bench.probe().usedMemory();
            return new Results.Memory(sizes.memoryTasks(), after - before, TaskIds.ID_BYTES, sizes.payloadBytes(),
                    c.memoryBreakdown(sizes.memoryTasks()));
        }
    }
}
