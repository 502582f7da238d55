package io.delayq.kube;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Secrets (and keys) a DelayQueue spec names, with values a test can use: the Redis password where asked. */
final class SecretsNamed {
    private SecretsNamed() {
    }

    @SuppressWarnings("unchecked")
    static Map<String, Map<String, String>> in(Object spec, String redisPassword) {
        Map<String, Map<String, String>> secrets = new LinkedHashMap<>();
        walk(spec, null, secrets, redisPassword);
        return secrets;
    }

    @SuppressWarnings("unchecked")
    private static void walk(Object node, String field, Map<String, Map<String, String>> out, String password) {
        if (node instanceof Map<?, ?> map) {
            Map<String, Object> m = (Map<String, Object>) map;
            if ("credentialsSecret".equals(field)) {
                Map<String, String> data = out.computeIfAbsent((String) m.get("name"), k -> new LinkedHashMap<>());
                data.put((String) m.getOrDefault("passwordKey", "password"), password);
                if (m.get("usernameKey") != null) {
                    data.put((String) m.get("usernameKey"), "default");
                }
            } else if (m.get("name") instanceof String name && m.get("key") instanceof String key
                    && ("secretKeyRef".equals(field) || "signingSecret".equals(field))) {
                out.computeIfAbsent(name, k -> new LinkedHashMap<>()).put(key, "test-value-for-" + key);
            }
            m.forEach((k, v) -> walk(v, k, out, password));
        } else if (node instanceof List<?> list) {
            list.forEach(v -> walk(v, field, out, password));
        }
    }
}
