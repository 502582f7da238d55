package io.delayq.cli;

import java.time.ZoneId;
import java.util.Map;

/**
 * What the commands read from outside the command line: environment variables (defaults of
 * --redis, --queue, --shards), the local time zone for printed times, and whether the output is a
 * terminal (for {@code top}'s screen refresh). Tests pass their own.
 */
public record CliEnvironment(Map<String, String> variables, ZoneId zone, boolean terminal) {

    public CliEnvironment {
        variables = Map.copyOf(variables);
    }

    public static CliEnvironment system() {
        return new CliEnvironment(System.getenv(), ZoneId.systemDefault(), System.console() != null);
    }

    /** The first of the named variables that is set and not blank, or null. */
    public String first(String... names) {
        for (String n : names) {
            String v = variables.get(n);
            if (v != null && !v.isBlank()) {
                return v.trim();
            }
        }
        return null;
    }
}
