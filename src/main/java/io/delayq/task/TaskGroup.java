package io.delayq.task;

import io.delayq.InvalidInputException;

import java.nio.charset.StandardCharsets;

/**
 * The group key of a task (protocol.md, "Groups"): the tenant, customer or destination whose tasks are
 * claimed fairly against other groups' and may have a rate limit of their own. It becomes part of Redis
 * key names ({@code dq:{q:i}:group:<group>}), so it is kept short and plain: 1 to {@value #MAX_BYTES}
 * ASCII letters, digits and {@code - _ . : @ /}. The Lua side applies the same rule (include/groups.lua).
 */
public final class TaskGroup {
    public static final int MAX_BYTES = 64;

    private TaskGroup() {
    }

    /** Null when {@code group} is a valid group key (or null: no group), else what is wrong with it. */
    public static String problem(String group) {
        if (group == null) {
            return null;
        }
        int bytes = group.getBytes(StandardCharsets.UTF_8).length;
        if (bytes == 0) {
            return "must be 1 to " + MAX_BYTES + " characters (ASCII letters, digits and - _ . : @ /), got an empty string";
        }
        if (bytes > MAX_BYTES) {
            return "must be at most " + MAX_BYTES + " bytes, got " + bytes + " (" + shown(group) + ")";
        }
        for (int i = 0; i < group.length(); i++) {
            char c = group.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || c == '.' || c == ':' || c == '@' || c == '/';
            if (!ok) {
                return "may hold only ASCII letters, digits and - _ . : @ /, got " + describe(c) + " at offset " + i
                        + " of " + shown(group);
            }
        }
        return null;
    }

    /** {@code group} when valid (or null), else {@link InvalidInputException} naming the field {@code group}. */
    public static String require(String group) {
        String problem = problem(group);
        if (problem != null) {
            throw new InvalidInputException("group", problem);
        }
        return group;
    }

    private static String describe(char c) {
        return c < 0x20 || c > 0x7e ? String.format("U+%04X", (int) c) : "'" + c + "'";
    }

    private static String shown(String group) {
        return '"' + (group.length() > 40 ? group.substring(0, 40) + "..." : group) + '"';
    }
}
