package io.delayq.browse;

import io.delayq.queue.QueueProtocol;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Lists a queue's tasks in one state across all shards, in (score, id) order, a bounded page at a
 * time: every shard answers at most {@code limit} tasks read from at most a scan budget of entries
 * (browse.lua), in parallel over the shared connection, and the pages are merged here. Nothing ever
 * loads a whole set, so a page costs the same with a million tasks waiting as with ten.
 */
public final class TaskBrowser {
    /** Entries one page reads at most, spread over the shards. */
    static final int TOTAL_SCAN_BUDGET = 40_000;
    /** Entries one script call reads at most (browse.lua caps it too): a call holds Redis for a few ms at most. */
    static final int CALL_SCAN_BUDGET = 5_000;
    static final int PREVIEW_BYTES = 160;

    private final QueueProtocol protocol;
    private final BrowseScript script;
    private final int totalScanBudget;

    public TaskBrowser(QueueProtocol protocol) {
        this(protocol, TOTAL_SCAN_BUDGET);
    }

    /** @param totalScanBudget entries a page reads in all (spread over the shards, at least 100 and at most 5,000 per shard) */
    public TaskBrowser(QueueProtocol protocol, int totalScanBudget) {
        this.protocol = protocol;
        this.script = new BrowseScript(protocol.scope());
        this.totalScanBudget = totalScanBudget;
    }

    public CompletionStage<BrowsePage> browse(BrowseQuery query) {
        Position after = query.position();
        int budget = Math.min(CALL_SCAN_BUDGET, Math.max(query.limit(), Math.max(100, totalScanBudget / protocol.shards())));
        List<CompletableFuture<ShardPage>> pages = new ArrayList<>(protocol.shards());
        for (int s = 0; s < protocol.shards(); s++) {
            pages.add(script.browse(s, query, after, query.limit(), budget, PREVIEW_BYTES).toCompletableFuture());
        }
        return CompletableFuture.allOf(pages.toArray(CompletableFuture[]::new))
                .thenApply(v -> merge(query, pages.stream().map(CompletableFuture::join).toList()));
    }

    /**
     * The page the shards' answers make: every task up to the earliest frontier (beyond it some shard
     * has not been read), at most {@code limit} of them; the next page starts after the last task
     * given, or at that frontier when the limit was not reached.
     */
    static BrowsePage merge(BrowseQuery query, List<ShardPage> shards) {
        Position frontier = null;
        long[] inWindow = new long[shards.size()];
        long now = 0;
        List<BrowsedTask> all = new ArrayList<>();
        for (ShardPage p : shards) {
            inWindow[p.shard()] = p.inWindow();
            now = Math.max(now, p.serverNow());
            all.addAll(p.tasks());
            if (p.frontier() != null && (frontier == null || p.frontier().compareTo(frontier) < 0)) {
                frontier = p.frontier();
            }
        }
        all.sort(Comparator.comparing(BrowsedTask::position));
        List<BrowsedTask> page = new ArrayList<>(query.limit());
        for (BrowsedTask t : all) {
            if (page.size() == query.limit() || (frontier != null && t.position().compareTo(frontier) > 0)) {
                break;
            }
            page.add(t);
        }
        String next;
        if (page.size() == query.limit() && all.size() > page.size()) {
            next = page.get(page.size() - 1).position().cursor();
        } else if (frontier != null) {
            Position last = page.isEmpty() ? null : page.get(page.size() - 1).position();
            next = (last != null && last.compareTo(frontier) > 0 ? last : frontier).cursor();
        } else {
            next = null;
        }
        return new BrowsePage(query, List.copyOf(page), next, inWindow, now);
    }
}
