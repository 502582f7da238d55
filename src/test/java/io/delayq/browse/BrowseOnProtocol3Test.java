package io.delayq.browse;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** Browsing a queue recorded as protocol 3 (p3/browse.lua): the same pages, in the same order. */
class BrowseOnProtocol3Test extends BrowseTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    /** The 20,000 tasks wait in one minute's buckets (they are due days ahead), and a minute is read whole. */
    @Override
    void assertScanPages(int pages) {
        assertThat(pages).as("one minute, read whole by the first page").isEqualTo(1);
    }
}
