package io.delayq.queue;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class ShardChunkTest {

    @Test
    void groupsByShardInFirstSeenOrderAndKeepsTheItemsOrder() {
        List<ShardChunk<String>> chunks = ShardChunk.of(List.of("b1", "a1", "b2", "c1", "a2"), id -> id.charAt(0) - 'a');

        assertThat(chunks).containsExactly(new ShardChunk<>(1, List.of("b1", "b2")), new ShardChunk<>(0, List.of("a1", "a2")),
                new ShardChunk<>(2, List.of("c1")));
    }

    @Test
    void cutsAShardIntoCallsOfAtMostMaxPerCall() {
        List<Integer> items = IntStream.range(0, 2 * QueueProtocol.MAX_PER_CALL + 1).boxed().toList();

        List<ShardChunk<Integer>> chunks = ShardChunk.of(items, i -> 3);

        assertThat(chunks).extracting(c -> c.items().size()).containsExactly(QueueProtocol.MAX_PER_CALL, QueueProtocol.MAX_PER_CALL, 1);
        assertThat(chunks).allMatch(c -> c.shard() == 3);
        assertThat(chunks.stream().flatMap(c -> c.items().stream()).toList()).isEqualTo(items);
        assertThat(ShardChunk.of(List.<Integer>of(), i -> 0)).isEmpty();
    }
}
