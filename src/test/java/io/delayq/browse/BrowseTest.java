package io.delayq.browse;

import io.delayq.InvalidInputException;
import io.delayq.claim.ClaimedTask;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.task.Priority;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** browse.lua and TaskBrowser: due-time order across shards, cursor paging, filters, counts, bad input. */
class BrowseTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 4);

    private final Instant base = Instant.parse("2030-01-01T00:00:00Z");

    /** Every page in turn, checking that each page is in order and pages do not overlap. */
    private List<BrowsedTask> all(BrowseQuery query) {
        return all(query, new TaskBrowser(q.protocol()), new int[1]);
    }

    private List<BrowsedTask> all(BrowseQuery query, TaskBrowser browser, int[] pageCount) {
        List<BrowsedTask> out = new ArrayList<>();
        BrowseQuery next = query;
        for (int pages = 0; pages < 10_000; pages++) {
            pageCount[0]++;
            BrowsePage page = TestQueue.sync(browser.browse(next));
            assertThat(page.tasks()).isSortedAccordingTo(Comparator.comparing(BrowsedTask::position));
            if (!out.isEmpty() && !page.tasks().isEmpty()) {
                assertThat(page.tasks().get(0).position()).isGreaterThan(out.get(out.size() - 1).position());
            }
            out.addAll(page.tasks());
            if (!page.hasNext()) {
                return out;
            }
            next = next.after(page.next());
        }
        throw new AssertionError("paging never ended");
    }

    @Test
    void scheduledTasksComeInDueTimeOrderAcrossShardsPageByPage() {
        List<TaskSpec> specs = new ArrayList<>();
        for (int i = 0; i < 230; i++) {
            // many share a due time, so the order among equal times (id bytes) is exercised across shards
            specs.add(TaskSpec.of("order-" + i).at(base.plusSeconds(i % 37)).payload("p" + i).priority(i % 11 == 0 ? Priority.HIGH : Priority.NORMAL));
        }
        q.client().enqueueAll(specs);
        BrowsePage first = q.client().browse(BrowseQuery.of(BrowseState.SCHEDULED).limit(20));
        assertThat(first.tasks()).hasSize(20);
        assertThat(first.totalInWindow()).isEqualTo(230);
        long[] perShard = new long[4];
        for (TaskSpec s : specs) {
            perShard[q.shardOf(s.id())]++;
        }
        assertThat(first.inWindow()).containsExactly(perShard);

        List<BrowsedTask> listed = all(BrowseQuery.of(BrowseState.SCHEDULED).limit(17));
        List<String> expected = specs.stream()
                .sorted(Comparator.comparing((TaskSpec s) -> s.schedule().millis()).thenComparing(TaskSpec::id))
                .map(TaskSpec::id).toList();
        assertThat(listed).extracting(BrowsedTask::id).containsExactlyElementsOf(expected);
        BrowsedTask t0 = listed.stream().filter(t -> t.id().equals("order-0")).findFirst().orElseThrow();
        assertThat(t0.score()).isEqualTo(base.toEpochMilli());
        assertThat(t0.priority()).isEqualTo(1);
        assertThat(t0.shard()).isEqualTo(q.shardOf("order-0"));
        assertThat(t0.payloadPreview()).isEqualTo("p0");
        assertThat(q.client().browse(BrowseQuery.of(BrowseState.DUE)).tasks()).isEmpty();
    }

    /** How many pages the scan for one match among 20,000 tasks due within 20 s took, at 1,000 entries a page. */
    void assertScanPages(int pages) {
        assertThat(pages).as("5,000 entries per shard read 250 at a time").isBetween(20, 22);
    }

    @Test
    void idPrefixAndTimeWindowFilterAndPagingFindsASingleMatchAmongMany() {
        List<TaskSpec> specs = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            specs.add(TaskSpec.of("coupon-" + i).at(base.plusMillis(i)));
        }
        specs.add(TaskSpec.of("order-8812").at(base.plusMillis(19_999)));
        q.client().enqueueAll(specs);

        // the prefix matches one task near the end: pages are bounded by the scan budget and come back empty until it
        int[] pages = new int[1];
        List<BrowsedTask> found = all(BrowseQuery.of(BrowseState.SCHEDULED).prefix("order-").limit(10), new TaskBrowser(q.protocol(), 1000), pages);
        assertThat(found).extracting(BrowsedTask::id).containsExactly("order-8812");
        assertScanPages(pages[0]);
        List<BrowsedTask> coupons = all(BrowseQuery.of(BrowseState.SCHEDULED).prefix("coupon-1").limit(500), new TaskBrowser(q.protocol(), 1000), pages);
        assertThat(coupons).hasSize(11_111).extracting(BrowsedTask::id).doesNotHaveDuplicates().allMatch(id -> id.startsWith("coupon-1"));

        List<BrowsedTask> window = all(BrowseQuery.of(BrowseState.SCHEDULED)
                .window(base.plusMillis(100), base.plusMillis(149)).limit(7));
        assertThat(window).extracting(BrowsedTask::id).containsExactlyElementsOf(
                java.util.stream.IntStream.range(100, 150).mapToObj(i -> "coupon-" + i).toList());
        assertThat(q.client().browse(BrowseQuery.of(BrowseState.SCHEDULED).window(base.plusMillis(100), base.plusMillis(149)))
                .totalInWindow()).isEqualTo(50);

        List<BrowsedTask> both = all(BrowseQuery.of(BrowseState.SCHEDULED).prefix("coupon-1999").window(base.plusMillis(19_990), null));
        assertThat(both).extracting(BrowsedTask::id).containsExactly("coupon-19990", "coupon-19991", "coupon-19992", "coupon-19993",
                "coupon-19994", "coupon-19995", "coupon-19996", "coupon-19997", "coupon-19998", "coupon-19999");
    }

    @Test
    void dueInFlightAndDeadAreListedWithTheirScores() {
        q.client().enqueue(TaskSpec.of("late-1").after(Duration.ZERO).payload("x"));
        q.client().enqueue(TaskSpec.of("late-2").after(Duration.ZERO));
        q.client().enqueue(TaskSpec.of("later").at(base));
        // late-3 is claimed; dead-1 dies
        q.client().enqueue(TaskSpec.of("dead-1").after(Duration.ZERO).payload("dp"));
        int deadShard = q.shardOf("dead-1");
        ClaimedTask dying = q.claim(deadShard, 10, Duration.ofMinutes(5)).tasks().stream()
                .filter(t -> t.id().equals("dead-1")).findFirst().orElseThrow();
        q.kill(dying, "boom", DeadLetterPolicy.DEFAULT);
        // everything else claimed on that shard went back? put them back by re-enqueueing is not needed: only count what is where
        List<String> due = q.client().browse(BrowseQuery.of(BrowseState.DUE)).tasks().stream().map(BrowsedTask::id).toList();
        List<String> inflight = q.client().browse(BrowseQuery.of(BrowseState.IN_FLIGHT)).tasks().stream().map(BrowsedTask::id).toList();
        assertThat(new ArrayList<String>() {{ addAll(due); addAll(inflight); }}).containsExactlyInAnyOrder("late-1", "late-2");
        for (BrowsedTask t : q.client().browse(BrowseQuery.of(BrowseState.IN_FLIGHT)).tasks()) {
            assertThat(get(q.redis().zscore(q.keys(t.shard()).inflight(), t.id()))).isEqualTo((double) t.score());
            assertThat(t.attempts()).isEqualTo(1);
        }
        BrowsePage dead = q.client().browse(BrowseQuery.of(BrowseState.DEAD));
        assertThat(dead.tasks()).singleElement().satisfies(t -> {
            assertThat(t.id()).isEqualTo("dead-1");
            assertThat(t.lastError()).isEqualTo("boom");
            assertThat(t.attempts()).isEqualTo(1);
            assertThat(t.payloadPreview()).isEqualTo("dp");
        });
        assertThat(q.client().browse(BrowseQuery.of(BrowseState.SCHEDULED)).tasks()).extracting(BrowsedTask::id).containsExactly("later");
    }

    @Test
    void aBareZaddTaskIsListedWithoutARecord() {
        get(q.redis().zadd(q.keys(0).due(0), base.toEpochMilli(), "bare"));
        BrowsedTask t = q.client().browse(BrowseQuery.of(BrowseState.SCHEDULED)).tasks().get(0);
        assertThat(t.id()).isEqualTo("bare");
        assertThat(t.recordBytes()).isEqualTo(-1);
        assertThat(t.payloadPreview()).isEmpty();
    }

    @Test
    void badInputIsRefusedNamingTheField() {
        assertThatThrownBy(() -> BrowseQuery.of(BrowseState.DUE).after("not-a-cursor!"))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("cursor:");
        assertThatThrownBy(() -> BrowseQuery.of(BrowseState.DUE).after(java.util.Base64.getUrlEncoder().encodeToString("c1:x:y".getBytes())))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("cursor:");
        assertThatThrownBy(() -> BrowseQuery.of(BrowseState.DUE).limit(501))
                .isInstanceOf(InvalidInputException.class).hasMessage("limit: must be between 1 and 500, got 501");
        assertThatThrownBy(() -> BrowseQuery.of(BrowseState.DUE).window(base, base.minusMillis(1)))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("from:");
        assertThatThrownBy(() -> BrowseState.parse("waiting"))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("state: must be one of scheduled, due, inflight, dead");
        Position p = new Position(42, "id:with:colons");
        assertThat(Position.fromCursor(p.cursor())).isEqualTo(p);
    }
}
