package io.delayq.worker.lease;

import io.delayq.claim.ClaimedTask;
import io.delayq.queue.QueueProtocol;
import io.delayq.queue.ShardChunk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Heartbeat for long-running handlers: every third of the lease, tasks held for more than a third
 * of it get their lease renewed, so only a dead or stalled worker lets a lease expire.
 */
public final class LeaseKeeper implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);
    private final QueueProtocol protocol;
    private final InflightRegistry registry;
    private final Duration lease;

    /** Told of the renewed tasks that hold a permit of a capped group, whose permits must last as long. */
    private final Consumer<List<Leased>> renewedPermits;

    public LeaseKeeper(QueueProtocol protocol, InflightRegistry registry, Duration lease) {
        this(protocol, registry, lease, renewed -> { });
    }

    public LeaseKeeper(QueueProtocol protocol, InflightRegistry registry, Duration lease, Consumer<List<Leased>> renewedPermits) {
        this.protocol = protocol;
        this.registry = registry;
        this.lease = lease;
        this.renewedPermits = renewedPermits;
    }

    public Duration interval() {
        return lease.dividedBy(3);
    }

    @Override
    public void run() {
        long threshold = System.nanoTime() - interval().toNanos();
        List<Leased> due = new ArrayList<>();
        for (Leased l : registry.all()) {
            if (l.lastRenewedNanos() <= threshold && l.beginExtend()) {
                due.add(l);
            }
        }
        for (ShardChunk<Leased> shardChunk : ShardChunk.of(due, l -> l.task().shard())) {
            int shard = shardChunk.shard();
            List<Leased> chunk = shardChunk.items();
            List<ClaimedTask> tasks = chunk.stream().map(Leased::task).toList();
            String requestId = UUID.randomUUID().toString();
            protocol.extend(shard, tasks, lease, requestId)
                    // the extension may have run although its answer was lost: ask once more under the
                    // same request id, which answers the tokens of that run instead of "lease lost"
                    .exceptionallyComposeAsync(e -> protocol.extend(shard, tasks, lease, requestId))
                    .whenComplete((tokens, error) -> {
                        List<Leased> permitted = new ArrayList<>();
                        for (int i = 0; i < chunk.size(); i++) {
                            // on a Redis error keep the old token: the ack will tell whether the lease survived
                            chunk.get(i).endExtend(error == null ? tokens.get(i) : chunk.get(i).task().token());
                            if (error == null && tokens.get(i) > 0 && chunk.get(i).permit() != null) {
                                permitted.add(chunk.get(i));
                            }
                        }
                        if (!permitted.isEmpty()) {
                            renewedPermits.accept(permitted);
                        }
                        if (error != null) {
                            LOG.debug("lease extension failed on shard {}: {}", shard, error.toString());
                        }
                    });
        }
    }
}
