package io.delayq.operator.schedules;

import io.delayq.operator.resource.ScheduleStatusEntry;
import io.delayq.schedule.ScheduleStatus;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The status entries of a DelayQueue's schedules and the earliest next firing, from what Redis holds. */
public final class ScheduleStatuses {
    private ScheduleStatuses() {
    }

    public static List<ScheduleStatusEntry> entries(List<ScheduleStatus> schedules) {
        return schedules.stream().map(ScheduleStatuses::entry).toList();
    }

    public static Optional<Instant> nextFire(List<ScheduleStatus> schedules) {
        return schedules.stream().map(ScheduleStatus::nextFire).filter(Objects::nonNull).min(Comparator.naturalOrder());
    }

    static ScheduleStatusEntry entry(ScheduleStatus s) {
        ScheduleStatusEntry e = new ScheduleStatusEntry();
        e.setName(s.name());
        e.setRevision(s.revision());
        e.setSuspended(s.definition().paused() ? Boolean.TRUE : null);
        e.setNextFireTime(s.nextFire() == null ? null : s.nextFire().toString());
        e.setLastFireTime(s.lastFired() == null ? null : s.lastFired().toString());
        e.setLastTaskId(s.lastTaskId());
        e.setLastOutcome(s.lastOutcome() == ScheduleStatus.Outcome.NONE ? null : s.lastOutcome().wire());
        e.setMissed(s.missed());
        return e;
    }
}
