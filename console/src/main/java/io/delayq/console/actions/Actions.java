package io.delayq.console.actions;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.browse.BrowsePage;
import io.delayq.browse.BrowseQuery;
import io.delayq.browse.BrowseState;
import io.delayq.browse.BrowsedTask;
import io.delayq.client.DelayQueueClient;
import io.delayq.console.http.ApiException;
import io.delayq.console.queues.QueueDirectory;
import io.delayq.console.tasks.TaskViews;
import io.delayq.pause.PauseState;
import io.delayq.task.CancelResult;
import io.delayq.task.PastDueTime;
import io.delayq.task.RescheduleResult;
import io.delayq.task.TaskId;
import io.delayq.task.TaskInfo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The console's actions. Each runs twice: first without {@code confirm} it only says what it would
 * touch (the page shows that in its confirmation dialog), then with {@code "confirm": true} it acts,
 * and the action log records who did what.
 */
public final class Actions {
    /** Most dead letters one filtered replay or purge touches; larger sets are done in several rounds. */
    public static final int MAX_DEAD_PER_ACTION = 100_000;
    static final int SAMPLE = 20;

    private final QueueDirectory queues;
    private final ActionLog log;

    public Actions(QueueDirectory queues, ActionLog log) {
        this.queues = queues;
        this.log = log;
    }

    public Map<String, Object> run(String queue, String action, JsonNode body, String who) {
        DelayQueueClient c = queues.client(queue);
        boolean confirm = body.path("confirm").asBoolean(false);
        return switch (action) {
            case "cancel" -> cancel(c, id(body), confirm, who);
            case "reschedule" -> reschedule(c, id(body), TaskViews.instant("at", required(body, "at")), confirm, who, "reschedule");
            case "run-now" -> reschedule(c, id(body), null, confirm, who, "run-now");
            case "dead-replay" -> dead(c, body, confirm, who, true);
            case "dead-purge" -> dead(c, body, confirm, who, false);
            case "pause" -> pause(c, confirm, who, true);
            case "resume" -> pause(c, confirm, who, false);
            case "schedule-pause" -> schedule(c, required(body, "name"), confirm, who, true);
            case "schedule-resume" -> schedule(c, required(body, "name"), confirm, who, false);
            case "calendar-put" -> new io.delayq.console.calendars.CalendarActions(log).put(c, body, confirm, who);
            case "calendar-delete" -> new io.delayq.console.calendars.CalendarActions(log).delete(c, required(body, "name"), confirm, who);
            default -> throw ApiException.notFound("action", "no action '" + action
                    + "' (cancel, reschedule, run-now, dead-replay, dead-purge, pause, resume, schedule-pause, schedule-resume, "
                    + "calendar-put, calendar-delete)");
        };
    }

    private Map<String, Object> cancel(DelayQueueClient c, String id, boolean confirm, String who) {
        TaskInfo info = c.inspect(id);
        requireKnown(c, info);
        if (info.state() == TaskInfo.State.IN_FLIGHT) {
            throw new ApiException(409, "id", "task '" + id + "' is in flight: a running task cannot be cancelled (it finishes or its lease expires)");
        }
        if (!confirm) {
            return ActionAnswer.preview("cancel", "Cancel " + describe(info) + "? Its record, attempts and last error are deleted.", 1, List.of(id));
        }
        CancelResult r = c.cancel(id);
        log.record(who, c.protocol().queue(), "cancel", id, r.name());
        return ActionAnswer.done("cancel", r == CancelResult.CANCELLED ? "Cancelled " + id + "." : "Not cancelled: " + r.name(), r == CancelResult.CANCELLED ? 1 : 0);
    }

    private Map<String, Object> reschedule(DelayQueueClient c, String id, Instant at, boolean confirm, String who, String name) {
        TaskInfo info = c.inspect(id);
        requireKnown(c, info);
        if (info.state() != TaskInfo.State.SCHEDULED) {
            throw new ApiException(409, "id", "task '" + id + "' is " + stateName(info) + ": only a waiting task can be "
                    + (at == null ? "run now" : "rescheduled") + (info.state() == TaskInfo.State.DEAD ? " (replay it instead)" : ""));
        }
        String when = at == null ? "now (due at once; it fires at the next claim)" : at.toString();
        // a past time is taken (the task is due now), as the CLI takes it, and said in the CLI's words
        String past = at != null && PastDueTime.isPast(at.toEpochMilli(), info.serverNow())
                ? " Note: " + PastDueTime.notice(at.toEpochMilli(), info.serverNow()) + "." : "";
        if (!confirm) {
            return ActionAnswer.preview(name, "Move " + describe(info) + " to " + when + "?" + past, 1, List.of(id));
        }
        RescheduleResult r = at == null ? c.reschedule(id, Duration.ZERO) : c.reschedule(id, at);
        log.record(who, c.protocol().queue(), name, id + (at == null ? "" : " -> " + at), r.status().name());
        boolean ok = r.status() == RescheduleResult.Status.RESCHEDULED;
        return ActionAnswer.done(name, ok ? "Moved " + id + " to " + Instant.ofEpochMilli(r.dueAt()) + "." + past : "Not moved: " + r.status().name(), ok ? 1 : 0);
    }

    private Map<String, Object> dead(DelayQueueClient c, JsonNode body, boolean confirm, String who, boolean replay) {
        String verb = replay ? "Replay" : "Purge";
        String name = replay ? "dead-replay" : "dead-purge";
        Selection sel = select(c, body);
        if (sel.ids.isEmpty()) {
            throw ApiException.notFound("dead", "no dead letter matches " + sel.description);
        }
        String digest = digest(sel.ids);
        if (!confirm) {
            String effect = replay ? "They become due now with their attempts reset." : "They are deleted for good, with their records.";
            Map<String, Object> out = ActionAnswer.preview(name, verb + " " + sel.ids.size() + (sel.capped ? "+" : "") + " dead letter" + (sel.ids.size() == 1 ? "" : "s")
                    + " (" + sel.description + ")? " + effect, sel.ids.size(), sel.ids.stream().limit(SAMPLE).toList());
            out.put("selection", digest);
            return out;
        }
        // the person approved the letters previewed: a filter or "all" re-run now may match others
        String approved = body.path("selection").asText("");
        if (approved.isEmpty() && sel.byFilter) {
            throw ApiException.badRequest("selection", "is required to confirm a filtered or all-dead-letters action: "
                    + "send the \"selection\" its preview returned");
        }
        if (!approved.isEmpty() && !approved.equals(digest)) {
            throw new ApiException(409, "selection", "the dead letters matching " + sel.description + " changed since the preview ("
                    + sel.ids.size() + " match now); nothing was " + (replay ? "replayed" : "purged") + ": preview again");
        }
        long n = replay ? c.replayDead(sel.ids) : c.purgeDead(sel.ids);
        log.record(who, c.protocol().queue(), name, sel.description + " (" + sel.ids.size() + " ids)", n + " touched");
        return ActionAnswer.done(name, (replay ? "Replayed " : "Purged ") + n + " dead letter" + (n == 1 ? "" : "s") + ".", n);
    }

    private record Selection(List<String> ids, String description, boolean capped, boolean byFilter) {
    }

    /** What a preview showed, in a few bytes: the ids in order, hashed (the selection order is deterministic). */
    static String digest(List<String> ids) {
        try {
            java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
            for (String id : ids) {
                md.update(id.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                md.update((byte) '\n');
            }
            return java.util.HexFormat.of().formatHex(md.digest(), 0, 16);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One id ({@code id}), a list ({@code ids}), a filter ({@code filter}: prefix, from, to) or {@code all}. */
    private Selection select(DelayQueueClient c, JsonNode body) {
        if (body.hasNonNull("id") || body.has("ids")) {
            if (body.has("ids") && !body.get("ids").isArray()) {
                throw ApiException.badRequest("ids", "must be an array of task ids");
            }
            Set<String> ids = new LinkedHashSet<>();
            if (body.hasNonNull("id")) {
                ids.add(body.get("id").asText());
            }
            body.path("ids").forEach(n -> ids.add(n.asText()));
            if (ids.size() > 10_000) {
                throw ApiException.badRequest("ids", "at most 10000 ids per call, got " + ids.size());
            }
            List<String> dead = new ArrayList<>();
            for (String id : ids) {
                TaskId.require(id);
                if (c.inspect(id).state() == TaskInfo.State.DEAD) {
                    dead.add(id);
                }
            }
            return new Selection(dead, ids.size() == 1 ? "id " + ids.iterator().next() : ids.size() + " given ids", false, false);
        }
        BrowseQuery q;
        String description;
        if (body.has("filter")) {
            JsonNode f = body.get("filter");
            String prefix = f.path("prefix").asText("");
            Instant from = TaskViews.instant("from", f.hasNonNull("from") && !f.get("from").asText().isBlank() ? f.get("from").asText() : null);
            Instant to = TaskViews.instant("to", f.hasNonNull("to") && !f.get("to").asText().isBlank() ? f.get("to").asText() : null);
            if (prefix.isEmpty() && from == null && to == null) {
                throw ApiException.badRequest("filter", "needs a prefix, a from or a to (to touch every dead letter, send \"all\": true)");
            }
            q = new BrowseQuery(BrowseState.DEAD, prefix, from, to, BrowseQuery.MAX_LIMIT, null);
            description = "id prefix '" + prefix + "'" + (from == null ? "" : ", died at or after " + from) + (to == null ? "" : ", died at or before " + to);
            if (prefix.isEmpty()) {
                description = description.substring(description.indexOf(", ") + 2);
            }
        } else if (body.path("all").asBoolean(false)) {
            q = BrowseQuery.of(BrowseState.DEAD).limit(BrowseQuery.MAX_LIMIT);
            description = "all dead letters";
        } else {
            throw ApiException.badRequest("id", "say which dead letters: \"id\", \"ids\", \"filter\" {prefix, from, to} or \"all\": true");
        }
        List<String> ids = new ArrayList<>();
        BrowseQuery page = q;
        while (ids.size() < MAX_DEAD_PER_ACTION) {
            BrowsePage p = c.browse(page);
            for (BrowsedTask t : p.tasks()) {
                ids.add(t.id());
            }
            if (!p.hasNext()) {
                return new Selection(ids, description, false, true);
            }
            page = page.after(p.next());
        }
        return new Selection(ids.subList(0, MAX_DEAD_PER_ACTION), description, true, true);
    }

    private Map<String, Object> pause(DelayQueueClient c, boolean confirm, String who, boolean pause) {
        String q = c.protocol().queue();
        int shards = c.protocol().shards();
        if (!confirm) {
            return ActionAnswer.preview(pause ? "pause" : "resume", pause
                    ? "Pause queue '" + q + "' (" + shards + " shards)? Claims hand out nothing until resumed; due times are kept, "
                    + "running tasks finish, the backlog keeps being reported."
                    : "Resume queue '" + q + "' (" + shards + " shards)? Overdue tasks fire at once.", shards, List.of());
        }
        PauseState s = pause ? c.pause("console:" + who) : c.resume("console:" + who);
        log.record(who, q, pause ? "pause" : "resume", "queue " + q, s.paused() ? "paused" : "running");
        if (s.paused() != pause) {
            // someone else's later call won (pause epochs): say what the queue is now, not what was asked
            return ActionAnswer.done(pause ? "pause" : "resume", "Queue '" + q + "' is " + (s.paused() ? "paused (by " + s.by() + ")" : "running")
                    + ": a later " + (pause ? "resume" : "pause") + " by someone else overtook this one.", 0);
        }
        return ActionAnswer.done(pause ? "pause" : "resume", (pause ? "Paused" : "Resumed") + " queue '" + q + "'.", shards);
    }

    /** Pauses or resumes one recurring schedule, through core's Schedules (a revision-checked put of its definition). */
    private Map<String, Object> schedule(DelayQueueClient c, String name, boolean confirm, String who, boolean pause) {
        io.delayq.schedule.Schedules schedules = io.delayq.schedule.Schedules.of(c);
        io.delayq.schedule.ScheduleStatus s = schedules.get(io.delayq.schedule.CronSchedule.requireName(name)).orElseThrow(() ->
                ApiException.notFound("name", "no schedule '" + name + "' in queue '" + c.protocol().queue() + "'"));
        io.delayq.schedule.CronSchedule d = s.definition();
        String action = pause ? "schedule-pause" : "schedule-resume";
        if ("operator".equals(d.managedBy())) {
            // the operator writes the resource's schedules back on every reconcile: a pause here would not last
            throw new ApiException(409, "name", "schedule '" + name + "' is declared in the DelayQueue resource (managed by the operator), "
                    + "which would undo this on its next reconcile: set suspend: " + pause + " on it in spec.schedules instead");
        }
        if (d.paused() == pause) {
            throw new ApiException(409, "name", "schedule '" + name + "' is already " + (pause ? "paused" : "active"));
        }
        String what = "schedule '" + name + "' (" + d.cron() + ", " + d.timeZone() + ")";
        if (!confirm) {
            return ActionAnswer.preview(action, pause
                    ? "Pause " + what + "? No occurrence fires until it is resumed: the workers' next planning turn cancels the "
                    + "occurrences it had enqueued ahead (those not yet claimed); one already running finishes."
                    : "Resume " + what + "? What it missed while paused follows its misfire policy (" + d.misfirePolicy().wire() + ").", 1,
                    List.of(name));
        }
        io.delayq.schedule.PutResult r = pause ? schedules.pause(name) : schedules.resume(name);
        log.record(who, c.protocol().queue(), action, "schedule " + name, r.status().name().toLowerCase(java.util.Locale.ROOT)
                + " (revision " + r.revision() + ")");
        if (r.status() == io.delayq.schedule.PutResult.Status.CONFLICT) {
            throw new ApiException(409, "name", "schedule '" + name + "' kept changing while it was " + (pause ? "paused" : "resumed")
                    + "; nothing was written: try again");
        }
        return ActionAnswer.done(action, (pause ? "Paused" : "Resumed") + " schedule '" + name + "'.", 1);
    }

    private static void requireKnown(DelayQueueClient c, TaskInfo info) {
        if (info.state() == TaskInfo.State.UNKNOWN || info.state() == TaskInfo.State.SUCCEEDED) {
            // a succeeded task's completion record is kept for reading: nothing waits to be acted on
            throw ApiException.notFound("id", "no task '" + info.id() + "' in queue '" + c.protocol().queue() + "'"
                    + (info.state() == TaskInfo.State.SUCCEEDED ? " (it succeeded at " + info.completion().finishedAt() + ")" : ""));
        }
    }

    private static String stateName(TaskInfo info) {
        return switch (info.state()) {
            case SCHEDULED -> info.overdue() ? "due" : "scheduled";
            case IN_FLIGHT -> "in flight";
            case DEAD -> "dead";
            case SUCCEEDED -> "succeeded";
            case UNKNOWN -> "unknown";
        };
    }

    private static String describe(TaskInfo info) {
        String at = Instant.ofEpochMilli(info.score()).toString();
        return "task '" + info.id() + "' (" + stateName(info) + ", shard " + info.shard() + ", "
                + (info.state() == TaskInfo.State.DEAD ? "died " : "due ") + at + ")";
    }

    private static String id(JsonNode body) {
        return TaskId.require(required(body, "id"));
    }

    private static String required(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull() || n.asText().isBlank()) {
            throw ApiException.badRequest(field, "is required");
        }
        return n.asText();
    }
}
