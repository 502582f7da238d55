package io.delayq.operator.resource;

import io.delayq.DurationText;
import io.delayq.InvalidInputException;
import io.delayq.settings.Setting;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import static io.delayq.settings.WorkerSettings.CLAIM_AHEAD;
import static io.delayq.settings.WorkerSettings.DEAD_LETTER_MAX_AGE;
import static io.delayq.settings.WorkerSettings.HANDLER_TIMEOUT;
import static io.delayq.settings.WorkerSettings.KAFKA_TIMEOUT;
import static io.delayq.settings.WorkerSettings.LEASE;
import static io.delayq.settings.WorkerSettings.OUTBOX_BACKSTOP_INTERVAL;
import static io.delayq.settings.WorkerSettings.OUTBOX_POLL_INTERVAL;
import static io.delayq.settings.WorkerSettings.OUTBOX_RETRY_DELAY;
import static io.delayq.settings.WorkerSettings.POLL_INTERVAL;
import static io.delayq.settings.WorkerSettings.RESULTS_KEEP;
import static io.delayq.settings.WorkerSettings.RETRY_BACKOFF_INITIAL;
import static io.delayq.settings.WorkerSettings.RETRY_BACKOFF_MAX;
import static io.delayq.settings.WorkerSettings.SCHEDULE_HORIZON;
import static io.delayq.settings.WorkerSettings.SCHEDULE_INTERVAL;
import static io.delayq.settings.WorkerSettings.SCHEDULE_MISFIRE_THRESHOLD;
import static io.delayq.settings.WorkerSettings.SHUTDOWN_GRACE;
import static io.delayq.settings.WorkerSettings.WEBHOOK_TIMEOUT;

/**
 * The spec's duration fields that become worker variables, each with the range the worker accepts (its
 * {@link Setting.Span}). The CRD checks only their syntax ({@link Durations#PATTERN}): a range in a CEL rule cannot
 * read days or ISO-8601, and a string pattern cannot compare lengths of time. So the operator checks the range, and a
 * resource outside it is reported (reason InvalidSpec) instead of given workers that refuse to start.
 */
public final class DurationRanges {
    /** A spec field ({@code spec.retry.maxBackoff}), the worker variable it becomes, and how to read it from a spec. */
    public record Field(String path, Setting.Span setting, Function<DelayQueueSpec, String> value) {
    }

    public static final List<Field> FIELDS = List.of(
            new Field("spec.pollInterval", POLL_INTERVAL, DelayQueueSpec::getPollInterval),
            new Field("spec.lease", LEASE, DelayQueueSpec::getLease),
            new Field("spec.claimAhead", CLAIM_AHEAD, DelayQueueSpec::getClaimAhead),
            new Field("spec.handlerTimeout", HANDLER_TIMEOUT, DelayQueueSpec::getHandlerTimeout),
            new Field("spec.shutdownGrace", SHUTDOWN_GRACE, DelayQueueSpec::getShutdownGrace),
            new Field("spec.retry.initialBackoff", RETRY_BACKOFF_INITIAL, s -> s.getRetry() == null ? null : s.getRetry().getInitialBackoff()),
            new Field("spec.retry.maxBackoff", RETRY_BACKOFF_MAX, s -> s.getRetry() == null ? null : s.getRetry().getMaxBackoff()),
            new Field("spec.deadLetter.maxAge", DEAD_LETTER_MAX_AGE, s -> s.getDeadLetter() == null ? null : s.getDeadLetter().getMaxAge()),
            new Field("spec.results.keep", RESULTS_KEEP, s -> s.getResults() == null ? null : s.getResults().getKeep()),
            new Field("spec.delivery.webhook.timeout", WEBHOOK_TIMEOUT,
                    s -> s.getDelivery() == null || s.getDelivery().getWebhook() == null ? null : s.getDelivery().getWebhook().getTimeout()),
            new Field("spec.delivery.kafka.timeout", KAFKA_TIMEOUT,
                    s -> s.getDelivery() == null || s.getDelivery().getKafka() == null ? null : s.getDelivery().getKafka().getTimeout()),
            new Field("spec.schedulePlanner.interval", SCHEDULE_INTERVAL, s -> planner(s, SchedulePlannerSpec::getInterval)),
            new Field("spec.schedulePlanner.horizon", SCHEDULE_HORIZON, s -> planner(s, SchedulePlannerSpec::getHorizon)),
            new Field("spec.schedulePlanner.misfireThreshold", SCHEDULE_MISFIRE_THRESHOLD, s -> planner(s, SchedulePlannerSpec::getMisfireThreshold)),
            new Field("spec.outbox.pollInterval", OUTBOX_POLL_INTERVAL, s -> outbox(s, OutboxSpec::getPollInterval)),
            new Field("spec.outbox.retryDelay", OUTBOX_RETRY_DELAY, s -> outbox(s, OutboxSpec::getRetryDelay)),
            new Field("spec.outbox.backstop.interval", OUTBOX_BACKSTOP_INTERVAL,
                    s -> s.getOutbox() == null || s.getOutbox().getBackstop() == null ? null : s.getOutbox().getBackstop().getInterval()));

    private DurationRanges() {
    }

    /** @throws IllegalArgumentException naming the first field out of its range, the range and the worker variable */
    public static void check(DelayQueueSpec spec) {
        for (Field field : FIELDS) {
            String text = field.value().apply(spec);
            if (text == null) {
                continue;
            }
            Duration d;
            try {
                d = DurationText.require(field.path(), text);
            } catch (InvalidInputException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
            Setting.Span range = field.setting();
            if (d.compareTo(range.min()) < 0 || d.compareTo(range.max()) > 0) {
                throw new IllegalArgumentException(field.path() + " must be between " + DurationText.format(range.min()) + " and "
                        + DurationText.format(range.max()) + " (what the worker accepts as " + range.name() + "), got " + text);
            }
        }
    }

    private static String outbox(DelayQueueSpec spec, Function<OutboxSpec, String> field) {
        return spec.getOutbox() == null ? null : field.apply(spec.getOutbox());
    }

    private static String planner(DelayQueueSpec spec, Function<SchedulePlannerSpec, String> field) {
        return spec.getSchedulePlanner() == null ? null : field.apply(spec.getSchedulePlanner());
    }
}
