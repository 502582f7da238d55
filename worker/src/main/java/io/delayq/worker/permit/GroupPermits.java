package io.delayq.worker.permit;

import io.delayq.claim.GroupCaps;
import io.delayq.claim.RunningPermits;
import io.delayq.claim.RunningPermits.Change;
import io.delayq.claim.RunningPermits.Permit;
import io.delayq.task.TaskRecord;
import io.delayq.worker.lease.Leased;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/**
 * This worker's side of groups capped at N running ({@link GroupCaps}): a claim names the capped groups it could not
 * serve ({@code wanted}); the worker takes permits for them in the queue's slot and claims that shard again holding
 * them; each task of such a group runs under one permit, extended with its lease and given back when it leaves the
 * in-flight registry (settled, lease lost, or dropped at a stop). Where this worker was refused permits for a group, a
 * permit its own task gives back is offered to that shard in the same call, so the group's next task starts at once.
 *
 * <p>A permit is held {@link #MARGIN} beyond its task's lease: the permit's expiry (the queue slot's clock) must not
 * come before the lease's (the shard's clock, perhaps another Cluster node) while the task may still run.
 */
public final class GroupPermits {
    private static final Logger LOG = LoggerFactory.getLogger(GroupPermits.class);
    /** Beyond the lease: covers the time from taking a permit to the claim's answer and clock skew between nodes. */
    public static final Duration MARGIN = Duration.ofSeconds(2);

    private final RunningPermits permits;
    private final GroupCaps caps;
    private final Duration hold;
    private final long staleNanos;
    private final IntConsumer wake;
    private final String prefix = Long.toHexString(Double.doubleToLongBits(Math.random())) + "-";
    private final AtomicLong next = new AtomicLong();
    /** Per shard: permits taken for its next claim, by group. */
    private final Map<Integer, Hand> inHand = new HashMap<>();
    /** Per group: the shards whose last claim found it blocked and were refused permits, with how many they wanted. */
    private final Map<String, LinkedHashMap<Integer, Integer>> refused = new HashMap<>();

    /**
     * @param wake claims the shard at once (the permits for it are in hand)
     */
    public GroupPermits(RunningPermits permits, GroupCaps caps, Duration lease, IntConsumer wake) {
        this.permits = permits;
        this.caps = caps;
        this.hold = lease.plus(MARGIN);
        this.staleNanos = lease.toNanos() / 2;
        this.wake = wake;
    }

    public GroupCaps caps() {
        return caps;
    }

    /** Permits taken for one claim of one shard, by group. */
    public static final class Hand {
        static final Hand EMPTY = new Hand(0);
        final Map<String, List<String>> ids = new LinkedHashMap<>();
        final long takenNanos;

        Hand(long takenNanos) {
            this.takenNanos = takenNanos;
        }

        /** claim.lua's permits: how many each group may hand out. */
        public Map<String, Integer> counts() {
            Map<String, Integer> counts = new LinkedHashMap<>();
            ids.forEach((g, list) -> counts.put(g, list.size()));
            return counts;
        }

        boolean isEmpty() {
            return ids.isEmpty();
        }
    }

    /**
     * The permits in hand for the next claim of {@code shard} (none: an empty hand). Permits held longer than half a
     * lease without a claim go back instead: they may be near their expiry, and others wait for them.
     */
    public Hand take(int shard) {
        Hand hand;
        synchronized (this) {
            hand = inHand.remove(shard);
        }
        if (hand == null) {
            return Hand.EMPTY;
        }
        if (System.nanoTime() - hand.takenNanos > staleNanos) {
            giveBack(hand.ids);
            return Hand.EMPTY;
        }
        return hand;
    }

    /** The claim holding {@code hand} failed: keep the permits for its retry (which may replay the claim that ran). */
    public void putBack(int shard, Hand hand) {
        if (hand.isEmpty()) {
            return;
        }
        synchronized (this) {
            Hand now = inHand.get(shard);
            if (now == null) {
                inHand.put(shard, hand);
            } else {
                hand.ids.forEach((g, list) -> now.ids.computeIfAbsent(g, k -> new ArrayList<>()).addAll(list));
            }
        }
    }

    /**
     * The claim holding {@code hand} answered with {@code leased}: each task of a permitted group runs under one of its
     * permits, extended to its lease plus the margin; the permits left over go back in the same call.
     */
    public void claimed(int shard, Hand hand, List<Leased> leased) {
        if (hand.isEmpty()) {
            return;
        }
        Map<String, Iterator<String>> left = new HashMap<>();
        hand.ids.forEach((g, list) -> left.put(g, list.iterator()));
        Map<String, Map<String, Long>> pinned = new LinkedHashMap<>();
        for (Leased l : leased) {
            String group = groupOf(l);
            Iterator<String> ids = group == null ? null : left.get(group);
            if (ids != null && ids.hasNext()) {
                String id = ids.next();
                l.runsUnder(new Permit(group, id));
                pinned.computeIfAbsent(group, k -> new LinkedHashMap<>()).put(id, l.task().token() + MARGIN.toMillis());
            }
        }
        List<Change> changes = new ArrayList<>();
        left.forEach((g, ids) -> {
            List<String> unused = new ArrayList<>();
            ids.forEachRemaining(unused::add);
            if (!unused.isEmpty()) {
                // the shard had fewer of the group's tasks due than permits: it no longer waits for them
                synchronized (this) {
                    forget(g, shard);
                }
            }
            Map<String, Long> pins = pinned.getOrDefault(g, Map.of());
            if (!unused.isEmpty() || !pins.isEmpty()) {
                changes.add(new Change(g, caps.capOf(g), unused, pins, List.of()));
            }
        });
        send(changes);
    }

    /**
     * A claim of {@code shard} found capped groups with tasks due and no permit: take up to what each wanted; the
     * shard is claimed again at once with what was granted. A group refused entirely waits for a permit this worker
     * gives back, or for the claim that looks at it again (its turn moved on by claim.lua).
     */
    public void wanted(int shard, Map<String, Integer> wanted) {
        if (wanted.isEmpty()) {
            return;
        }
        List<Change> changes = new ArrayList<>();
        wanted.forEach((g, n) -> {
            int cap = caps.capOf(g);
            if (cap > 0) {
                changes.add(Change.take(g, cap, fresh(Math.min(n, cap))));
            }
        });
        long takenNanos = System.nanoTime();
        permits.apply(hold, changes).whenComplete((granted, error) -> {
            if (error != null) {
                LOG.debug("taking permits for shard {} failed: {}", shard, error.toString());
                return;
            }
            boolean any = false;
            synchronized (this) {
                for (Change c : changes) {
                    List<String> got = granted.getOrDefault(c.group(), List.of());
                    if (!got.isEmpty()) {
                        inHand.computeIfAbsent(shard, s -> new Hand(takenNanos)).ids
                                .computeIfAbsent(c.group(), k -> new ArrayList<>()).addAll(got);
                        any = true;
                    }
                    if (got.size() < c.want().size()) {
                        refused.computeIfAbsent(c.group(), k -> new LinkedHashMap<>()).put(shard, c.want().size() - got.size());
                    } else {
                        forget(c.group(), shard);
                    }
                }
            }
            if (any) {
                wake.accept(shard);
            }
        });
    }

    /**
     * Tasks holding permits stopped running: their handlers returned (the permit goes back before the ack, which may
     * linger for company: the task no longer runs), or they left the registry without (lease lost, a stop). Where a
     * shard of this worker was refused permits for the same group, the call takes as many for it in their place.
     */
    public void back(List<Leased> done) {
        Map<String, List<String>> ids = new LinkedHashMap<>();
        for (Leased l : done) {
            Permit p = l.takePermit();
            if (p != null) {
                ids.computeIfAbsent(p.group(), k -> new ArrayList<>()).add(p.id());
            }
        }
        if (!ids.isEmpty()) {
            giveBack(ids);
        }
    }

    private void giveBack(Map<String, List<String>> ids) {
        List<Change> changes = new ArrayList<>();
        Map<String, LinkedHashMap<Integer, Integer>> offered = new HashMap<>();
        synchronized (this) {
            ids.forEach((g, list) -> {
                LinkedHashMap<Integer, Integer> waiting = refused.remove(g);
                int want = 0;
                if (waiting != null) {
                    offered.put(g, waiting);
                    for (int n : waiting.values()) {
                        want += n;
                    }
                }
                changes.add(new Change(g, caps.capOf(g), list, Map.of(), fresh(Math.min(want, list.size()))));
            });
        }
        long takenNanos = System.nanoTime();
        permits.apply(hold, changes).whenComplete((granted, error) -> {
            if (error != null) {
                // they expire with their hold; a failed give-back only keeps the slots a little longer
                LOG.debug("giving back permits failed: {}", error.toString());
                return;
            }
            List<Integer> woken = new ArrayList<>();
            synchronized (this) {
                granted.forEach((g, got) -> {
                    Iterator<String> it = got.iterator();
                    for (Map.Entry<Integer, Integer> e : offered.getOrDefault(g, new LinkedHashMap<>()).entrySet()) {
                        List<String> forShard = new ArrayList<>();
                        while (forShard.size() < e.getValue() && it.hasNext()) {
                            forShard.add(it.next());
                        }
                        if (forShard.isEmpty()) {
                            // not served now: it waits for the next permit given back
                            refused.computeIfAbsent(g, k -> new LinkedHashMap<>()).put(e.getKey(), e.getValue());
                        } else {
                            inHand.computeIfAbsent(e.getKey(), s -> new Hand(takenNanos)).ids
                                    .computeIfAbsent(g, k -> new ArrayList<>()).addAll(forShard);
                            woken.add(e.getKey());
                            if (forShard.size() < e.getValue()) {
                                refused.computeIfAbsent(g, k -> new LinkedHashMap<>()).put(e.getKey(), e.getValue() - forShard.size());
                            }
                        }
                    }
                });
            }
            woken.forEach(wake::accept);
        });
    }

    /** The leases of tasks holding permits were renewed: their permits last as long (never shorter, never back once given back). */
    public void renewed(List<Leased> renewed) {
        Map<String, Map<String, Long>> until = new LinkedHashMap<>();
        for (Leased l : renewed) {
            Permit p = l.permit();
            if (p != null) {
                until.computeIfAbsent(p.group(), k -> new LinkedHashMap<>()).put(p.id(), l.task().token() + MARGIN.toMillis());
            }
        }
        List<Change> changes = new ArrayList<>();
        until.forEach((g, pins) -> changes.add(Change.extend(g, pins)));
        send(changes);
    }

    /**
     * A stopping worker gives back the permits no claim used and those of the tasks it still holds (their handlers no
     * longer run; the tasks come back after their lease and take permits anew).
     */
    public CompletionStage<?> close(Collection<Leased> stillHeld) {
        Map<String, List<String>> ids = new LinkedHashMap<>();
        synchronized (this) {
            inHand.values().forEach(h -> h.ids.forEach((g, list) -> ids.computeIfAbsent(g, k -> new ArrayList<>()).addAll(list)));
            inHand.clear();
            refused.clear();
        }
        for (Leased l : stillHeld) {
            Permit p = l.takePermit();
            if (p != null) {
                ids.computeIfAbsent(p.group(), k -> new ArrayList<>()).add(p.id());
            }
        }
        List<Change> changes = new ArrayList<>();
        ids.forEach((g, list) -> changes.add(Change.release(g, list)));
        return send(changes);
    }

    private CompletionStage<?> send(List<Change> changes) {
        return permits.apply(hold, changes).whenComplete((granted, error) -> {
            if (error != null) {
                // a permit not given back expires with its hold: the slot is only taken a little longer
                LOG.debug("updating permits failed: {}", error.toString());
            }
        });
    }

    private List<String> fresh(int n) {
        List<String> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(prefix + next.incrementAndGet());
        }
        return ids;
    }

    /** The caller holds the lock. */
    private void forget(String group, int shard) {
        Map<Integer, Integer> shards = refused.get(group);
        if (shards != null) {
            shards.remove(shard);
            if (shards.isEmpty()) {
                refused.remove(group);
            }
        }
    }

    /** The group a claimed task's record names (capped groups' tasks only get here with a JSON record naming one). */
    private static String groupOf(Leased l) {
        String raw = l.task().rawRecord();
        if (raw == null || raw.indexOf("\"group\"") < 0) {
            return null;
        }
        try {
            return TaskRecord.decode(raw).options().group();
        } catch (RuntimeException e) {
            return null;
        }
    }
}
