package io.delayq.interop;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The driver operations, as JSON-ready maps (see drivers/driver.py for the shapes). */
final class Ops {
    private Ops() {
    }

    /** A task: id plus any of delayMs, dueAt (epoch ms), payload, priority. */
    static Map<String, Object> task(String id, Object... fields) {
        Map<String, Object> t = new HashMap<>();
        t.put("id", id);
        for (int i = 0; i < fields.length; i += 2) {
            t.put((String) fields[i], fields[i + 1]);
        }
        return t;
    }

    static Map<String, Object> enqueue(String policy, List<Map<String, Object>> tasks) {
        return Map.of("op", "enqueue", "onDuplicate", policy, "tasks", tasks);
    }

    @SafeVarargs
    static Map<String, Object> enqueue(Map<String, Object>... tasks) {
        return enqueue("reject", List.of(tasks));
    }

    static Map<String, Object> op(String op, Object... fields) {
        Map<String, Object> m = new HashMap<>();
        m.put("op", op);
        for (int i = 0; i < fields.length; i += 2) {
            m.put((String) fields[i], fields[i + 1]);
        }
        return m;
    }
}
