package io.delayq.claim;

import io.delayq.InvalidInputException;
import io.delayq.task.TaskGroup;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads {@code group=number} lists ({@code paying=3,trial=1}) for the settings that give groups a number each (weights,
 * caps of running tasks): every entry a valid group key, a whole number within bounds, no group twice, at most
 * {@code maxGroups} groups. Errors name the field and the rule.
 */
final class GroupNumbers {
    private GroupNumbers() {
    }

    /**
     * @param field   the setting or spec field the text came from
     * @param what    the number's name in messages ("weight", "cap")
     * @param example a valid text, shown when an entry has no '='
     */
    static Map<String, Integer> parse(String field, String text, String what, int min, int max, int maxGroups, String example) {
        Map<String, Integer> numbers = new LinkedHashMap<>();
        for (String entry : text.split(",")) {
            String e = entry.strip();
            int eq = e.indexOf('=');
            if (eq < 0) {
                throw new InvalidInputException(field, "must be group=" + what + " entries separated by commas (e.g. " + example + "), got \"" + e + "\"");
            }
            String group = e.substring(0, eq).strip();
            String problem = TaskGroup.problem(group);
            if (problem != null) {
                throw new InvalidInputException(field, "group " + problem);
            }
            String value = e.substring(eq + 1).strip();
            int n;
            try {
                n = Integer.parseInt(value);
            } catch (NumberFormatException nfe) {
                throw new InvalidInputException(field, what + " of group " + group + " must be a whole number from " + min + " to " + max
                        + ", got \"" + value + "\"");
            }
            if (n < min || n > max) {
                throw new InvalidInputException(field, what + " of group " + group + " must be " + min + " to " + max + ", got " + n);
            }
            if (numbers.put(group, n) != null) {
                throw new InvalidInputException(field, "names group " + group + " twice");
            }
        }
        if (numbers.size() > maxGroups) {
            throw new InvalidInputException(field, "may name at most " + maxGroups + " groups, got " + numbers.size());
        }
        return numbers;
    }
}
