package io.delayq.worker.lease;

import io.delayq.claim.ClaimedTask;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The tasks this worker holds a lease on, kept by claim: one entry per claim answer, and per task only a flag and
 * a count. (A map entry per task, put on the claim's answer and removed by its ack, was a tenth of a worker's CPU
 * while draining a backlog; the lease keeper and the handler deadline, which look at every task, run a few times
 * a lease.)
 */
public final class InflightRegistry {
    private final Set<Claim> claims = ConcurrentHashMap.newKeySet();
    private final AtomicInteger size = new AtomicInteger();
    /** Told of the tasks that leave holding a permit of a capped group, so that it goes back at once. */
    private volatile Consumer<List<Leased>> permitsBack = done -> { };

    /** Who gives back the permits of capped groups' tasks as they leave (GroupPermits). */
    public void onPermitsBack(Consumer<List<Leased>> permitsBack) {
        this.permitsBack = permitsBack;
    }

    /** The tasks of one claim answer, in its order, now held. */
    public List<Leased> add(List<ClaimedTask> tasks) {
        Claim claim = new Claim(tasks.size());
        List<Leased> leased = new ArrayList<>(tasks.size());
        long now = System.nanoTime(); // one clock read per claim answer: its tasks were leased together
        for (ClaimedTask t : tasks) {
            Leased l = new Leased(t, claim, now);
            claim.tasks[claim.added++] = l;
            leased.add(l);
        }
        if (!leased.isEmpty()) {
            size.addAndGet(leased.size());
            claims.add(claim);
        }
        return leased;
    }

    /** A single task held (a test or a hand-built lease). */
    public Leased add(ClaimedTask task) {
        return add(List.of(task)).get(0);
    }

    /** No longer held; a second call for the same task does nothing. */
    public void remove(Leased leased) {
        if (leased.claim() != null && leased.release()) {
            size.decrementAndGet();
            Claim claim = leased.claim();
            if (claim != null && claim.held.decrementAndGet() == 0) {
                claims.remove(claim);
            }
            if (leased.permit() != null) {
                permitsBack.accept(List.of(leased));
            }
        }
    }

    /**
     * No longer held, for the tasks of one ack call: one update of the shared count per call instead of one per task
     * (the handler threads and the acker contend for it); tasks already removed are skipped.
     */
    public void removeAll(List<Leased> done) {
        int removed = 0;
        List<Leased> permitted = null;
        for (Leased l : done) {
            if (l.claim() != null && l.release()) {
                removed++;
                if (l.claim().held.decrementAndGet() == 0) {
                    claims.remove(l.claim());
                }
                if (l.permit() != null) {
                    (permitted == null ? permitted = new ArrayList<>() : permitted).add(l);
                }
            }
        }
        if (removed > 0) {
            size.addAndGet(-removed);
        }
        if (permitted != null) {
            permitsBack.accept(permitted);
        }
    }

    /** Every task held now (a snapshot, for the lease keeper, the handler deadline and the presence heartbeat). */
    public Collection<Leased> all() {
        List<Leased> all = new ArrayList<>(Math.max(0, size.get()));
        for (Claim c : claims) {
            for (Leased l : c.tasks) {
                if (l != null && !l.released()) {
                    all.add(l);
                }
            }
        }
        return all;
    }

    public int size() {
        return size.get();
    }

    /** The tasks of one claim answer; leaves the registry with its last task. */
    static final class Claim {
        final Leased[] tasks;
        final AtomicInteger held;
        int added;

        Claim(int n) {
            this.tasks = new Leased[n];
            this.held = new AtomicInteger(n);
        }
    }
}
