package io.delayq.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.task.TaskInfo;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DeadCommandTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final QueueFixture queue = QueueFixture.eachTest(redis, "orders", 4);

    @BeforeEach
    void deadLetters() throws Exception {
        queue.dead("connect timed out after 10s", "t1", "t2", "t3");
        queue.dead("webhook answered HTTP 410 Gone", "g1", "g2");
        queue.diedAgo("t1", Duration.ofDays(3));
        queue.diedAgo("g1", Duration.ofDays(10));
        queue.schedule("alive-1", Duration.ofHours(1), "p");
    }

    private CliRun delayq(String... args) {
        return CliRun.run(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", "orders"), args);
    }

    @Test
    void listShowsEveryDeadLetterOldestFirstWithItsError() {
        CliRun r = delayq("dead", "list");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("SHARD  ID", "LAST ERROR", "HTTP 410 Gone", "connect timed out", "5 dead letter(s) matched");
        List<String> ids = r.out().lines().skip(1).limit(5).map(l -> l.trim().split("\\s+")[1]).toList();
        assertThat(ids.subList(0, 2)).containsExactly("g1", "t1");
        assertThat(ids).containsExactlyInAnyOrder("g1", "t1", "t2", "t3", "g2");
    }

    @Test
    void filtersByAgeErrorShardAndLimit() throws Exception {
        assertThat(ids(delayq("dead", "list", "--older-than", "2d", "--output", "json"))).containsExactly("g1", "t1");
        assertThat(ids(delayq("dead", "list", "--newer-than", "1h", "--output", "json"))).containsExactlyInAnyOrder("t2", "t3", "g2");
        assertThat(ids(delayq("dead", "list", "--older-than", "1d", "--newer-than", "5d", "--output", "json"))).containsExactly("t1");
        assertThat(ids(delayq("dead", "list", "--error-contains", "http 410", "--output", "json"))).containsExactly("g1", "g2");
        assertThat(ids(delayq("dead", "list", "--limit", "1", "--output", "json"))).containsExactly("g1");

        int shard = queue.shardOf("t2");
        List<String> inShard = ids(delayq("dead", "list", "--shard", String.valueOf(shard), "--output", "json"));
        assertThat(inShard).contains("t2").allMatch(id -> queue.shardOf(id) == shard);

        CliRun limited = delayq("dead", "list", "--limit", "2");
        assertThat(limited.out()).contains("5 dead letter(s) matched, showing the oldest 2");
    }

    @Test
    void replayDryRunChangesNothing_replayMovesThemBackToDue() {
        CliRun dry = delayq("dead", "replay", "--error-contains", "timed out", "--dry-run");
        assertThat(dry.exitCode()).as(dry.toString()).isZero();
        assertThat(dry.out()).contains("dry run: would replay 3 dead letter(s)", "t1", "t2", "t3");
        assertThat(queue.client().stats().dead()).isEqualTo(5);

        CliRun r = delayq("dead", "replay", "--error-contains", "timed out");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("replayed 3 dead letter(s) (3 matched of 5 searched)");
        assertThat(queue.client().stats().dead()).isEqualTo(2);
        TaskInfo t1 = queue.client().inspect("t1");
        assertThat(t1.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(t1.attempts()).isZero();
    }

    @Test
    void replayAndPurgeByIdReportIdsThatAreNotDead() {
        CliRun r = delayq("dead", "replay", "g2", "alive-1");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("replayed 1 dead letter(s)");
        assertThat(r.err()).contains("id: 'alive-1' is not in the dead-letter set");
        assertThat(queue.client().inspect("g2").state()).isEqualTo(TaskInfo.State.SCHEDULED);
    }

    @Test
    void purgeDeletesForGoodAndCounts() {
        CliRun dry = delayq("dead", "purge", "--older-than", "7d", "--dry-run");
        assertThat(dry.out()).contains("would purge 1 dead letter(s)", "g1");
        assertThat(queue.client().inspect("g1").state()).isEqualTo(TaskInfo.State.DEAD);

        CliRun r = delayq("dead", "purge", "--older-than", "2d");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("purged 2 dead letter(s)");
        assertThat(queue.client().inspect("g1").state()).isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(queue.client().inspect("t1").state()).isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(queue.client().stats().dead()).isEqualTo(3);

        CliRun all = delayq("dead", "purge", "--all");
        assertThat(all.exitCode()).isZero();
        assertThat(all.out()).contains("purged 3 dead letter(s)");
        assertThat(queue.client().stats().dead()).isZero();
        assertThat(queue.client().inspect("alive-1").state()).isEqualTo(TaskInfo.State.SCHEDULED);
    }

    @Test
    void nothingMatchedExitsOne_andUnguardedOrInvalidFiltersAreUsageErrors() {
        CliRun none = delayq("dead", "replay", "--error-contains", "no such error");
        assertThat(none.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(none.out()).contains("no dead letters matched; nothing to replay");

        CliRun unguarded = delayq("dead", "purge");
        assertThat(unguarded.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unguarded.oneErrorLine()).isTrue();
        assertThat(unguarded.err()).contains("--all");
        assertThat(queue.client().stats().dead()).isEqualTo(5);

        CliRun age = delayq("dead", "list", "--older-than", "yesterday");
        assertThat(age.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(age.err()).contains("--older-than", "not a duration");

        CliRun shard = delayq("dead", "list", "--shard", "9");
        assertThat(shard.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(shard.err()).contains("shard: must be between 0 and 3");

        CliRun noSub = delayq("dead");
        assertThat(noSub.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noSub.err()).contains("list, replay or purge");
    }

    private static List<String> ids(CliRun r) throws Exception {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        List<String> ids = new ArrayList<>();
        json.get("deadLetters").forEach(d -> ids.add(d.get("id").asText()));
        return ids;
    }
}
