package io.delayq.group;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskRecord;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/** docs/protocol.md, "Groups": the by-hand recipe, run as written, gives a grouped task delayq finds and claims. */
class GroupRecipeTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 16);

    @Test
    void theGroupRecipeWritesATaskOfItsGroup() throws IOException {
        String doc = Files.readString(Path.of("../docs/protocol.md"));
        String section = doc.substring(doc.indexOf("## Groups"));
        Matcher m = Pattern.compile("```\nMULTI\n(.*?)EXEC\n```", Pattern.DOTALL).matcher(section);
        assertThat(m.find()).isTrue();
        try (RedisClient client = RedisClient.create(redis.url()); StatefulRedisConnection<String, String> c = client.connect()) {
            c.sync().multi();
            for (String line : m.group(1).strip().split("\n")) {
                List<String> words = words(line);
                c.sync().dispatch(io.lettuce.core.protocol.CommandType.valueOf(words.get(0)), new io.lettuce.core.output.ArrayOutput<>(io.lettuce.core.codec.StringCodec.UTF8),
                        new io.lettuce.core.protocol.CommandArgs<>(io.lettuce.core.codec.StringCodec.UTF8).addKeys(words.get(1)).addValues(words.subList(2, words.size())));
            }
            c.sync().exec();
        }
        TaskInfo info = q.client().inspect("order-8812");
        assertThat(info.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(info.score()).isEqualTo(1764461800000L);
        assertThat(TaskRecord.decode(info.rawRecord()).options().group()).isEqualTo("tenant-42");
        assertThat(get(q.redis().zscore(q.keys(0).marker(), "next"))).isEqualTo(1764461800000d);
        ClaimBatch b = sync(q.protocol().claim(0, 10, Duration.ofMinutes(1), RateLimit.NONE));
        assertThat(b.tasks()).extracting(ClaimedTask::id).containsExactly("order-8812");
        assertThat(b.refused()).isEmpty();
        assertThat(q.allKeys()).doesNotContain(q.keys(0).groups(), q.keys(0).groupedDue(), q.keys(0).group("tenant-42"));
    }

    /** Splits a recipe line as a shell would: words, and single-quoted strings taken as they are. */
    private static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        Matcher w = Pattern.compile("'([^']*)'|(\\S+)").matcher(line);
        while (w.find()) {
            out.add(w.group(1) != null ? w.group(1) : w.group(2));
        }
        return out;
    }
}
