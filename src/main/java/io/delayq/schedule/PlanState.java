package io.delayq.schedule;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

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
 * @param owed      occurrence instants (of this revision) the planner that wrote this state decided to
 *                  fire at once and may not have enqueued yet: whoever reads the state enqueues them
 *                  ({@link io.delayq.task.DuplicatePolicy#ONCE}, so a second enqueue is harmless) and
 *                  clears the list; empty in a settled state
 * @param owedAt    when {@code owed} was written (epoch ms), 0 when empty
 */
public record PlanState(long revision, long cursor, long since, long last, long lastRevision, long missed, long late,
                        String definition, List<Long> owed, long owedAt) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public PlanState {
        owed = List.copyOf(owed);
    }

    /** A settled state (nothing owed). */
    public PlanState(long revision, long cursor, long since, long last, long lastRevision, long missed, long late, String definition) {
        this(revision, cursor, since, last, lastRevision, missed, late, definition, List.of(), 0);
    }

    /** This state owing the given instants, recorded at {@code at}. */
    public PlanState owing(List<Long> instants, long at) {
        return new PlanState(revision, cursor, since, last, lastRevision, missed, late, definition, instants, instants.isEmpty() ? 0 : at);
    }

    /** This state with its owed occurrences paid (or dropped: {@code dropped} of them count as missed). */
    public PlanState settled(long dropped) {
        return new PlanState(revision, cursor, since, last, lastRevision, missed + dropped, late, definition, List.of(), 0);
    }

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
        if (!owed.isEmpty()) {
            // absent when settled: states written before owed existed read as settled
            ArrayNode a = o.putArray("owed");
            owed.forEach(a::add);
            o.put("owedAt", owedAt);
        }
        return o.toString();
    }

    public static PlanState parse(String json) {
        try {
            JsonNode o = JSON.readTree(json);
            List<Long> owed = new ArrayList<>();
            if (o.has("owed")) {
                o.get("owed").forEach(n -> owed.add(n.asLong()));
            }
            return new PlanState(o.get("rev").asLong(), o.get("cursor").asLong(), o.get("since").asLong(), o.get("last").asLong(),
                    o.get("lastRev").asLong(), o.get("missed").asLong(), o.get("late").asLong(), o.get("def").asText(), owed,
                    o.path("owedAt").asLong(0));
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
