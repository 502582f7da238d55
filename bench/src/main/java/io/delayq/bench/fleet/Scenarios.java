package io.delayq.bench.fleet;

import java.time.Instant;
import java.util.List;

/** The loads the forecast is compared on, all around one midnight. */
public final class Scenarios {
    public static final long MIDNIGHT = Instant.parse("2030-01-01T00:00:00Z").toEpochMilli();
    private static final long MINUTE = 60_000;
    private static final long HOUR = 60 * MINUTE;
    /** The midnight spike's tasks, all due at 00:00:00. */
    public static final int SPIKE = 500_000;
    /** The bursty day's burst that falls due at one instant. */
    public static final int INSTANT_BURST = 30_000;

    private Scenarios() {
    }

    public static List<Scenario> all() {
        return List.of(midnightSpike(), burstyDay(), quietThenOne());
    }

    /** 500,000 tasks due at 00:00:00 on top of a steady 200/s, from 23:40 to 00:20. */
    public static Scenario midnightSpike() {
        DueTimes tasks = new LoadShape(MIDNIGHT).steady(-20 * MINUTE, 20 * MINUTE, 200).burst(0, SPIKE, 0).build();
        return new Scenario("midnight spike", "500,000 due at 00:00:00 on a steady 200/s (23:40–00:20)", MIDNIGHT - 20 * MINUTE,
                MIDNIGHT + 30 * MINUTE, tasks, 1, 50);
    }

    /**
     * Six hours at 2/s with four bursts, each above one replica's throughput: at once, and over one, five and fifteen
     * minutes (due rates of 5,000, 3,333 and 2,222/s).
     */
    public static Scenario burstyDay() {
        DueTimes tasks = new LoadShape(MIDNIGHT).steady(0, 6 * HOUR, 2)
                .burst(HOUR, INSTANT_BURST, 0)
                .burst(2 * HOUR, 300_000, MINUTE)
                .burst(3 * HOUR + 30 * MINUTE, 1_000_000, 5 * MINUTE)
                .burst(5 * HOUR, 2_000_000, 15 * MINUTE)
                .build();
        return new Scenario("bursty day", "6 h at 2/s; bursts of 30,000 at once (1 h), 300,000 over 1 min (2 h), 1,000,000 over 5 min "
                + "(3 h 30), 2,000,000 over 15 min (5 h)", MIDNIGHT - 10 * MINUTE, MIDNIGHT + 6 * HOUR + 10 * MINUTE, tasks, 1, 50);
    }

    /** Nothing for two hours, then one task: a fleet allowed to scale to zero has to wake for it. */
    public static Scenario quietThenOne() {
        DueTimes tasks = new LoadShape(MIDNIGHT).burst(2 * HOUR, 1, 0).build();
        return new Scenario("long quiet, then one task", "1 task due at 02:00, nothing before", MIDNIGHT, MIDNIGHT + 2 * HOUR + 10 * MINUTE, tasks, 0, 50);
    }

    /**
     * The validation's small load, placed at {@code origin}: 10/s for 80 s and 3,000 tasks due at once 40 s in; the run
     * ends at 90 s.
     */
    public static Scenario smallWave(long origin) {
        DueTimes tasks = new LoadShape(origin).steady(0, 80_000, 10).burst(40_000, 3_000, 0).build();
        return new Scenario("small wave", "10/s for 80 s, 3,000 due at once at 40 s", origin, origin + 90_000, tasks, 1, 8);
    }
}
