package io.delayq.console.bulk;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.bulk.BulkAction;
import io.delayq.bulk.BulkActions;
import io.delayq.bulk.BulkFilter;
import io.delayq.bulk.BulkJob;
import io.delayq.bulk.BulkPreview;
import io.delayq.bulk.BulkRefusedException;
import io.delayq.bulk.BulkRun;
import io.delayq.bulk.BulkSample;
import io.delayq.bulk.BulkState;
import io.delayq.bulk.NothingMatchedException;
import io.delayq.console.actions.ActionLog;
import io.delayq.console.http.ApiException;
import io.delayq.console.queues.QueueDirectory;
import io.delayq.console.tasks.TaskViews;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The console's bulk actions on waiting tasks: a preview (count and the first due, nothing changed), then, confirmed, a
 * job run in the background in bounded batches whose progress the page polls; a stopped job can be resumed. Starting,
 * resuming and the end of every job go to the action log with who asked.
 */
public final class BulkViews implements AutoCloseable {
    private final QueueDirectory queues;
    private final ActionLog log;
    private final Duration timeout;
    private final ExecutorService runners = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "delayq-console-bulk");
        t.setDaemon(true);
        return t;
    });
    /** Jobs a runner of this console is at: a second resume of one is refused. */
    private final Set<String> running = ConcurrentHashMap.newKeySet();

    public BulkViews(QueueDirectory queues, ActionLog log, Duration timeout) {
        this.queues = queues;
        this.log = log;
        this.timeout = timeout;
    }

    private BulkActions bulk(String queue) {
        return new BulkActions(queues.client(queue).protocol().scope(), timeout);
    }

    /** POST queues/{q}/bulk: without {@code confirm} a preview; with it, starts the job and answers it at once. */
    public Map<String, Object> submit(String queue, JsonNode body, String who) {
        BulkFilter filter = filter(body.path("filter"));
        BulkAction action = action(body.path("action"));
        BulkActions bulk = bulk(queue);
        try {
            if (!body.path("confirm").asBoolean(false)) {
                BulkPreview p = bulk.preview(filter);
                if (p.matched() == 0) {
                    throw ApiException.notFound("filter", "no waiting task matches " + filter.describe() + "; nothing to do");
                }
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("confirm", true);
                out.put("matched", p.matched());
                out.put("earliest", p.earliest());
                out.put("latest", p.latest());
                out.put("serverTime", p.serverNow());
                out.put("shards", p.shards());
                List<Map<String, Object>> sample = new ArrayList<>();
                for (BulkSample s : p.sample()) {
                    sample.add(Map.of("id", s.id(), "shard", s.shard(), "dueAt", s.dueAt()));
                }
                out.put("sample", sample);
                out.put("message", capitalized(action.describe()) + " for " + p.matched() + " waiting task" + (p.matched() == 1 ? "" : "s")
                        + " (" + filter.describe() + ")? Tasks in flight are left alone; it runs in batches and can be resumed if it stops.");
                return out;
            }
            BulkJob job = bulk.start(filter, action, who);
            log.record(who, queue, "bulk-start", job.id() + ": " + action.describe() + " for " + filter.describe(), job.total() + " matched");
            launch(queue, job.id(), who);
            return view(job);
        } catch (NothingMatchedException e) {
            throw ApiException.notFound("filter", e.getMessage());
        } catch (BulkRefusedException e) {
            throw new ApiException(409, "layout", e.getMessage());
        }
    }

    /** POST queues/{q}/bulk/{job}/resume */
    public Map<String, Object> resume(String queue, String jobId, String who) {
        BulkJob job = bulk(queue).job(jobId);
        if (job.finished()) {
            return view(job);
        }
        if (running.contains(jobId)) {
            throw new ApiException(409, "job", "job " + jobId + " is running in this console already");
        }
        log.record(who, queue, "bulk-resume", jobId, job.done() + "/" + job.total() + " done before");
        launch(queue, jobId, who);
        return view(job);
    }

    public Map<String, Object> job(String queue, String jobId) {
        return view(bulk(queue).job(jobId));
    }

    public Map<String, Object> jobs(String queue) {
        List<Map<String, Object>> out = new ArrayList<>();
        bulk(queue).jobs(20).forEach(j -> out.add(view(j)));
        return Map.of("jobs", out);
    }

    private void launch(String queue, String jobId, String who) {
        if (!running.add(jobId)) {
            throw new ApiException(409, "job", "job " + jobId + " is running in this console already");
        }
        BulkActions bulk = bulk(queue);
        runners.execute(() -> {
            try {
                BulkJob end = bulk.run(jobId, BulkRun.defaults());
                log.record(who, queue, "bulk-" + end.status().label(), jobId, end.done() + " of " + end.total() + " done, " + end.skipped() + " skipped");
            } catch (RuntimeException e) {
                log.record(who, queue, "bulk-stopped", jobId, String.valueOf(e.getMessage()));
            } finally {
                running.remove(jobId);
            }
        });
    }

    private Map<String, Object> view(BulkJob j) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", j.id());
        out.put("status", j.status().label());
        out.put("runningHere", running.contains(j.id()));
        out.put("action", j.action().kind().label());
        out.put("actionText", j.action().describe());
        out.put("filterText", j.filter().describe());
        out.put("total", j.total());
        out.put("done", j.done());
        out.put("skipped", j.skipped());
        out.put("shards", j.shards());
        out.put("by", j.by());
        out.put("createdAt", j.createdAt());
        out.put("updatedAt", j.updatedAt());
        out.put("note", j.note());
        return out;
    }

    static BulkFilter filter(JsonNode f) {
        Integer priority = null;
        if (f.hasNonNull("priority") && !f.get("priority").asText().isBlank()) {
            if (!f.get("priority").asText().matches("\\d")) {
                throw ApiException.badRequest("priority", "must be 0, 1 or 2, got '" + f.get("priority").asText() + "'");
            }
            priority = Integer.valueOf(f.get("priority").asText());
        }
        return new BulkFilter(BulkState.parse(text(f, "state")), text(f, "prefix"), TaskViews.instant("from", blankToNull(text(f, "from"))),
                TaskViews.instant("to", blankToNull(text(f, "to"))), blankToNull(text(f, "group")), priority);
    }

    static BulkAction action(JsonNode a) {
        String kind = a.isTextual() ? a.asText() : text(a, "kind");
        if (kind.isBlank()) {
            throw ApiException.badRequest("action", "is required: cancel, reschedule, shift, run-now or dead-letter");
        }
        return switch (BulkAction.Kind.parse(kind)) {
            case CANCEL -> BulkAction.cancel();
            case RUN_NOW -> BulkAction.runNow();
            case DEAD_LETTER -> BulkAction.deadLetter(text(a, "reason"));
            case RESCHEDULE -> BulkAction.reschedule(TaskViews.instant("at", blankToNull(text(a, "at"))));
            case SHIFT -> BulkAction.shift(text(a, "shift"));
        };
    }

    private static String text(JsonNode n, String field) {
        return n.hasNonNull(field) ? n.get(field).asText() : "";
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static String capitalized(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    @Override
    public void close() {
        runners.shutdownNow();
    }
}
