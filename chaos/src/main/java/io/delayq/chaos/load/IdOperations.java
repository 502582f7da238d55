package io.delayq.chaos.load;

import io.delayq.chaos.load.IdOpsLedger.Kind;
import io.delayq.chaos.load.IdOpsLedger.Op;
import io.delayq.client.DelayQueueClient;
import io.delayq.layout.LayoutChangedException;
import io.delayq.task.CancelResult;
import io.delayq.task.RescheduleResult;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Cancels and reschedules by id, alternating, every {@code every}, on tasks that are still waiting as far as
 * the caller knows ({@code pick} answers an acknowledged id not yet due, or null). Every call goes into the
 * {@link IdOpsLedger}. A call that fails (Redis restarting, a time-out) is sent again until it is answered:
 * a cancel resent after a lost answer that finds no task answers "gone" (its first send may have landed).
 * A reschedule moves the task to a random 0.2–4 s from now.
 */
public final class IdOperations implements AutoCloseable {
    private final DelayQueueClient client;
    private final Supplier<String> pick;
    private final Duration every;
    private final IdOpsLedger ledger = new IdOpsLedger();
    private final FailureCounts failures = new FailureCounts();
    private final Thread thread;
    private volatile boolean stopped;
    private volatile Throwable crashed;

    public IdOperations(DelayQueueClient client, Supplier<String> pick, Duration every) {
        this.client = client;
        this.pick = pick;
        this.every = every;
        this.thread = new Thread(this::run, "chaos-id-ops");
        this.thread.setDaemon(true);
    }

    public IdOperations start() {
        thread.start();
        return this;
    }

    private void run() {
        try {
            boolean cancel = true;
            while (!stopped) {
                String id = pick.get();
                if (id != null) {
                    if (cancel) {
                        cancel(id);
                    } else {
                        reschedule(id);
                    }
                    cancel = !cancel;
                }
                TimeUnit.MILLISECONDS.sleep(every.toMillis()); // pacing, not a wait on a condition
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            crashed = t;
        }
    }

    private void cancel(String id) throws InterruptedException {
        long sent = System.currentTimeMillis();
        boolean resent = false;
        while (true) {
            try {
                CancelResult r = client.cancel(id);
                String outcome = r == CancelResult.UNKNOWN && resent ? "gone" : r.name().toLowerCase(Locale.ROOT).replace("_", "");
                ledger.record(id, new Op(Kind.CANCEL, sent, System.currentTimeMillis(), outcome, 0));
                return;
            } catch (LayoutChangedException e) {
                // nothing was written (the id's batch is held by a mover that is not running): a refusal, not a failure
                ledger.record(id, new Op(Kind.CANCEL, sent, System.currentTimeMillis(), "layout", 0));
                return;
            } catch (RuntimeException e) {
                failed(e);
                resent = true;
                if (stopped) {
                    // unanswered: either outcome may hold from now on
                    ledger.record(id, new Op(Kind.CANCEL, sent, Long.MAX_VALUE, "unanswered", 0));
                    return;
                }
            }
        }
    }

    private void reschedule(String id) throws InterruptedException {
        long sent = System.currentTimeMillis();
        while (true) {
            try {
                RescheduleResult r = client.reschedule(id, Duration.ofMillis(ThreadLocalRandom.current().nextLong(200, 4001)));
                ledger.record(id, new Op(Kind.RESCHEDULE, sent, System.currentTimeMillis(), r.status().name().toLowerCase(Locale.ROOT)
                        .replace("_", ""), r.status() == RescheduleResult.Status.RESCHEDULED ? r.dueAt() : 0));
                return;
            } catch (LayoutChangedException e) {
                ledger.record(id, new Op(Kind.RESCHEDULE, sent, System.currentTimeMillis(), "layout", 0));
                return;
            } catch (RuntimeException e) {
                failed(e);
                if (stopped) {
                    ledger.record(id, new Op(Kind.RESCHEDULE, sent, Long.MAX_VALUE, "unanswered", 0));
                    return;
                }
            }
        }
    }

    private void failed(RuntimeException e) throws InterruptedException {
        failures.count(e);
        TimeUnit.MILLISECONDS.sleep(100); // back off before the resend
    }

    public IdOpsLedger ledger() {
        return ledger;
    }

    /** Failed calls by exception type (each was sent again). */
    public Map<String, Long> failures() {
        return failures.snapshot();
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.join(30_000);
        if (crashed != null) {
            throw new IllegalStateException("cancel/reschedule load crashed: " + crashed, crashed);
        }
    }
}
