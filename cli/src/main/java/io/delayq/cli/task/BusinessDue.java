package io.delayq.cli.task;

import io.delayq.InvalidInputException;
import io.delayq.calendar.BusinessCalendar;
import io.delayq.calendar.BusinessTime;
import io.delayq.calendar.Calendars;
import io.delayq.cli.QueueConnection;
import io.delayq.task.Schedule;
import io.delayq.task.TaskSpec;
import picocli.CommandLine.Option;

import java.time.Instant;
import java.time.LocalTime;

/** {@code --calendar NAME} with {@code --business-days N --time HH:MM}, or with {@code --at T --roll-forward}. */
public class BusinessDue {
    @Option(names = "--calendar", paramLabel = "NAME", description = "A business calendar of the queue ('delayq calendar list'): "
            + "with --business-days and --time, or with --at and --roll-forward.")
    String calendar;

    @Option(names = "--time", paramLabel = "HH:MM", description = "With --business-days: the local time (in the calendar's zone) the task is due.")
    String time;

    @Option(names = "--roll-forward", description = "With --at and --calendar: a time that is not on a business day moves to the start of the next one.")
    boolean rollForward;

    private LocalTime localTime;

    void validate(DueTime due) {
        if (due.businessDays != null) {
            if (calendar == null) {
                throw new InvalidInputException("calendar", "--business-days needs --calendar");
            }
            if (time == null) {
                throw new InvalidInputException("time", "--business-days needs --time HH:MM");
            }
            if (due.businessDays < 0 || due.businessDays > BusinessTime.MAX_BUSINESS_DAYS) {
                throw new InvalidInputException("businessDays", "must be 0 to " + BusinessTime.MAX_BUSINESS_DAYS + ", got " + due.businessDays);
            }
            localTime = BusinessTime.time(time);
        } else if (time != null) {
            throw new InvalidInputException("time", "needs --business-days");
        }
        if (rollForward && (due.at == null || calendar == null)) {
            throw new InvalidInputException("rollForward", "needs --at and --calendar");
        }
        if (calendar != null && due.businessDays == null && !rollForward) {
            throw new InvalidInputException("calendar", "needs --business-days or --roll-forward");
        }
        if (calendar != null) {
            BusinessCalendar.requireName(calendar);
        }
    }

    /** The task with its due time computed on the calendar (read from Redis; now = the Redis clock), or as it is. */
    TaskSpec apply(TaskSpec task, DueTime due, QueueConnection queue) {
        if (calendar == null) {
            return task;
        }
        BusinessCalendar cal = Calendars.of(queue.client()).require(calendar);
        Instant at = due.businessDays != null
                ? BusinessTime.afterBusinessDays(cal, Instant.ofEpochMilli(queue.serverNow()), due.businessDays, localTime)
                : BusinessTime.rollForward(cal, due.at);
        return new TaskSpec(task.id(), Schedule.at(at), task.payload(), task.priority(), task.options());
    }
}
