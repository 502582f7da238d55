package io.delayq.settings;

import io.delayq.DurationText;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Predicate;

/**
 * The worker's configuration values by variable name: the environment, over an optional properties file
 * named by {@code DELAYQ_CONFIG_FILE} (same keys). Typed getters validate and name the variable
 * and the rule in their errors.
 */
public final class Settings {
    private final Map<String, String> values;

    private Settings(Map<String, String> values) {
        this.values = values;
    }

    public static Settings from(Map<String, String> env) {
        Map<String, String> merged = new HashMap<>();
        String file = env.get(WorkerSettings.CONFIG_FILE.name());
        if (file != null && !file.isBlank()) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(Path.of(file))) {
                p.load(r);
            } catch (IOException e) {
                throw new ConfigException(WorkerSettings.CONFIG_FILE.name(), "must name a readable properties file, cannot read " + file + ": " + e.getMessage());
            }
            p.forEach((k, v) -> merged.put(k.toString(), v.toString()));
        }
        putVariables(env, merged);
        return new Settings(merged);
    }

    /** The environment's variables alone, for a process that reads no {@code DELAYQ_CONFIG_FILE} (the console). */
    public static Settings fromEnvironmentOnly(Map<String, String> env) {
        Map<String, String> values = new HashMap<>();
        putVariables(env, values);
        return new Settings(values);
    }

    private static void putVariables(Map<String, String> env, Map<String, String> into) {
        env.forEach((k, v) -> {
            // an empty variable (a template that left it unset) does not hide the file's value
            if (WorkerSettings.isDelayqVariable(k) && v != null && !v.isBlank()) {
                into.put(k, v);
            }
        });
    }

    public String string(Setting.Text setting) {
        return string(setting.name(), null);
    }

    public long get(Setting.Whole setting) {
        return longValue(setting.name(), setting.fallback(), setting.min(), setting.max());
    }

    public int getInt(Setting.Whole setting) {
        return integer(setting.name(), setting.intFallback(), (int) setting.min(), (int) Math.min(Integer.MAX_VALUE, setting.max()));
    }

    public double get(Setting.Decimal setting) {
        return decimal(setting.name(), setting.fallback(), setting.min(), setting.max());
    }

    public Duration get(Setting.Span setting) {
        return duration(setting.name(), setting.fallback(), setting.min(), setting.max());
    }

    /** Whether the variable (or the file's key) is set to a non-blank value. */
    public boolean has(Setting setting) {
        return string(setting.name(), null) != null;
    }

    public String string(String name, String fallback) {
        String v = values.get(name);
        return v == null || v.isBlank() ? fallback : v.trim();
    }

    public String required(String name, String hint) {
        String v = string(name, null);
        if (v == null) {
            throw new ConfigException(name, "is required (" + hint + ")");
        }
        return v;
    }

    public int integer(String name, int fallback, int min, int max) {
        return (int) longValue(name, fallback, min, max);
    }

    public long longValue(String name, long fallback, long min, long max) {
        String v = string(name, null);
        if (v == null) {
            return fallback;
        }
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new ConfigException(name, "must be a whole number, got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new ConfigException(name, "must be between " + min + " and " + max + ", got " + n);
        }
        return n;
    }

    public double decimal(String name, double fallback, double min, double max) {
        String v = string(name, null);
        if (v == null) {
            return fallback;
        }
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new ConfigException(name, "must be a number, got '" + v + "'");
        }
        if (Double.isNaN(d) || d < min || d > max) {
            throw new ConfigException(name, "must be between " + min + " and " + max + ", got " + v);
        }
        return d;
    }

    public Duration duration(String name, Duration fallback, Duration min, Duration max) {
        String v = string(name, null);
        if (v == null) {
            return fallback;
        }
        Duration d = DurationText.parse(v);
        if (d == null) {
            throw new ConfigException(name, "must be a duration like 500ms, 30s, 5m, 2h, 14d or PT30S, got '" + v + "'");
        }
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw new ConfigException(name, "must be between " + DurationText.format(min) + " and " + DurationText.format(max) + ", got " + v);
        }
        return d;
    }

    public <E extends Enum<E>> E choice(String name, Class<E> type, E fallback) {
        String v = string(name, null);
        if (v == null) {
            return fallback;
        }
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(v)) {
                return e;
            }
        }
        StringBuilder allowed = new StringBuilder();
        for (E e : type.getEnumConstants()) {
            allowed.append(allowed.length() == 0 ? "" : ", ").append(e.name().toLowerCase());
        }
        throw new ConfigException(name, "must be one of " + allowed + ", got '" + v + "'");
    }

    public String check(String name, String value, Predicate<String> rule, String ruleText) {
        if (value != null && !rule.test(value)) {
            throw new ConfigException(name, ruleText + ", got '" + value + "'");
        }
        return value;
    }
}
