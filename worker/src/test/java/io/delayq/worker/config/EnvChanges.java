package io.delayq.worker.config;

import java.util.Map;

/** Changes a test's environment by name/value pairs, the way the config tests write them. */
public final class EnvChanges {
    private EnvChanges() {
    }

    /** Puts each pair into {@code env}; a null value removes the variable. Answers {@code env}. */
    public static Map<String, String> apply(Map<String, String> env, String... pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] == null) {
                env.remove(pairs[i]);
            } else {
                env.put(pairs[i], pairs[i + 1]);
            }
        }
        return env;
    }
}
