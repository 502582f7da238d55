package io.delayq.console.tasks;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The task page's options, from stored records of every form (protocol.md's own example among them). */
class TaskOptionsViewTest {
    private static final String DOC_EXAMPLE = "{\"payload\":\"capture\",\"enqueuedAt\":1764460000000,\"priority\":1,\"expiresAt\":1764463600000,"
            + "\"onExpiry\":\"discard\",\"maxAttempts\":10,\"backoffMs\":2000,\"backoffMaxMs\":600000,\"backoffMultiplier\":3,"
            + "\"traceparent\":\"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\",\"tracestate\":\"congo=t61rcWkgMzE\"}";

    @Test
    void everyOptionOfTheProtocolsExampleIsStructured() {
        Map<String, Object> o = TaskOptionsView.of(DOC_EXAMPLE, 1764463600000L - 1, "https://t.example/{traceId}");
        assertThat(o.get("expiry")).isEqualTo(Map.of("expiresAt", 1764463600000L, "onExpiry", "discard", "defaultAction", false, "expired", false));
        assertThat(o.get("retry")).isEqualTo(Map.of("maxAttempts", 10, "backoffMs", 2000L, "backoffMaxMs", 600000L, "backoffMultiplier", 3.0));
        assertThat(o.get("trace")).isEqualTo(Map.of("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                "traceId", "4bf92f3577b34da6a3ce929d0e0e4736", "parentId", "00f067aa0ba902b7", "flags", "01", "sampled", true,
                "tracestate", "congo=t61rcWkgMzE", "url", "https://t.example/4bf92f3577b34da6a3ce929d0e0e4736"));
        assertThat(o).doesNotContainKey("other");
    }

    @Test
    void aDedupWindowAndADebounceWaitWithItsDeadlineAreDelayqsOwnNotOtherFields() {
        // as enqueue.lua stores a debounced record: its deadline first, then the producer's fields
        Map<String, Object> o = TaskOptionsView.of("{\"debounceDeadline\":1764460060000,\"payload\":\"reindex\",\"enqueuedAt\":1764460000000,"
                + "\"dedupWindowMs\":600000,\"debounceMaxWaitMs\":60000}", 1764460000000L, null);
        assertThat(o.get("dedup")).isEqualTo(Map.of("windowMs", 600000L, "debounceMaxWaitMs", 60000L, "debounceDeadline", 1764460060000L));
        assertThat(o).doesNotContainKey("other");
        assertThat(TaskOptionsView.of("{\"payload\":\"x\",\"enqueuedAt\":1764460000000,\"dedupWindowMs\":1000}", 0, null).get("dedup"))
                .isEqualTo(Map.of("windowMs", 1000L));
        assertThat(TaskOptionsView.of(DOC_EXAMPLE, 0, null)).doesNotContainKey("dedup");
    }

    @Test
    @SuppressWarnings("unchecked")
    void anExpiryThatPassedOnTheRedisClockIsMarkedExpired() {
        assertThat(((Map<?, ?>) TaskOptionsView.of(DOC_EXAMPLE, 1764463600000L, null).get("expiry")).get("expired")).isEqualTo(true);
        assertThat((Map<String, Object>) TaskOptionsView.of(DOC_EXAMPLE, 0, null).get("trace")).doesNotContainKey("url");
    }

    @Test
    void otherFieldsComeAsStoredAndAnUnsampledOrIgnoredTraceIsSaidSo() {
        Map<String, Object> o = TaskOptionsView.of("{\"payload\":\"x\",\"group\":\"tenant-42\",\"weights\":[1,2],"
                + "\"traceparent\":\"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00\"}", 0, null);
        assertThat(o.get("other")).isEqualTo(Map.of("group", "tenant-42", "weights", List.of(1, 2)));
        assertThat(((Map<?, ?>) o.get("trace")).get("sampled")).isEqualTo(false);
        Map<String, Object> bad = TaskOptionsView.of("{\"payload\":\"x\",\"traceparent\":\"00-0000-bad\"}", 0, null);
        assertThat((String) ((Map<?, ?>) bad.get("trace")).get("ignored")).startsWith("traceparent must be a W3C traceparent");
    }

    @Test
    void compactBareAndMalformedRecords() {
        assertThat(TaskOptionsView.of("0mikxxdds:hello", 0, null)).isEmpty();
        assertThat(TaskOptionsView.of(null, 0, null)).isEmpty();
        assertThat(TaskOptionsView.of("{\"maxAttempts\":0}", 0, null)).as("the page shows the decoder's reason instead").isNull();
    }
}
