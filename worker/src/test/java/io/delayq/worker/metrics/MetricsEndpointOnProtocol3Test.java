package io.delayq.worker.metrics;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The metrics contract on a queue recorded as protocol 3: the same scrape, the same counts, and the backlog gauges
 * read from protocol 3's stats (p3/stats.lua).
 */
class MetricsEndpointOnProtocol3Test extends MetricsEndpointTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
