package io.delayq.calendar;

import io.delayq.InvalidInputException;
import io.delayq.client.DelayQueueClient;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.schedule.ScheduleCalendars;
import io.delayq.schedule.ScheduleStore;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The business calendars of one queue, in {@code dq:{q}:calendars} (HASH name → canonical JSON):
 * <pre>
 * Calendars cals = Calendars.of(client);
 * cals.put(BusinessCalendar.weekdays("payouts", "Europe/Berlin").holidays(List.of(LocalDate.parse("2026-12-25"))));
 * client.enqueue(TaskSpec.of("payout-17").at(cals.afterBusinessDays("payouts", 3, LocalTime.of(10, 0))));
 * </pre>
 * "Now" is the Redis server's clock, as for delays.
 */
public final class Calendars {
    private final RedisEndpoint redis;
    private final String queue;
    private final String key;
    private final Duration timeout;

    public Calendars(RedisEndpoint redis, String queue, Duration timeout) {
        this.redis = redis;
        this.queue = queue;
        this.key = key(queue);
        this.timeout = timeout;
    }

    public static Calendars of(DelayQueueClient client) {
        return new Calendars(client.redis(), client.protocol().queue(), client.timeout());
    }

    /** HASH name → canonical calendar JSON, in the slot of the queue's own hash tag. */
    public static String key(String queue) {
        return "dq:{" + queue + "}:calendars";
    }

    /**
     * Creates or replaces a calendar; true when it was new. The schedules that keep to it get the new copy
     * ({@link ScheduleCalendars}): their occurrences not fired yet are planned again on the new days.
     */
    public boolean put(BusinessCalendar calendar) {
        boolean created = Replies.await(redis.commands().hset(key, calendar.name(), calendar.toJson()), timeout);
        new ScheduleCalendars(new ScheduleStore(redis, queue, timeout)).refresh(calendar);
        return created;
    }

    public Optional<BusinessCalendar> get(String name) {
        String json = Replies.await(redis.commands().hget(key, BusinessCalendar.requireName(name)), timeout);
        return Optional.ofNullable(json).map(BusinessCalendar::fromJson);
    }

    /** The named calendar, or a clear error when the queue has none of that name. */
    public BusinessCalendar require(String name) {
        return get(name).orElseThrow(() -> new InvalidInputException("calendar", "no calendar named \"" + name + "\" in " + key));
    }

    /** The calendars of the given names that exist. */
    public Map<String, BusinessCalendar> get(Collection<String> names) {
        Map<String, BusinessCalendar> out = new HashMap<>();
        if (names.isEmpty()) {
            return out;
        }
        Replies.await(redis.commands().hmget(key, names.toArray(String[]::new)), timeout).forEach(kv -> {
            if (kv.hasValue()) {
                out.put(kv.getKey(), BusinessCalendar.fromJson(kv.getValue()));
            }
        });
        return out;
    }

    /** Every calendar, by name. */
    public List<BusinessCalendar> list() {
        Map<String, String> all = new TreeMap<>(Replies.await(redis.commands().hgetall(key), timeout));
        List<BusinessCalendar> out = new ArrayList<>(all.size());
        all.values().forEach(json -> out.add(BusinessCalendar.fromJson(json)));
        return out;
    }

    public boolean delete(String name) {
        return Replies.await(redis.commands().hdel(key, BusinessCalendar.requireName(name)), timeout) == 1;
    }

    /** At {@code time} on the {@code days}-th business day from now (Redis' clock), as {@link BusinessTime#afterBusinessDays}. */
    public Instant afterBusinessDays(String calendar, int days, LocalTime time) {
        return BusinessTime.afterBusinessDays(require(calendar), serverNow(), days, time);
    }

    /** {@code at}, or the start of the next business day when {@code at} is not on one. */
    public Instant rollForward(String calendar, Instant at) {
        return BusinessTime.rollForward(require(calendar), at);
    }

    private Instant serverNow() {
        return Instant.ofEpochMilli(Replies.millisOf(Replies.await(redis.commands().time(), timeout)));
    }
}
