package io.delayq.browse;

import io.delayq.task.Priority;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** browse.lua on one shard, where one call reads the most: the limit inside a chunk, the per-call read cap, previews. */
class BrowseOneShardTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "single", 1);

    private final Instant base = Instant.parse("2030-01-01T00:00:00Z");

    private List<String> pageThrough(BrowseQuery query) {
        List<String> out = new ArrayList<>();
        BrowseQuery next = query;
        for (int pages = 0; pages < 1_000; pages++) {
            BrowsePage page = TestQueue.sync(new TaskBrowser(q.protocol()).browse(next));
            page.tasks().forEach(t -> out.add(t.id()));
            if (!page.hasNext()) {
                return out;
            }
            next = next.after(page.next());
        }
        throw new AssertionError("paging never ended");
    }

    private static List<String> inDueOrder(List<TaskSpec> specs) {
        return specs.stream().sorted(Comparator.comparing((TaskSpec s) -> s.schedule().millis()).thenComparing(TaskSpec::id))
                .map(TaskSpec::id).toList();
    }

    @Test
    void aLimitReachedInsideTheLastShortChunkLeavesTheRestReachable() {
        List<TaskSpec> specs = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            specs.add(TaskSpec.of("t-" + i).at(base.plusSeconds(i)));
        }
        q.client().enqueueAll(specs);
        BrowsePage first = q.client().browse(BrowseQuery.of(BrowseState.SCHEDULED).limit(50));
        assertThat(first.tasks()).hasSize(50);
        assertThat(first.hasNext()).as("10 tasks remain after the first 50").isTrue();
        assertThat(pageThrough(BrowseQuery.of(BrowseState.SCHEDULED).limit(50))).containsExactlyElementsOf(inDueOrder(specs));
    }

    @Test
    void matchesOfSeveralPrioritySetsBeyondTheLimitAreOnTheNextPage() {
        List<TaskSpec> specs = new ArrayList<>();
        int[] p = {Priority.HIGH, Priority.NORMAL, Priority.HIGHEST};
        for (int i = 0; i < 90; i++) {
            specs.add(TaskSpec.of("m-" + i).at(base.plusSeconds(i)).priority(p[i % 3]));
        }
        q.client().enqueueAll(specs);
        for (int limit : new int[] {1, 7, 25, 30, 31, 89, 90, 500}) {
            assertThat(pageThrough(BrowseQuery.of(BrowseState.SCHEDULED).limit(limit))).as("limit %d", limit)
                    .containsExactlyElementsOf(inDueOrder(specs));
        }
    }

    /** How far one call read 9,000 tasks due 1 ms apart from {@code base} (a third at each level), nothing matching. */
    void assertOneCallRead(ShardPage page, long base) {
        assertThat(page.frontier()).as("9,000 entries are more than one call reads").isNotNull();
        long readUpTo = page.frontier().score() - base;
        assertThat(readUpTo).as("each of the 3 sets read 1,666 of its 3,000").isBetween(4_990L, 5_000L);
    }

    @Test
    void oneCallReadsAtMostFiveThousandEntriesSharedByThePrioritySets() {
        List<TaskSpec> specs = new ArrayList<>();
        int[] p = {Priority.HIGH, Priority.NORMAL, Priority.HIGHEST};
        for (int i = 0; i < 9_000; i++) {
            specs.add(TaskSpec.of("c-" + i).at(base.plusMillis(i)).priority(p[i % 3]));
        }
        q.client().enqueueAll(specs);
        // nothing matches the prefix, so the frontier marks how far the call read
        BrowseQuery query = BrowseQuery.of(BrowseState.SCHEDULED).prefix("none-");
        ShardPage page = TestQueue.sync(new BrowseScript(q.protocol().scope()).browse(0, query, null, 500, 1_000_000, 160));
        assertThat(page.tasks()).isEmpty();
        assertOneCallRead(page, base.toEpochMilli());
        // the whole browser still pages to the end
        assertThat(pageThrough(query)).isEmpty();
        assertThat(pageThrough(BrowseQuery.of(BrowseState.SCHEDULED).prefix("c-8999"))).containsExactly("c-8999");
    }

    @Test
    void aPreviewNeverCutsAUtf8Character() {
        String wide = "é".repeat(200);
        q.client().enqueue(TaskSpec.of("even").at(base).payload(wide));
        q.client().enqueue(TaskSpec.of("odd").at(base.plusSeconds(1)).payload("a" + wide));
        List<BrowsedTask> tasks = q.client().browse(BrowseQuery.of(BrowseState.SCHEDULED)).tasks();
        assertThat(tasks).hasSize(2).allSatisfy(t -> {
            assertThat(t.previewTruncated()).isTrue();
            assertThat(t.payloadPreview()).doesNotContain("\uFFFD").isNotEmpty();
            assertThat(("a" + wide).startsWith(t.payloadPreview()) || wide.startsWith(t.payloadPreview())).isTrue();
        });
    }
}
