package io.delayq.app.worker;

import io.delayq.client.DelayQueueClient;
import io.delayq.outbox.backstop.Backstop;
import io.delayq.outbox.backstop.BackstopQuery;
import io.delayq.outbox.relay.RelayConfig;
import io.delayq.worker.config.WorkerConfig;
import io.micrometer.core.instrument.MeterRegistry;

import java.sql.DriverManager;

/** The worker process's backstop (DELAYQ_OUTBOX_BACKSTOP_QUERY) with the producer client it enqueues through. */
final class OutboxBackstop implements AutoCloseable {
    private final DelayQueueClient client;
    private final Backstop backstop;

    private OutboxBackstop(DelayQueueClient client, Backstop backstop) {
        this.client = client;
        this.backstop = backstop;
    }

    static OutboxBackstop start(BackstopQuery query, RelayConfig database, WorkerConfig worker, MeterRegistry registry) {
        DelayQueueClient client = DelayQueueClient.builder().redis(worker.redisUrl()).queue(worker.queue()).shards(worker.shards()).build();
        Backstop backstop = new Backstop(query, () -> DriverManager.getConnection(database.jdbcUrl(), database.jdbcProperties()),
                client, registry).start();
        return new OutboxBackstop(client, backstop);
    }

    @Override
    public void close() {
        backstop.close();
        client.close();
    }
}
