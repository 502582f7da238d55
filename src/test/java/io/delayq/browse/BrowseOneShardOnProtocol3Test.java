package io.delayq.browse;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** One shard's browse pages on a queue recorded as protocol 3 (p3/browse.lua). */
class BrowseOneShardOnProtocol3Test extends BrowseOneShardTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    /**
     * The 9,000 tasks wait in one minute's buckets (they are due days ahead), whose tasks interleave in due order, so
     * a call reads a minute whole: the budget stops a read only between buckets of different starts.
     */
    @Override
    void assertOneCallRead(ShardPage page, long base) {
        assertThat(page.frontier()).as("the one minute read whole: the page is complete").isNull();
    }
}
