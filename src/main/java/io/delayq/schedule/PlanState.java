package io.delayq.schedule;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The planner's progress on one schedule, in {@code dq:{q}:schedules:state}. Planners change it only
 * by compare-and-set (schedule_advance.lua) against the exact string they read, so two planners never
 * both advance from the same point.
 *
 * @param revision  the definition revision the cursor belongs to
 * @param cursor    every occurrence at or before it is decided (enqueued, or skipped as missed)
 * @param since     every occurrence in [since, cursor] of this revision was enqueued
 * @param last      the latest occurrence fired before {@code since} (carried over skips and edits), or -1
 * @param lastRevision the revision {@code last} belongs to
 * @param missed    occurrences skipped by the misfire policy, over the schedule's life
 * @param late      occurrences enqueued after their instant (planned late, not missed)
 * @param definition the stored definition of {@code revision}: how a later planner finds (and cancels)
 *                   the occurrences it planned once the definition changed
 */
public record PlanState(long revision, long cursor, long since, long last, long lastRevision, long missed, long late,
                        String definition) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public String toJson() {
        ObjectNode o = JSON.createObjectNode();
        o.put("rev", revision);
        o.put("cursor", cursor);
        o.put("since", since);
        o.put("last", last);
        o.put("lastRev", lastRevision);
        o.put("missed", missed);
        o.put("late", late);
        o.put("def", definition);
        return o.toString();
    }

    public static PlanState parse(String json) {
        try {
            JsonNode o = JSON.readTree(json);
            return new PlanState(o.get("rev").asLong(), o.get("cursor").asLong(), o.get("since").asLong(), o.get("last").asLong(),
                    o.get("lastRev").asLong(), o.get("missed").asLong(), o.get("late").asLong(), o.get("def").asText());
        } catch (JsonProcessingException | NullPointerException e) {
            throw new IllegalStateException("malformed schedule state in Redis: " + json, e);
        }
    }

    public StoredSchedule stored() {
        return StoredSchedule.parse(definition);
    }

    /** The latest occurrence at or before {@code at} that fired, as an id; null when none did. */
    public OccurrenceId lastFired(long at) {
        StoredSchedule s = stored();
        long bound = Math.min(at, cursor);
        if (bound >= since) {
            var p = s.definition().times().previous(java.time.Instant.ofEpochMilli(bound));
            if (p.isPresent() && p.get().toEpochMilli() >= since) {
                return s.occurrence(p.get().toEpochMilli());
            }
        }
        return last < 0 ? null : new OccurrenceId(s.definition().name(), lastRevision, last);
    }
}
