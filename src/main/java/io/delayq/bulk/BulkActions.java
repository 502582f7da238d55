package io.delayq.bulk;

import io.delayq.InvalidInputException;
import io.delayq.bucket.BucketLayout;
import io.delayq.bucket.BucketScript;
import io.delayq.layout.Layout;
import io.delayq.layout.RecordedLayout;
import io.delayq.queue.QueueProtocol;
import io.delayq.queue.QueueScope;
import io.delayq.redis.Replies;
import io.delayq.script.LuaScript;
import io.delayq.task.Schedule;
import io.delayq.upgrade.ProtocolUpgrade;
import io.lettuce.core.RedisCommandExecutionException;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

import static io.delayq.redis.Replies.asLong;

/**
 * Bulk actions on a queue's waiting tasks (cancel, reschedule, shift, run now, dead-letter) chosen by a
 * {@link BulkFilter}: a preview that changes nothing, then a job that walks every shard of the current layout in
 * bounded script calls (bulk_apply.lua), keeps its cursor per shard in Redis and so can be resumed by any process
 * after a crash. Tasks in flight are never touched; during a reshard nothing starts or goes on.
 */
public final class BulkActions {
    /** Matches a preview answers. */
    public static final int SAMPLE = 20;
    /** Entries one script call reads at most (bulk_scan.lua caps it at the same number). */
    static final int READ_BUDGET = 500;
    private static final SecureRandom IDS = new SecureRandom();

    private final QueueScope scope;
    private final Duration timeout;
    private final BulkJobStore jobs;
    /** Whether the queue's meta records protocol 3, as the last look at it said. */
    private volatile boolean bucketed;

    public BulkActions(QueueScope scope, Duration timeout) {
        this.scope = scope;
        this.timeout = timeout;
        this.jobs = new BulkJobStore(scope.commands(), scope.scripts(), scope.queue(), timeout);
    }

    /** Counts what the filter matches on every shard and answers the earliest-due matches; changes nothing. */
    public BulkPreview preview(BulkFilter filter) {
        Layout layout = layoutForBulk();
        long matched = 0;
        long earliest = -1;
        long latest = -1;
        long now = 0;
        long longest = 0;
        List<BulkSample> sample = new ArrayList<>();
        for (int shard = 0; shard < layout.shards(); shard++) {
            String cursor = "";
            do {
                List<String> args = new ArrayList<>(filter.args(layout.epoch(), false, READ_BUDGET));
                args.add(cursor);
                args.add(String.valueOf(SAMPLE));
                long t0 = System.nanoTime();
                List<Object> r = call(LuaScript.BULK_PREVIEW, shard, args);
                longest = Math.max(longest, (System.nanoTime() - t0) / 1000);
                cursor = (String) r.get(0);
                long m = asLong(r.get(2));
                matched += m;
                if (m > 0) {
                    long e = asLong(r.get(3));
                    long l = asLong(r.get(4));
                    earliest = earliest < 0 ? e : Math.min(earliest, e);
                    latest = Math.max(latest, l);
                }
                now = asLong(r.get(5));
                int n = (int) asLong(r.get(6));
                for (int i = 0; i < n; i++) {
                    sample.add(new BulkSample((String) r.get(7 + 2 * i), shard, asLong(r.get(8 + 2 * i))));
                }
                // keep the earliest SAMPLE so far: the list never grows past two pages
                if (sample.size() > SAMPLE) {
                    sample.sort(Comparator.comparingLong(BulkSample::dueAt).thenComparing(BulkSample::id));
                    sample.subList(SAMPLE, sample.size()).clear();
                }
            } while (!cursor.equals("end"));
        }
        sample.sort(Comparator.comparingLong(BulkSample::dueAt).thenComparing(BulkSample::id));
        if (matched == 0 && filter.group() != null) {
            requireKnownGroup(filter.group(), layout);
        }
        return new BulkPreview(filter, matched, sample, earliest, latest, now, layout.shards(), longest);
    }

    /**
     * Creates a job for what the filter matches now, after checking that it matches something and that the action
     * fits every match (a shift that would move one outside 1970..9999 is refused); nothing is acted on yet:
     * {@link #run} does that.
     *
     * @param by who asked, kept with the job (the console's user, or the CLI's user and host)
     */
    public BulkJob start(BulkFilter filter, BulkAction action, String by) {
        BulkPreview preview = preview(filter);
        if (preview.matched() == 0) {
            throw new NothingMatchedException("filter: no waiting task in queue '" + scope.queue() + "' matches " + filter.describe()
                    + "; nothing was done");
        }
        if (action.kind() == BulkAction.Kind.SHIFT) {
            long ms = action.millis();
            if (ms > 0 && preview.latest() > Schedule.MAX_EPOCH_MILLIS - ms) {
                throw new InvalidInputException("shift", "moves the latest matching task (due " + Instant.ofEpochMilli(preview.latest())
                        + ") past 9999-12-31T23:59:59.999Z, the latest due time; narrow the window (to) or shift by less");
            }
            if (ms < 0 && preview.earliest() + ms < 0) {
                throw new InvalidInputException("shift", "moves the earliest matching task (due " + Instant.ofEpochMilli(preview.earliest())
                        + ") before 1970-01-01T00:00:00Z, the earliest due time; narrow the window (from) or shift by less");
            }
        }
        Layout layout = layoutForBulk();
        long now = preview.serverNow();
        String id = HexFormat.of().formatHex(randomBytes());
        BulkJob job = new BulkJob(id, scope.queue(), filter, action, BulkJob.Status.RUNNING, preview.matched(), 0, 0,
                layout.epoch(), layout.shards(), now, by == null ? "" : by, now, "");
        jobs.create(job);
        return job;
    }

    /**
     * Runs (or resumes) a job to its end, or until {@code run.stop()} says so between two batches; each batch is
     * one atomic script call on one shard that advances that shard's cursor in Redis, so a job stopped or killed
     * anywhere resumes where Redis says it stood, with no batch applied twice.
     *
     * @throws BulkRefusedException a reshard runs (the job is left stopped: resume it after the reshard), or the
     *                              layout changed since a shift began (a shift cannot be resumed on new shards)
     */
    public BulkJob run(String jobId, BulkRun run) {
        BulkJob job = jobs.read(jobId);
        if (job.finished()) {
            return job;
        }
        Layout layout = currentLayout();
        if (bucketed) {
            refuseJobOfProtocol2(job);
        }
        if (layout.migrating()) {
            stopped(job, job.done(), job.skipped(), migratingMessage(layout));
            throw new BulkRefusedException(migratingMessage(layout) + "; job " + jobId + " is stopped at " + job.done() + " of "
                    + job.total() + ": resume it when the reshard has finished");
        }
        if (layout.epoch() != job.epoch()) {
            if (job.action().kind() == BulkAction.Kind.SHIFT) {
                String why = "the queue was resharded since job " + jobId + " began (layout epoch " + job.epoch() + " -> " + layout.epoch()
                        + "): a shift cannot be resumed on the new shards without shifting some tasks twice; " + job.done()
                        + " tasks were shifted; start a new job whose filter leaves them out";
                stopped(job, job.done(), job.skipped(), why);
                throw new BulkRefusedException(why);
            }
            // cancel, reschedule to a time, run now and dead-letter may meet a task twice without harm: walk the new layout afresh
            BulkJob before = job;
            jobs.relayout(jobId, layout.epoch(), layout.shards());
            job = jobs.read(jobId);
            // the earlier layout's cursors are never walked again: only its history, kept as long as a done job's
            expireCursors(before, BulkJobStore.DONE_KEPT);
        }
        if (job.status() != BulkJob.Status.RUNNING) {
            // resumed: running again, so kept until it ends (a stopped job's record and cursors would expire)
            jobs.progress(jobId, BulkJob.Status.RUNNING, job.done(), job.skipped(), System.currentTimeMillis(), "");
            keepCursors(job);
        }
        long[] doneBy = new long[job.shards()];
        long[] skippedBy = new long[job.shards()];
        boolean[] finished = new boolean[job.shards()];
        long carriedDone = job.done();
        long carriedSkipped = job.skipped();
        for (int shard = 0; shard < job.shards(); shard++) {
            List<String> state = Replies.await(scope.commands().hmget(BulkKeys.shardCursor(scope.queue(), shard, jobId, job.epoch()),
                    "cursor", "done", "skipped"), timeout).stream().map(kv -> kv.getValueOrElse("")).toList();
            finished[shard] = state.get(0).equals("end");
            doneBy[shard] = state.get(1).isEmpty() ? 0 : Long.parseLong(state.get(1));
            skippedBy[shard] = state.get(2).isEmpty() ? 0 : Long.parseLong(state.get(2));
        }
        // counts of an earlier layout's walk (a job resumed after a reshard) stay in the job's totals
        long baseDone = Math.max(0, carriedDone - sum(doneBy));
        long baseSkipped = Math.max(0, carriedSkipped - sum(skippedBy));
        List<String> fixed = job.filter().args(job.epoch(), job.action().descending(), READ_BUDGET);
        for (int shard = 0; shard < job.shards(); shard++) {
            while (!finished[shard]) {
                if (run.stop().getAsBoolean()) {
                    BulkJob s = stopped(job, baseDone + sum(doneBy), baseSkipped + sum(skippedBy), "stopped between two batches; resume it to go on");
                    run.progress().accept(s);
                    return s;
                }
                if (!bucketed && Replies.await(scope.commands().hexists(scope.meta(), ProtocolUpgrade.UPGRADED_AT), timeout)) {
                    // upgraded under this job: what is left of protocol 2's due sets moves into buckets it does not walk
                    String why = "queue '" + scope.queue() + "' was upgraded to protocol 3 while job " + jobId + " ran: it cannot go on "
                            + "in protocol 3's keys; " + (baseDone + sum(doneBy)) + " tasks were done; start a new job whose filter leaves them out";
                    stopped(job, baseDone + sum(doneBy), baseSkipped + sum(skippedBy), why);
                    throw new BulkRefusedException(why);
                }
                List<String> args = new ArrayList<>(fixed);
                args.add(BulkKeys.scriptJob(jobId, job.epoch()));
                args.add(job.action().kind().wire());
                args.add(String.valueOf(job.action().millis()));
                args.add(job.action().reason());
                args.add(String.valueOf(run.batch()));
                args.add(run.acted() == null ? "0" : "1");
                List<Object> r;
                try {
                    r = call(LuaScript.BULK_APPLY, shard, args);
                } catch (BulkRefusedException e) {
                    stopped(job, baseDone + sum(doneBy), baseSkipped + sum(skippedBy), e.getMessage());
                    throw new BulkRefusedException(e.getMessage() + "; job " + jobId + " is stopped at " + (baseDone + sum(doneBy))
                            + " of " + job.total() + ": resume it when the reshard has finished");
                }
                finished[shard] = "end".equals(r.get(0));
                doneBy[shard] = asLong(r.get(4));
                skippedBy[shard] = asLong(r.get(5));
                if (run.acted() != null && r.size() > 6) {
                    run.acted().accept(r.subList(6, r.size()).stream().map(String::valueOf).toList());
                }
                long at = System.currentTimeMillis();
                BulkJob.Status status = BulkJob.Status.RUNNING;
                jobs.progress(jobId, status, baseDone + sum(doneBy), baseSkipped + sum(skippedBy), at, "");
                run.progress().accept(withProgress(job, status, baseDone + sum(doneBy), baseSkipped + sum(skippedBy), at, ""));
                if (!run.pause().isZero()) {
                    LockSupport.parkNanos(run.pause().toNanos());
                }
            }
        }
        long at = System.currentTimeMillis();
        jobs.progress(jobId, BulkJob.Status.DONE, baseDone + sum(doneBy), baseSkipped + sum(skippedBy), at, "");
        // the shards' cursors go with the record: a done job is never walked again, so they are only its history now
        expireCursors(job, BulkJobStore.DONE_KEPT);
        BulkJob done = jobs.read(jobId);
        run.progress().accept(done);
        return done;
    }

    public BulkJob job(String jobId) {
        return jobs.read(jobId);
    }

    /** The queue's newest jobs first. */
    public List<BulkJob> jobs(int limit) {
        return jobs.list(limit);
    }

    private BulkJob stopped(BulkJob job, long done, long skipped, String note) {
        long at = System.currentTimeMillis();
        jobs.progress(job.id(), BulkJob.Status.STOPPED, done, skipped, at, note);
        // where to resume from, kept as long as the stopped job's record (resuming lifts both expiries)
        expireCursors(job, BulkJobStore.STOPPED_KEPT);
        return withProgress(job, BulkJob.Status.STOPPED, done, skipped, at, note);
    }

    /** The job's shard cursors of its layout expire {@code kept} from now (they outlive nothing of the job's record). */
    private void expireCursors(BulkJob job, Duration kept) {
        List<CompletableFuture<Boolean>> calls = new ArrayList<>();
        for (int shard = 0; shard < job.shards(); shard++) {
            for (String key : BulkKeys.shardState(scope.queue(), shard, job.id(), job.epoch())) {
                calls.add(scope.commands().pexpire(key, kept.toMillis()).toCompletableFuture());
            }
        }
        Replies.await(CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)), timeout);
    }

    /** A resumed job's cursors are kept until it ends again. */
    private void keepCursors(BulkJob job) {
        List<CompletableFuture<Boolean>> calls = new ArrayList<>();
        for (int shard = 0; shard < job.shards(); shard++) {
            for (String key : BulkKeys.shardState(scope.queue(), shard, job.id(), job.epoch())) {
                calls.add(scope.commands().persist(key).toCompletableFuture());
            }
        }
        Replies.await(CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)), timeout);
    }

    private static BulkJob withProgress(BulkJob j, BulkJob.Status status, long done, long skipped, long at, String note) {
        return new BulkJob(j.id(), j.queue(), j.filter(), j.action(), status, j.total(), done, skipped, j.epoch(), j.shards(),
                j.createdAt(), j.by(), at, note);
    }

    /** One bulk script call on a shard, protocol 3's scripts on a protocol-3 queue (same arguments, same answer). */
    private List<Object> call(LuaScript script, int shard, List<String> args) {
        try {
            if (bucketed) {
                BucketScript p3 = script == LuaScript.BULK_PREVIEW ? BucketScript.BULK_PREVIEW : BucketScript.BULK_APPLY;
                return Replies.await(scope.scripts().<List<Object>>run(p3, List.of(BucketLayout.prefix(scope.queue(), shard)), args), timeout);
            }
            return Replies.await(scope.scripts().<List<Object>>run(script, scope.keys(shard).scriptKeys(), args), timeout);
        } catch (RedisCommandExecutionException e) {
            String m = String.valueOf(e.getMessage());
            if (m.startsWith("MIGRATING") || m.startsWith("LAYOUT")) {
                throw new BulkRefusedException("queue '" + scope.queue() + "' is being resharded or its layout changed (shard " + shard
                        + " answered: " + m + "): bulk actions wait until the reshard has finished");
            }
            throw e;
        }
    }

    private Layout currentLayout() {
        Optional<RecordedLayout> recorded = Replies.await(RecordedLayout.read(scope.commands(), scope.queue()), timeout);
        if (recorded.isEmpty()) {
            throw new InvalidInputException("queue", "no queue '" + scope.queue() + "' in Redis (no hash " + scope.meta() + ")");
        }
        bucketed = recorded.get().protocol() == QueueProtocol.BUCKETED;
        if (bucketed) {
            requireUpgradeFinished(recorded.get().layout().shards());
        }
        return recorded.get().layout();
    }

    /**
     * A job begun before the queue was upgraded to protocol 3 walked protocol 2's due sets: its cursors mean nothing in
     * protocol 3's buckets, and walking them afresh could act on a task twice (a shift).
     */
    private void refuseJobOfProtocol2(BulkJob job) {
        String upgradedAt = Replies.await(scope.commands().hget(scope.meta(), ProtocolUpgrade.UPGRADED_AT), timeout);
        if (upgradedAt != null && job.createdAt() < Long.parseLong(upgradedAt)) {
            String why = "job " + job.id() + " began before queue '" + scope.queue() + "' was upgraded to protocol 3: it cannot go on "
                    + "in protocol 3's keys; " + job.done() + " tasks were done; start a new job whose filter leaves them out";
            stopped(job, job.done(), job.skipped(), why);
            throw new BulkRefusedException(why);
        }
    }

    /**
     * While an upgrade in place has not finished, a shard holds tasks in protocol 2's keys too, which protocol 3's walk
     * does not see: a bulk action then waits, as it waits for a reshard.
     */
    private void requireUpgradeFinished(int shards) {
        // every shard's mark asked at once (one slot each, so one EXISTS per shard), then read in order
        List<CompletableFuture<Long>> marks = new ArrayList<>();
        for (int shard = 0; shard < shards; shard++) {
            marks.add(scope.commands().exists(BucketLayout.prefix(scope.queue(), shard) + BucketLayout.LEGACY).toCompletableFuture());
        }
        for (int shard = 0; shard < shards; shard++) {
            if (Replies.await(marks.get(shard), timeout) > 0) {
                throw new BulkRefusedException("queue '" + scope.queue() + "' is being upgraded to protocol 3 (shard " + shard
                        + " still holds tasks of protocol 2): bulk actions wait until the upgrade has finished ('delayq upgrade')");
            }
        }
    }

    private Layout layoutForBulk() {
        Layout layout = currentLayout();
        if (layout.migrating()) {
            throw new BulkRefusedException(migratingMessage(layout));
        }
        return layout;
    }

    private String migratingMessage(Layout layout) {
        return "queue '" + scope.queue() + "' is being resharded from " + layout.from() + " to " + layout.shards()
                + " shards: bulk actions act per shard of one layout, so they wait until the reshard has finished "
                + "('delayq stats' shows its progress)";
    }

    private void requireKnownGroup(String group, Layout layout) {
        for (int shard = 0; shard < layout.shards(); shard++) {
            if (Replies.await(scope.commands().exists(scope.keys(shard).group(group)), timeout) > 0) {
                return;
            }
        }
        throw new InvalidInputException("group", "no task waits in group '" + group + "' on any of the " + layout.shards()
                + " shards of queue '" + scope.queue() + "' (a group is known only while it has waiting tasks); check the name");
    }

    private static long sum(long[] values) {
        long s = 0;
        for (long v : values) {
            s += v;
        }
        return s;
    }

    private static byte[] randomBytes() {
        byte[] b = new byte[6];
        IDS.nextBytes(b);
        return b;
    }
}
