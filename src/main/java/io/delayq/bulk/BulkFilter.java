package io.delayq.bulk;

import io.delayq.InvalidInputException;
import io.delayq.task.TaskGroup;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Which waiting tasks a bulk action takes: by state, id prefix, due window [from, to), group and priority.
 * Every part is optional; a task in flight is never taken.
 *
 * @param from     inclusive, or null
 * @param to       exclusive, or null
 * @param group    one group's tasks only, or null for every task (grouped or not)
 * @param priority 0..2, or null for every level
 */
public record BulkFilter(BulkState state, String prefix, Instant from, Instant to, String group, Integer priority) {
    public static final BulkFilter ALL = new BulkFilter(BulkState.WAITING, "", null, null, null, null);

    public BulkFilter {
        state = state == null ? BulkState.WAITING : state;
        prefix = prefix == null ? "" : prefix;
        group = group == null || group.isEmpty() ? null : group;
        if (prefix.getBytes(StandardCharsets.UTF_8).length > 256) {
            throw new InvalidInputException("prefix", "must be at most 256 bytes (an id is), got " + prefix.getBytes(StandardCharsets.UTF_8).length);
        }
        if (from != null && to != null && !from.isBefore(to)) {
            throw new InvalidInputException("to", "the due window [from, to) must end after it starts, got from " + from + " and to " + to);
        }
        if (group != null) {
            String problem = TaskGroup.problem(group);
            if (problem != null) {
                throw new InvalidInputException("group", problem);
            }
        }
        if (priority != null && (priority < 0 || priority > 2)) {
            throw new InvalidInputException("priority", "must be 0, 1 or 2, got " + priority);
        }
        if (group != null && priority != null && priority != 0) {
            throw new InvalidInputException("priority", "a grouped task always has priority 0, so group '" + group
                    + "' with priority " + priority + " matches nothing");
        }
    }

    public BulkFilter state(BulkState s) {
        return new BulkFilter(s, prefix, from, to, group, priority);
    }

    public BulkFilter prefix(String p) {
        return new BulkFilter(state, p, from, to, group, priority);
    }

    public BulkFilter window(Instant f, Instant t) {
        return new BulkFilter(state, prefix, f, t, group, priority);
    }

    public BulkFilter group(String g) {
        return new BulkFilter(state, prefix, from, to, g, priority);
    }

    public BulkFilter priority(Integer p) {
        return new BulkFilter(state, prefix, from, to, group, p);
    }

    /** ARGV[1..9] of bulk_preview.lua and bulk_apply.lua (include/bulk_scan.lua). */
    List<String> args(long epoch, boolean descending, int budget) {
        List<String> a = new ArrayList<>(9);
        a.add(String.valueOf(epoch));
        a.add(state.wire());
        a.add(prefix);
        a.add(from == null ? "" : String.valueOf(from.toEpochMilli()));
        a.add(to == null ? "" : String.valueOf(to.toEpochMilli()));
        a.add(group == null ? "" : group);
        a.add(priority == null ? "" : String.valueOf(priority));
        a.add(descending ? "desc" : "asc");
        a.add(String.valueOf(budget));
        return a;
    }

    /** "scheduled tasks, id prefix 'order-', due in [from, to), group 'acme', priority 1", or "every waiting task". */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (!prefix.isEmpty()) {
            parts.add("id prefix '" + prefix + "'");
        }
        if (from != null || to != null) {
            parts.add("due in [" + (from == null ? "-inf" : from) + ", " + (to == null ? "+inf" : to) + ")");
        }
        if (group != null) {
            parts.add("group '" + group + "'");
        }
        if (priority != null) {
            parts.add("priority " + priority);
        }
        String what = switch (state) {
            case WAITING -> "waiting tasks";
            case SCHEDULED -> "scheduled tasks (due later)";
            case DUE -> "due tasks (not claimed yet)";
        };
        return parts.isEmpty() ? (state == BulkState.WAITING ? "every waiting task" : what) : what + ", " + String.join(", ", parts);
    }
}
