package io.delayq.console.tasks;

import io.delayq.completion.CompletionRecord;
import io.delayq.completion.RecentCompletions;
import io.delayq.InvalidInputException;
import io.delayq.browse.BrowsePage;
import io.delayq.browse.BrowseQuery;
import io.delayq.browse.BrowseState;
import io.delayq.browse.BrowsedTask;
import io.delayq.client.DelayQueueClient;
import io.delayq.console.http.ApiException;
import io.delayq.console.http.Request;
import io.delayq.console.queues.QueueDirectory;
import io.delayq.presence.InFlightLease;
import io.delayq.presence.PresenceRegistry;
import io.delayq.presence.WorkerPresence;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskProgress;
import io.delayq.task.TaskRecord;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON of the task browser and of one task's page. */
public final class TaskViews {
    private final QueueDirectory queues;
    /** A trace viewer's URL with {traceId} (DELAYQ_CONSOLE_TRACE_URL), or null. */
    private final String traceUrl;

    public TaskViews(QueueDirectory queues) {
        this(queues, null);
    }

    public TaskViews(QueueDirectory queues, String traceUrl) {
        this.queues = queues;
        this.traceUrl = traceUrl;
    }

    /** The request's {@code limit} parameter, {@code fallback} when absent. */
    public static int limit(Request r, int fallback) {
        String limit = r.param("limit");
        if (limit == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(limit);
        } catch (NumberFormatException e) {
            throw new InvalidInputException("limit", "must be a whole number between 1 and 100, got '" + limit + "'");
        }
    }

    /** The browse query the request's parameters describe: state, prefix, from, to, limit, cursor. */
    public static BrowseQuery query(Request r) {
        String limit = r.param("limit");
        int n = BrowseQuery.DEFAULT_LIMIT;
        if (limit != null) {
            try {
                n = Integer.parseInt(limit);
            } catch (NumberFormatException e) {
                throw new InvalidInputException("limit", "must be a whole number between 1 and " + BrowseQuery.MAX_LIMIT + ", got '" + limit + "'");
            }
        }
        return new BrowseQuery(BrowseState.parse(r.param("state") == null ? "due" : r.param("state")), r.param("prefix"),
                instant("from", r.param("from")), instant("to", r.param("to")), n, r.param("cursor"));
    }

    /** ISO-8601 with a zone, or epoch milliseconds. */
    public static Instant instant(String field, String text) {
        if (text == null) {
            return null;
        }
        if (text.matches("\\d{1,15}")) {
            return Instant.ofEpochMilli(Long.parseLong(text));
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new InvalidInputException(field, "'" + text + "' is not a time: use ISO-8601 with a zone (2026-12-01T10:00:00Z) or epoch ms");
        }
    }

    public Map<String, Object> browse(String queue, BrowseQuery query) {
        // the layout first: after a grow the browse covers the new shards too
        queues.layout(queue);
        BrowsePage page = queues.client(queue).browse(query);
        List<Map<String, Object>> tasks = new ArrayList<>();
        for (BrowsedTask t : page.tasks()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", t.id());
            m.put("shard", t.shard());
            m.put("at", t.score());
            m.put("priority", t.priority());
            m.put("attempts", t.attempts());
            m.put("lastError", t.lastError());
            m.put("payload", t.payloadPreview());
            m.put("truncated", t.previewTruncated());
            tasks.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("queue", queue);
        out.put("state", query.state().wire());
        out.put("prefix", query.idPrefix());
        out.put("from", query.from() == null ? null : query.from().toEpochMilli());
        out.put("to", query.to() == null ? null : query.to().toEpochMilli());
        out.put("limit", query.limit());
        out.put("serverTime", page.serverNow());
        out.put("inWindow", page.totalInWindow());
        out.put("inWindowPerShard", page.inWindow());
        out.put("tasks", tasks);
        out.put("next", page.next());
        return out;
    }

    public Map<String, Object> task(String queue, String id) {
        DelayQueueClient c = queues.client(queue);
        TaskInfo info = c.inspect(id);
        if (info.state() == TaskInfo.State.UNKNOWN) {
            throw ApiException.notFound("id", "no task '" + id + "' in queue '" + queue + "' (never enqueued, or already done, cancelled or purged; "
                    + "a finished task is kept only while the queue keeps results: DELAYQ_RESULTS_KEEP)");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("queue", queue);
        out.put("id", id);
        out.put("shard", info.shard());
        out.put("shards", c.protocol().shards());
        out.put("state", switch (info.state()) {
            case SCHEDULED -> info.overdue() ? "due" : "scheduled";
            case IN_FLIGHT -> "inflight";
            case DEAD -> "dead";
            case SUCCEEDED -> "succeeded";
            case UNKNOWN -> "unknown";
        });
        out.put("score", info.score());
        out.put("priority", info.priority());
        out.put("attempts", info.attempts());
        out.put("lastError", info.lastError());
        out.put("record", info.rawRecord());
        try {
            TaskRecord r = TaskRecord.decode(info.rawRecord());
            out.put("payload", r.payload());
            out.put("enqueuedAt", r.enqueuedAt());
        } catch (TaskRecord.MalformedRecordException e) {
            out.put("payload", null);
            out.put("recordProblem", e.getMessage());
        }
        out.put("options", TaskOptionsView.of(info.rawRecord(), info.serverNow(), traceUrl));
        out.put("leaseExpiresAt", info.state() == TaskInfo.State.IN_FLIGHT ? info.score() : null);
        if (info.state() == TaskInfo.State.IN_FLIGHT) {
            out.put("lease", holder(queue, info));
            out.put("progress", progress(info.progress()));
        }
        out.put("completion", completion(info.completion()));
        out.put("serverTime", info.serverNow());
        return out;
    }

    /** The newest completion records of a queue (at most {@code limit}, 1 to 100), newest first: the queue page's list. */
    public Map<String, Object> completions(String queue, int limit) {
        if (limit < 1 || limit > 100) {
            throw new InvalidInputException("limit", "must be 1 to 100, got " + limit);
        }
        DelayQueueClient c = queues.client(queue);
        List<Map<String, Object>> list = new ArrayList<>();
        for (RecentCompletions.Entry e : io.delayq.redis.Replies.await(
                new RecentCompletions(c.protocol().scope()).newest(c.protocol().shards(), limit), java.time.Duration.ofSeconds(5))) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", e.id());
            m.put("shard", e.shard());
            m.putAll(completion(e.record()));
            list.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("queue", queue);
        out.put("completions", list);
        return out;
    }

    /** A completion record as the API shows it ({@code finishedAt}: Redis clock, ms), or null. */
    private static Map<String, Object> completion(CompletionRecord c) {
        if (c == null) {
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("finishedAt", c.finishedAt().toEpochMilli());
        out.put("attempts", c.attempts());
        out.put("worker", c.workerId());
        out.put("handlerMillis", c.handlerTime().toMillis());
        out.put("result", c.result());
        out.put("resultTruncated", c.truncated());
        return out;
    }

    /** What the handler of an in-flight task last reported ({@code at}: when it was written, Redis clock), or null. */
    private static Map<String, Object> progress(TaskProgress p) {
        if (p == null) {
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("percent", p.percent());
        out.put("note", p.note());
        out.put("at", p.at());
        return out;
    }

    /**
     * Who holds an in-flight task's lease (core's {@link InFlightLease}: the worker that reported this very
     * token at its heartbeat, else the live workers owning the shard), and {@code summary}: the sentence the
     * CLI's {@code inspect} prints too, so that both give one answer ({@code who}: the same without the lease's expiry).
     */
    private Map<String, Object> holder(String queue, TaskInfo info) {
        InFlightLease lease = InFlightLease.read(new PresenceRegistry(queues.redis(), queue, java.time.Duration.ofSeconds(5)), info);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("owners", lease.owners().stream().map(WorkerPresence::id).toList());
        out.put("holder", lease.holder() == null ? null : lease.holder().id());
        if (lease.holder() != null) {
            out.put("holderHost", lease.holder().host());
            out.put("reportedAt", lease.holder().heartbeatAt());
        }
        out.put("expired", lease.expired());
        out.put("summary", lease.summary());
        out.put("who", lease.who());
        return out;
    }
}
