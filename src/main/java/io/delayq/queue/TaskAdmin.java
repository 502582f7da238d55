package io.delayq.queue;

import io.delayq.completion.CompletionRecord;
import io.delayq.deadletter.DeadLetter;
import io.delayq.deadletter.DeadLetterPage;
import io.delayq.script.LuaScript;
import io.delayq.task.CancelResult;
import io.delayq.task.RescheduleResult;
import io.delayq.task.Schedule;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

import static io.delayq.redis.Replies.asLong;

/**
 * The scripts that act on one task by id (cancel, reschedule, inspect) and on a shard's dead letters (page,
 * replay, purge): what the client's and the console's admin actions call, never the hot path.
 */
public final class TaskAdmin {
    private final QueueScope scope;

    public TaskAdmin(QueueScope scope) {
        this.scope = scope;
    }

    /** What a shard answered for one id: the value, or that the shard does not hold it, or that it is being moved. */
    public record Found<T>(T value, boolean unknown, boolean moving) {
    }

    /** The cancel script on one shard under the caller's layout epoch. */
    public CompletionStage<Found<CancelResult>> cancelAt(int shard, String id, long epoch) {
        if (scope.buckets() != null) {
            return scope.buckets().cancel(shard, id, epoch).thenApply(c -> switch (c) {
                case CANCELLED -> new Found<>(CancelResult.CANCELLED, false, false);
                case INFLIGHT -> new Found<>(CancelResult.IN_FLIGHT, false, false);
                case MOVING -> new Found<>(CancelResult.UNKNOWN, false, true);
                case ABSENT -> new Found<>(CancelResult.UNKNOWN, true, false);
            });
        }
        return scope.scripts().<String>run(LuaScript.CANCEL, scope.keys(shard).scriptKeys(), List.of(id, String.valueOf(epoch))).thenApply(reply -> switch (reply) {
            case "cancelled" -> new Found<>(CancelResult.CANCELLED, false, false);
            case "inflight" -> new Found<>(CancelResult.IN_FLIGHT, false, false);
            case "moving" -> new Found<>(CancelResult.UNKNOWN, false, true);
            default -> new Found<>(CancelResult.UNKNOWN, true, false);
        });
    }

    public CompletionStage<Found<RescheduleResult>> rescheduleAt(int shard, String id, Schedule schedule, long epoch) {
        if (scope.buckets() != null) {
            return scope.buckets().reschedule(shard, id, schedule, epoch).thenApply(TaskAdmin::rescheduled);
        }
        return scope.scripts().<List<Object>>run(LuaScript.RESCHEDULE, scope.keys(shard).scriptKeys(),
                List.of(id, schedule.timing().wire(), String.valueOf(schedule.millis()), String.valueOf(epoch))).thenApply(TaskAdmin::rescheduled);
    }

    /** reschedule.lua's answer (protocol 3's has the same shape). */
    private static Found<RescheduleResult> rescheduled(List<Object> reply) {
        String wire = (String) reply.get(0);
        RescheduleResult.Status status = switch (wire) {
            case "rescheduled" -> RescheduleResult.Status.RESCHEDULED;
            case "inflight" -> RescheduleResult.Status.IN_FLIGHT;
            case "dead" -> RescheduleResult.Status.DEAD;
            default -> RescheduleResult.Status.UNKNOWN;
        };
        return new Found<>(new RescheduleResult(status, asLong(reply.get(1))), wire.equals("unknown"), wire.equals("moving"));
    }

    public CompletionStage<Found<TaskInfo>> inspectAt(int shard, String id, long epoch) {
        if (scope.buckets() != null) {
            return scope.buckets().inspect(shard, id, epoch).thenApply(reply -> inspected(id, shard, reply));
        }
        return scope.scripts().<List<Object>>run(LuaScript.INSPECT, scope.keys(shard).scriptKeys(), List.of(id, String.valueOf(epoch)))
                .thenApply(reply -> inspected(id, shard, reply));
    }

    /** inspect.lua's answer (protocol 3's has the same first seven fields). */
    private static Found<TaskInfo> inspected(String id, int shard, List<Object> reply) {
        String wire = (String) reply.get(1);
        TaskInfo.State state = switch (wire) {
            case "scheduled" -> TaskInfo.State.SCHEDULED;
            case "inflight" -> TaskInfo.State.IN_FLIGHT;
            case "dead" -> TaskInfo.State.DEAD;
            case "succeeded" -> TaskInfo.State.SUCCEEDED;
            default -> TaskInfo.State.UNKNOWN;
        };
        return new Found<>(new TaskInfo(id, shard, state, asLong(reply.get(2)), (int) asLong(reply.get(3)), (int) asLong(reply.get(4)),
                (String) reply.get(5), (String) reply.get(6), asLong(reply.get(0)),
                reply.size() > 7 ? TaskProgress.parse((String) reply.get(7)) : null,
                reply.size() > 8 ? CompletionRecord.parse((String) reply.get(8)) : null), wire.equals("unknown"), wire.equals("moving"));
    }

    public CompletionStage<DeadLetterPage> deadLetters(int shard, long offset, int limit) {
        CompletionStage<List<Object>> page = scope.buckets() != null
                ? scope.buckets().deadLetters(shard, offset, limit)
                : scope.scripts().run(LuaScript.DEAD_LIST, scope.keys(shard).scriptKeys(), List.of(String.valueOf(offset), String.valueOf(limit)));
        return page.thenApply(reply -> {
            List<DeadLetter> entries = new ArrayList<>();
            for (int at = 1; at + 4 < reply.size() + 1 && at < reply.size(); at += 5) {
                entries.add(new DeadLetter(shard, (String) reply.get(at), asLong(reply.get(at + 1)),
                        (int) asLong(reply.get(at + 2)), (String) reply.get(at + 3), (String) reply.get(at + 4)));
            }
            return new DeadLetterPage(shard, asLong(reply.get(0)), entries);
        });
    }

    public CompletionStage<Long> replayDead(int shard, List<String> ids) {
        if (scope.buckets() != null) {
            return scope.buckets().replayDead(shard, ids);
        }
        return scope.scripts().run(LuaScript.DEAD_REPLAY, scope.keys(shard).scriptKeys(), ids);
    }

    public CompletionStage<Long> purgeDead(int shard, List<String> ids) {
        if (scope.buckets() != null) {
            return scope.buckets().purgeDead(shard, ids);
        }
        return scope.scripts().run(LuaScript.DEAD_PURGE, scope.keys(shard).scriptKeys(), ids);
    }
}
