package io.delayq.app.worker;

import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import io.micrometer.core.instrument.Counter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** The relay's meters are scraped from the current worker, also after a new worker (a layout change) replaced it. */
class RelayMetersTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(TestQueue.eachTest(redis, "cmd", 1));

    @Test
    void theRelayMetersFollowTheCurrentWorker() {
        RelayMeters meters = new RelayMeters();
        Worker first = meters.follow(workers.startHandler(RunningWorkers.env(redis.url(), "cmd", 1), task -> { }));
        Counter relayed = Counter.builder("delayq.outbox.relayed").tag("op", "enqueue").tag("result", "added").register(meters.registry());
        relayed.increment();
        assertThat(first.registry().scrape()).contains("delayq_outbox_relayed_total{op=\"enqueue\",result=\"added\"} 1.0");

        Worker second = meters.follow(workers.startHandler(RunningWorkers.env(redis.url(), "cmd", 1), task -> { }));
        relayed.increment();
        // the new worker's registry counts from its start, as after a restart (rate() takes a counter reset in its stride)
        assertThat(second.registry().scrape()).contains("delayq_outbox_relayed_total{op=\"enqueue\",result=\"added\"} 1.0");
        assertThat(first.registry().scrape()).as("the replaced worker's registry no longer moves")
                .contains("delayq_outbox_relayed_total{op=\"enqueue\",result=\"added\"} 1.0");
    }
}
