package io.delayq.console.actions;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The two answers of every confirm-then-act action: what it would do (unconfirmed), and what it did. */
public final class ActionAnswer {
    private ActionAnswer() {
    }

    public static Map<String, Object> preview(String action, String message, long count, List<String> sample) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("action", action);
        out.put("confirmed", false);
        out.put("message", message);
        out.put("count", count);
        out.put("sample", sample);
        return out;
    }

    public static Map<String, Object> done(String action, String message, long touched) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("action", action);
        out.put("confirmed", true);
        out.put("message", message);
        out.put("touched", touched);
        return out;
    }
}
