package io.delayq.chaos.report;

import java.util.List;
import java.util.Map;

/**
 * One scenario's outcome.
 *
 * @param details  scenario-specific figures (name → value), in display order
 * @param events   the faults as they were injected, with times
 * @param problems broken invariants (empty when the run passed)
 */
public record ScenarioResult(String key, String title, String setup, Figures figures, Map<String, String> details,
                             long totalMillis, List<String> events, List<String> problems) {
    public boolean passed() {
        return problems.isEmpty();
    }
}
