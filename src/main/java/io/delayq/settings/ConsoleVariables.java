package io.delayq.settings;

import java.util.List;

/**
 * The web console's own {@code DELAYQ_CONSOLE_*} variables, with their defaults and bounds, as {@link WorkerSettings}
 * holds the worker's. The console reads its Redis connection by the worker's names ({@link WorkerSettings#REDIS_URL},
 * {@link WorkerSettings#REDIS_USERNAME}, {@link WorkerSettings#REDIS_PASSWORD}). Named apart from the console's
 * {@code ConsoleSettings}, the configuration it resolves from these.
 */
public final class ConsoleVariables {
    public static final int DEFAULT_PORT = 8090;
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_MAX_QUEUES = 500;

    /** The address it binds to, {@link #DEFAULT_HOST} by default. */
    public static final Setting.Text HOST = new Setting.Text("DELAYQ_CONSOLE_HOST");
    /** 0 = a free port. */
    public static final Setting.Whole PORT = new Setting.Whole("DELAYQ_CONSOLE_PORT", DEFAULT_PORT, 0, 65535);
    /** The action token; unset: read-only. */
    public static final Setting.Text TOKEN = new Setting.Text("DELAYQ_CONSOLE_TOKEN");
    /** Comma-separated queue names to show; unset: every queue a {@code SCAN} finds. */
    public static final Setting.Text QUEUES = new Setting.Text("DELAYQ_CONSOLE_QUEUES");
    /** Most queues a {@code SCAN} lists. */
    public static final Setting.Whole MAX_QUEUES = new Setting.Whole("DELAYQ_CONSOLE_MAX_QUEUES", DEFAULT_MAX_QUEUES, 1, 100_000);
    /** Comma-separated {@code Host} header values it answers to. */
    public static final Setting.Text ALLOWED_HOSTS = new Setting.Text("DELAYQ_CONSOLE_ALLOWED_HOSTS");
    /** The path everything is served under; {@code /} by default. */
    public static final Setting.Text PATH = new Setting.Text("DELAYQ_CONSOLE_PATH");
    /** How often the rolling history samples each queue. */
    public static final Setting.Span SAMPLE_EVERY = Setting.Span.of("DELAYQ_CONSOLE_SAMPLE_EVERY", "10s", "100ms", "1d");
    /** How much history it keeps; at least {@link #SAMPLE_EVERY} (checked by the console). */
    public static final Setting.Span HISTORY = Setting.Span.of("DELAYQ_CONSOLE_HISTORY", "1h", "100ms", "30d");
    /** A trace viewer's page of one trace, with {@code {traceId}} where the id goes. */
    public static final Setting.Text TRACE_URL = new Setting.Text("DELAYQ_CONSOLE_TRACE_URL");

    /** Every console variable, in the order of the documentation. */
    public static final List<Setting> ALL = List.of(TOKEN, HOST, PORT, QUEUES, MAX_QUEUES, ALLOWED_HOSTS, PATH, SAMPLE_EVERY, HISTORY, TRACE_URL);

    private ConsoleVariables() {
    }
}
