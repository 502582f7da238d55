package io.delayq.cli.deadletter;

import io.delayq.cli.CliException;
import io.delayq.cli.QueueConnection;
import io.delayq.client.DelayQueueClient;
import io.delayq.deadletter.DeadLetter;
import io.delayq.deadletter.DeadLetterPage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * Finds the dead letters that match a filter across shards by paging through each shard's
 * dead-letter set with the core client (oldest first). Matches are collected before anything is
 * replayed or purged, so acting never shifts the pages being read; replay and purge then act only
 * on ids that are still dead.
 */
final class DeadLetterScan {
    static final int PAGE = 1000;

    record Result(List<DeadLetter> selected, long matched, long total, long serverNow) {
    }

    private DeadLetterScan() {
    }

    static Result run(QueueConnection queue, DeadLetterFilter filter, Collection<String> ids, Integer defaultLimit) {
        DelayQueueClient client = queue.client();
        if (filter.shard != null && filter.shard >= queue.shards()) {
            throw CliException.usage("shard: must be between 0 and " + (queue.shards() - 1) + " (queue '" + queue.queue() + "' has "
                    + queue.shards() + " shards), got " + filter.shard);
        }
        Set<String> wanted = ids.isEmpty() ? null : new HashSet<>(ids);
        Set<Integer> shards = new TreeSet<>();
        if (filter.shard != null) {
            shards.add(filter.shard);
        } else if (wanted != null) {
            wanted.forEach(id -> shards.add(client.protocol().shardOf(id)));
        } else {
            IntStream.range(0, queue.shards()).forEach(shards::add);
        }
        long now = queue.serverNow();
        List<DeadLetter> matches = new ArrayList<>();
        long total = 0;
        for (int shard : shards) {
            Set<String> seen = new HashSet<>();
            long offset = 0;
            while (true) {
                DeadLetterPage page = client.deadLetters(shard, offset, PAGE);
                if (offset == 0) {
                    total += page.total();
                }
                boolean stop = false;
                for (DeadLetter d : page.entries()) {
                    if (filter.pastOldest(d, now)) {
                        stop = true;
                        break;
                    }
                    // a dead set trimmed while we page can shift an entry into the next page twice
                    if (seen.add(d.id()) && (wanted == null || wanted.contains(d.id())) && filter.matches(d, now)) {
                        matches.add(d);
                    }
                }
                offset += page.entries().size();
                if (stop || page.entries().size() < PAGE || offset >= page.total()) {
                    break;
                }
            }
        }
        matches.sort(Comparator.comparingLong(DeadLetter::diedAt).thenComparing(DeadLetter::id));
        Integer limit = filter.limit != null ? filter.limit : defaultLimit;
        List<DeadLetter> selected = limit == null || matches.size() <= limit ? matches : matches.subList(0, limit);
        return new Result(List.copyOf(selected), matches.size(), total, now);
    }
}
