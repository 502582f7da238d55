package io.delayq.deadletter;

import java.util.List;

/** A page of one shard's dead-letter set and the size of the whole set. */
public record DeadLetterPage(int shard, long total, List<DeadLetter> entries) {
}
