package io.delayq.cli.task;

import io.delayq.cli.CliException;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.cli.text.Instants;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.InvalidInputException;
import io.delayq.cli.text.DurationConverter;
import io.delayq.cli.text.InstantConverter;
import io.delayq.task.ExpiryAction;
import io.delayq.task.TaskOptions;
import io.delayq.task.TaskSpec;
import io.delayq.task.TraceContext;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

@Command(name = "enqueue", mixinStandardHelpOptions = true,
        description = "Schedule a task: due after a delay, at an instant, or after N business days of a calendar, with an optional payload.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:the task was added, replaced, or moved to an earlier due time",
                "1:nothing changed: the id exists (reject), was already due earlier (keep-earlier), is in flight or dead",
                ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq enqueue order-8812 --delay 30m --payload '{\"action\":\"cancel-if-unpaid\"}'",
                "  delayq enqueue payout-W17 --at 2026-12-01T10:00:00Z --payload-file payout.json",
                "  delayq enqueue coupon-C9 --at 2026-12-31T23:59:00+01:00 --on-duplicate keep-earlier",
                "  delayq enqueue first-task --delay 0s --shards 16    # creates the queue",
                "  delayq enqueue coupon-C10 --delay 1h --expires-in 2h --on-expiry discard",
                "  delayq enqueue capture-P1 --delay 0s --max-attempts 10 --backoff 2s --backoff-max 10m",
                "  delayq enqueue payout-W18 --calendar de-bank --business-days 3 --time 10:00",
                "  delayq enqueue report-R4 --at 2026-12-26T09:00:00+01:00 --calendar de-bank --roll-forward"})
public class EnqueueCommand extends QueueCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "Task id: the business key (order id), at most 256 bytes; it is the idempotency key.")
    String id;

    @ArgGroup(exclusive = true, multiplicity = "1")
    DueTime due;

    @ArgGroup(exclusive = true)
    PayloadSource payload;

    @picocli.CommandLine.Mixin
    BusinessDue businessDue;

    @Option(names = "--priority", paramLabel = "0..2", defaultValue = "0",
            description = "0 normal (default), 1 high, 2 highest: claimed first when tasks pile up; never fires early.")
    int priority;

    @Option(names = "--group", paramLabel = "KEY", description = "Group key (a tenant, a customer; 1-64 ASCII letters, digits and - _ . : @ /): "
            + "due groups are claimed round robin, each under DELAYQ_GROUP_RATE_LIMIT; not with --priority.")
    String group;

    @Option(names = "--on-duplicate", paramLabel = "POLICY", defaultValue = "reject", converter = DuplicatePolicyConverter.class,
            completionCandidates = DuplicatePolicyConverter.Names.class,
            description = "When the id exists: reject (default: leave it), replace (new time and payload; not while in flight), "
                    + "keep-earlier (move it only if the new time is earlier), future-only, once, future-once, "
                    + "debounce (needs --debounce-max-wait; implied by it).")
    DuplicatePolicy onDuplicate;

    @Option(names = "--dedup-window", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "After the task is acked, cancelled or dead-lettered, refuse its id for this long (1ms to 30d), "
                    + "whatever --on-duplicate says.")
    Duration dedupWindow;

    @Option(names = "--debounce-max-wait", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Debounce (implies --on-duplicate debounce): each enqueue of the id while it waits replaces it and "
                    + "moves its due time, but never past the burst's first enqueue + this (1ms to 30d).")
    Duration debounceMaxWait;

    @ArgGroup(exclusive = true)
    Expiry expiry;

    @Option(names = "--on-expiry", paramLabel = "ACTION", description = "What happens to the task if not started by its expiry: "
            + "dead-letter (default: into the dead-letter set with the reason 'expired: ...') or discard.")
    String onExpiry;

    @Option(names = "--max-attempts", paramLabel = "N", description = "Attempts for this task before the dead-letter set (1-1000), "
            + "instead of the worker's DELAYQ_RETRY_MAX_ATTEMPTS.")
    Integer maxAttempts;

    @Option(names = "--backoff", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "First retry delay of this task, instead of the worker's DELAYQ_RETRY_BACKOFF_INITIAL.")
    Duration backoff;

    @Option(names = "--backoff-max", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Longest retry delay of this task, instead of DELAYQ_RETRY_BACKOFF_MAX.")
    Duration backoffMax;

    @Option(names = "--backoff-multiplier", paramLabel = "X", description = "Growth of the delay per attempt (1-100), "
            + "instead of DELAYQ_RETRY_BACKOFF_MULTIPLIER.")
    Double backoffMultiplier;

    @Option(names = "--traceparent", paramLabel = "TRACEPARENT", description = "W3C trace context to record (00-<trace id>-<span id>-<flags>): "
            + "the worker's delivery span joins that trace.")
    String traceparent;

    @Option(names = "--tracestate", paramLabel = "TRACESTATE", description = "W3C tracestate to record with --traceparent.")
    String tracestate;

    private TaskSpec task;

    /** {@code --expires-at INSTANT | --expires-in DURATION}: the task is not run if not started by then. */
    static class Expiry {
        @Option(names = "--expires-at", paramLabel = "INSTANT", converter = InstantConverter.class, required = true,
                description = "Not run if not started by this instant (judged by the worker on the Redis clock).")
        Instant at;

        @Option(names = "--expires-in", paramLabel = "DURATION", converter = DurationConverter.class, required = true,
                description = "Not run if not started within this long from now (now on this machine's clock).")
        Duration in;

        Long millis(long now) {
            return at != null ? Long.valueOf(at.toEpochMilli()) : Long.valueOf(now + in.toMillis());
        }
    }

    static class PayloadSource {
        @Option(names = "--payload", paramLabel = "TEXT", required = true, description = "Payload text (often JSON) handed to the handler.")
        String text;

        @Option(names = "--payload-file", paramLabel = "FILE", required = true, description = "Read the payload from a UTF-8 file ('-' = stdin).")
        Path file;

        String read() {
            if (text != null) {
                return text;
            }
            try {
                byte[] bytes;
                if (file.toString().equals("-")) {
                    try (InputStream in = System.in) {
                        bytes = in.readAllBytes();
                    }
                } else {
                    bytes = Files.readAllBytes(file);
                }
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
            } catch (NoSuchFileException e) {
                throw CliException.usage("payload-file: no such file: " + file);
            } catch (CharacterCodingException e) {
                throw CliException.usage("payload-file: " + file + " is not UTF-8 text");
            } catch (IOException e) {
                throw CliException.usage("payload-file: cannot read " + file + ": " + e.getMessage());
            }
        }
    }

    @Override
    protected void validate() {
        if (onExpiry != null && expiry == null) {
            throw new InvalidInputException("onExpiry", "needs --expires-at or --expires-in");
        }
        if (tracestate != null && traceparent == null) {
            throw new InvalidInputException("tracestate", "needs --traceparent");
        }
        businessDue.validate(due);
        TaskOptions options = new TaskOptions(expiry == null ? null : expiry.millis(System.currentTimeMillis()),
                onExpiry == null ? null : ExpiryAction.fromWire(onExpiry), maxAttempts,
                backoff == null ? null : backoff.toMillis(), backoffMax == null ? null : backoffMax.toMillis(), backoffMultiplier,
                traceparent == null ? null : new TraceContext(traceparent, tracestate), group)
                .withDedupWindow(dedupWindow == null ? null : dedupWindow.toMillis())
                .withDebounce(debounceMaxWait == null ? null : debounceMaxWait.toMillis());
        if (debounceMaxWait != null && onDuplicate == DuplicatePolicy.REJECT) {
            onDuplicate = DuplicatePolicy.DEBOUNCE; // the default policy: --debounce-max-wait asks for debounce
        }
        task = new TaskSpec(id, due.schedule(), payload == null ? null : payload.read(), priority, options);
    }

    @Override
    protected boolean createsQueue() {
        return true;
    }

    @Override
    protected int run(QueueConnection queue) {
        String past = businessDue.calendar == null ? due.pastNotice(queue) : null;
        task = businessDue.apply(task, due, queue);
        EnqueueResult r = queue.client().enqueue(task, onDuplicate);
        int shard = queue.client().protocol().shardOf(id);
        String when = "due " + Instants.both(r.dueAt(), environment().zone());
        String where = " (queue " + queue.queue() + ", shard " + shard + ")";
        switch (r.status()) {
            case ADDED -> out().println("added " + id + where + ": " + when);
            case REPLACED -> out().println("replaced " + id + where + ": " + when);
            case EARLIER -> out().println("moved " + id + " earlier" + where + ": " + when);
            case KEPT -> out().println("kept " + id + where + ": already " + when + ", earlier than asked; nothing changed");
            case DUPLICATE -> out().println("duplicate " + id + where + ": a task with this id exists, " + describeExisting(queue, r)
                    + "; nothing changed (use --on-duplicate replace or keep-earlier)");
            case INFLIGHT -> out().println("in flight " + id + where + ": claimed under a lease ('delayq inspect " + id
                    + "' says whether a live worker runs it); nothing changed");
            case DEAD -> out().println("dead " + id + where + ": it is in the dead-letter set; nothing changed "
                    + "(use 'delayq dead replay " + id + "' or --on-duplicate replace)");
            case PAST -> out().println("not added " + id + where + ": " + when + " is not in the future (--on-duplicate future-only)");
            case WINDOW -> out().println("not added " + id + where + ": its dedup window runs until "
                    + Instants.both(r.dueAt(), environment().zone()) + "; nothing changed");
        }
        boolean scheduled = r.status() == EnqueueResult.Status.ADDED || r.status() == EnqueueResult.Status.REPLACED
                || r.status() == EnqueueResult.Status.EARLIER;
        if (scheduled && past != null) {
            err().println(spec.qualifiedName() + ": " + past);
        }
        return switch (r.status()) {
            case ADDED, REPLACED, EARLIER -> ExitCodes.OK;
            default -> ExitCodes.NOT_FOUND;
        };
    }

    private String describeExisting(QueueConnection queue, EnqueueResult r) {
        // the duplicate answer carries the existing score, which is a due time only while scheduled
        return switch (queue.client().inspect(id).state()) {
            case SCHEDULED -> "due " + Instants.both(r.dueAt(), environment().zone());
            case IN_FLIGHT -> "in flight";
            case DEAD -> "dead";
            case SUCCEEDED, UNKNOWN -> "gone meanwhile";
        };
    }
}
