package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * One recurring task of the queue (docs/schedules.md). The operator writes it to Redis, where the
 * workers plan its occurrences; the cron expression and the zone are checked again there (the schema
 * checks their shape only) and a bad one shows as a Degraded condition naming the schedule.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.start) || !has(self.end) || timestamp(self.end) > timestamp(self.start)",
        message = "spec.schedules[].end must be after spec.schedules[].start")
public class ScheduleSpec {
    /** Five or six fields of cron characters, or a macro; cron-utils checks the rest. */
    public static final String CRON = "^(@(yearly|annually|monthly|weekly|daily|midnight|hourly)|[0-9A-Za-z*/,?#LW-]+(\\s+[0-9A-Za-z*/,?#LW-]+){4,5})$";
    /** An IANA zone name (Europe/Berlin, America/Argentina/Buenos_Aires, UTC, Etc/GMT+5). */
    public static final String TIME_ZONE = "^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$";

    @JsonPropertyDescription("Name of the schedule, unique in the queue (a DNS label); occurrence task ids are sched:<name>:<revision>:<epoch-ms>.")
    @Required
    @Pattern(Patterns.DNS_LABEL)
    @Size(max = 63)
    private String name;

    @JsonPropertyDescription("Cron expression: 5 fields (minute hour day-of-month month day-of-week), 6 (seconds first), or @yearly, @monthly, @weekly, @daily, @hourly.")
    @Required
    @Pattern(CRON)
    @Size(max = 200)
    private String cron;

    @JsonPropertyDescription("IANA time zone the cron expression is read in, e.g. Asia/Shanghai. A time skipped by a DST change fires after the gap, a repeated one fires once (the first).")
    @Default("UTC")
    @Pattern(TIME_ZONE)
    @Size(max = 64)
    private String timeZone = "UTC";

    @JsonPropertyDescription("Payload of every occurrence's task (at most 64 KiB).")
    @Size(max = 65536)
    private String payload;

    @JsonPropertyDescription("Priority of every occurrence's task: 0 normal, 1 high, 2 highest.")
    @Default("0")
    @Min(0)
    @Max(2)
    private int priority;

    @JsonPropertyDescription("No occurrence before this instant (RFC 3339, e.g. 2027-01-01T00:00:00Z).")
    @ValidationRule(value = "self.matches('^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$')",
            message = "spec.schedules[].start must be an RFC 3339 instant such as 2027-01-01T00:00:00Z")
    private String start;

    @JsonPropertyDescription("No occurrence after this instant (RFC 3339).")
    @ValidationRule(value = "self.matches('^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$')",
            message = "spec.schedules[].end must be an RFC 3339 instant such as 2027-12-31T23:59:59Z")
    private String end;

    @JsonPropertyDescription("Occurrences missed while no worker ran (longer than the workers' misfire threshold): fireOnceNow, doNothing or fireAllMissed.")
    @Default("fireOnceNow")
    private ScheduleMisfirePolicy misfirePolicy = ScheduleMisfirePolicy.fireOnceNow;

    @JsonPropertyDescription("With fireAllMissed: at most this many missed occurrences fire (the latest ones).")
    @Default("10")
    @Min(1)
    @Max(1000)
    private int misfireLimit = 10;

    @JsonPropertyDescription("Pause the schedule: its planned occurrences are cancelled; on resume the misfire policy decides about those missed.")
    @Default("false")
    private boolean suspend;

    @JsonPropertyDescription("A business calendar of the queue (delayq calendar put; docs/business-days.md) the occurrences keep to. It must exist in Redis: the operator writes a copy of it into the schedule.")
    @Pattern(Patterns.DNS_LABEL)
    @Size(max = 63)
    private String calendar;

    @JsonPropertyDescription("With calendar: skip (default) drops an occurrence off the calendar's business days, roll fires it once at the start of the next business day.")
    private ScheduleCalendarRule calendarRule;

    public String getCalendar() {
        return calendar;
    }

    public void setCalendar(String calendar) {
        this.calendar = calendar;
    }

    public ScheduleCalendarRule getCalendarRule() {
        return calendarRule;
    }

    public void setCalendarRule(ScheduleCalendarRule calendarRule) {
        this.calendarRule = calendarRule;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getCron() {
        return cron;
    }

    public void setCron(String cron) {
        this.cron = cron;
    }

    public String getTimeZone() {
        return timeZone;
    }

    public void setTimeZone(String timeZone) {
        this.timeZone = timeZone;
    }

    public String getPayload() {
        return payload;
    }

    public void setPayload(String payload) {
        this.payload = payload;
    }

    public int getPriority() {
        return priority;
    }

    public void setPriority(int priority) {
        this.priority = priority;
    }

    public String getStart() {
        return start;
    }

    public void setStart(String start) {
        this.start = start;
    }

    public String getEnd() {
        return end;
    }

    public void setEnd(String end) {
        this.end = end;
    }

    public ScheduleMisfirePolicy getMisfirePolicy() {
        return misfirePolicy;
    }

    public void setMisfirePolicy(ScheduleMisfirePolicy misfirePolicy) {
        this.misfirePolicy = misfirePolicy;
    }

    public int getMisfireLimit() {
        return misfireLimit;
    }

    public void setMisfireLimit(int misfireLimit) {
        this.misfireLimit = misfireLimit;
    }

    public boolean isSuspend() {
        return suspend;
    }

    public void setSuspend(boolean suspend) {
        this.suspend = suspend;
    }
}
