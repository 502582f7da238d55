package io.delayq.bench;

import io.delayq.client.DelayQueueClient;
import io.delayq.handler.TaskHandler;
import io.delayq.settings.WorkerEnv;
import io.delayq.settings.WorkerSettings;
import io.delayq.task.TaskSpec;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * delayq as an application runs it: the producer client's batch API ({@code enqueueAll}) and
 * real {@link Worker}s in this JVM, with a no-op handler. Several workers split the shards into
 * ranges, as the operator's one-Deployment-per-shard-range layout does.
 */
final class DelayqContender implements Contender {
    static final String QUEUE = "bench";
    /** Tasks per enqueueAll call; the client splits them per shard into script calls of at most 500. */
    static final int ENQUEUE_CHUNK = 5_000;
    /** enqueueAll calls kept in flight at once. */
    static final int ENQUEUE_WINDOW = 4;

    /** What an embedded worker chooses when nothing but the required variables is set. */
    private static final WorkerConfig DEFAULTS = WorkerConfig.embedded(WorkerEnv.of("redis://x:1", "q", 1).toMap());
    static final int DEFAULT_BATCH = DEFAULTS.batchSize();
    static final int DEFAULT_CONCURRENCY = DEFAULTS.concurrency();
    static final long DEFAULT_CLAIM_AHEAD_MS = DEFAULTS.claimAhead().toMillis();

    /** @param extra further DELAYQ_* settings (and, for tuning, worker system properties prefixed {@code -D}) */
    record Settings(int workers, int shards, int batchSize, int concurrency, Map<String, String> extra) {
        Settings(int workers, int shards, int batchSize, int concurrency) {
            this(workers, shards, batchSize, concurrency, Map.of());
        }

        /** The settings a user gets: nothing but the queue, its shard count and the Redis URL is set. */
        static Settings defaults(int shards) {
            return new Settings(1, shards, 0, 0);
        }

        boolean isDefaults() {
            return batchSize == 0 && concurrency == 0;
        }

        String describe() {
            if (isDefaults()) {
                return String.format("%d shards (the README's example), 1 worker, every %s* setting at its default (%s=%d, "
                                + "%s=%d, %s=%dms); enqueue: enqueueAll in chunks of %,d (%d in flight), W2 one enqueue call per task",
                        shards, WorkerSettings.PREFIX, WorkerSettings.BATCH_SIZE.name(), DEFAULT_BATCH, WorkerSettings.CONCURRENCY.name(),
                        DEFAULT_CONCURRENCY, WorkerSettings.CLAIM_AHEAD.name(), DEFAULT_CLAIM_AHEAD_MS, ENQUEUE_CHUNK, ENQUEUE_WINDOW);
            }
            String owns = workers == 1 ? "owning all shards" : "each owning " + shards / workers + " shard" + (shards / workers == 1 ? "" : "s")
                    + " (" + WorkerSettings.SHARD_FROM.name() + "/" + WorkerSettings.SHARD_TO.name() + ", as the operator's shard-range Deployments)";
            return String.format("%d shard%s, %d worker%s %s, %s=%d, %s=%d, other settings default; "
                            + "enqueue: enqueueAll in chunks of %,d (%d in flight), W2 one enqueue call per task",
                    shards, shards == 1 ? "" : "s", workers, workers == 1 ? "" : "s", owns, WorkerSettings.BATCH_SIZE.name(), batchSize,
                    WorkerSettings.CONCURRENCY.name(), concurrency, ENQUEUE_CHUNK, ENQUEUE_WINDOW);
        }

        Settings {
            if (shards % workers != 0) {
                throw new IllegalArgumentException("shards (" + shards + ") must be a multiple of workers (" + workers + ")");
            }
        }
    }

    private final Workbench bench;
    private final Settings settings;
    private final DelayQueueClient client;
    private final List<Worker> workers = new ArrayList<>();

    DelayqContender(Workbench bench, Settings settings) {
        this.bench = bench;
        this.settings = settings;
        // system properties first: -Ddelayq.protocol=2 records the new queue as protocol 2 instead of the default 3
        settings.extra().forEach((k, v) -> {
            if (k.startsWith("-D")) {
                System.setProperty(k.substring(2), v);
            }
        });
        this.client = DelayQueueClient.builder().redis(bench.redisUrl()).queue(QUEUE).shards(settings.shards()).build();
    }

    @Override
    public void enqueueDue(int n, long dueMillis) {
        enqueue(n, null, dueMillis);
    }

    @Override
    public void enqueueWaiting(int n, String payload, long dueMillis) {
        enqueue(n, payload, dueMillis);
    }

    private void enqueue(int n, String payload, long dueMillis) {
        Instant due = Instant.ofEpochMilli(dueMillis);
        BulkEnqueue.enqueue(client, n, ENQUEUE_CHUNK, ENQUEUE_WINDOW, i -> TaskSpec.of(TaskIds.id(i)).at(due).payload(payload));
    }

    @Override
    public void startConsumers(Recorder recorder) {
        TaskHandler noop = task -> recorder.handled(TaskIds.index(task.id()));
        for (int i = 0; i < settings.workers(); i++) {
            int per = settings.shards() / settings.workers();
            WorkerEnv typed = WorkerEnv.of(bench.redisUrl(), QUEUE, settings.shards()).set(WorkerSettings.HTTP_PORT, 0)
                    .set(WorkerSettings.SHARD_FROM, i * per).set(WorkerSettings.SHARD_TO, (i + 1) * per - 1);
            if (!settings.isDefaults()) {
                typed.set(WorkerSettings.BATCH_SIZE, settings.batchSize()).set(WorkerSettings.CONCURRENCY, settings.concurrency());
            }
            Map<String, String> env = typed.toMap();
            settings.extra().forEach((k, v) -> {
                if (k.startsWith("-D")) {
                    System.setProperty(k.substring(2), v);
                } else {
                    env.put(k, v);
                }
            });
            workers.add(Worker.start(WorkerConfig.fromEnv(env), redis -> new HandlerDelivery(noop)));
        }
    }

    @Override
    public boolean settled() {
        for (int s = 0; s < settings.shards(); s++) {
            String inFlight = client.protocol().buckets() != null ? io.delayq.bucket.BucketLayout.prefix(QUEUE, s) + io.delayq.bucket.BucketLayout.LEASE
                    : client.protocol().keys(s).inflight();
            if (bench.probe().zcard(inFlight) > 0) {
                return false;
            }
        }
        return true;
    }

    /** Bytes per task in the due sets and in the record hashes (MEMORY USAGE, exact; records are spread over bucket hashes). */
    @Override
    public String memoryBreakdown(int n) {
        long due = 0;
        long tasks = 0;
        for (int s = 0; s < settings.shards(); s++) {
            due += bench.probe().memoryUsage(client.protocol().keys(s).due(0));
            tasks += bench.probe().memoryUsageOfKeys(client.protocol().keys(s).tasks() + ":*");
        }
        String sample = io.delayq.task.TaskSpec.of(TaskIds.id(0)).payload(TaskIds.payload(50)).record(System.currentTimeMillis()).encode();
        return String.format("due sorted sets %.0f B/task, record hashes %.0f B/task (record of a 50-byte payload: %d bytes, e.g. %s)",
                (double) due / n, (double) tasks / n, sample.length(), sample);
    }

    @Override
    public void enqueueOne(int index, long dueMillis) {
        client.enqueue(TaskSpec.of(TaskIds.id(index)).at(Instant.ofEpochMilli(dueMillis)));
    }

    @Override
    public void stopConsumers() {
        workers.forEach(w -> w.shutdown(Duration.ofSeconds(5)));
        workers.clear();
        settings.extra().keySet().stream().filter(k -> k.startsWith("-D")).forEach(k -> System.clearProperty(k.substring(2)));
    }

    @Override
    public void close() {
        stopConsumers();
        client.close();
    }
}
