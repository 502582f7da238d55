package io.delayq.console.history;

import io.delayq.backlog.QueueStats;
import io.delayq.console.queues.QueueDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Background job: samples every shown queue's backlog into the {@link BacklogHistory} at a fixed rate. */
public final class HistorySampler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HistorySampler.class);

    /** @param every the sampling interval */
    public record Settings(QueueDirectory queues, BacklogHistory history, Duration every) {
    }

    private final Settings settings;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "delayq-console-history");
        t.setDaemon(true);
        return t;
    });

    private HistorySampler(Settings settings) {
        this.settings = settings;
    }

    public static HistorySampler start(Settings settings) {
        HistorySampler s = new HistorySampler(settings);
        s.timer.scheduleAtFixedRate(s::sampleAll, 0, settings.every().toMillis(), TimeUnit.MILLISECONDS);
        return s;
    }

    void sampleAll() {
        java.util.List<String> names;
        try {
            names = settings.queues().names();
        } catch (RuntimeException e) {
            // a Redis hiccup leaves a gap in the plot; the next tick tries again
            LOG.warn("history sample failed: cannot list the queues: {}", e.toString());
            return;
        }
        for (String q : names) {
            // one queue whose meta or keys are broken must not cost the others their history
            try {
                // the layout first: after a grow the stats cover the new shards too
                settings.queues().layout(q);
                QueueStats stats = settings.queues().client(q).stats();
                long at = stats.shards().stream().mapToLong(s -> s.serverNow()).max().orElse(System.currentTimeMillis());
                settings.history().add(q, new Sample(at, stats.scheduled(), stats.due(), stats.inflight(), stats.dead(),
                        stats.oldestOverdueMillis()));
            } catch (RuntimeException e) {
                LOG.warn("history sample of queue '{}' failed: {}", q, e.toString());
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
