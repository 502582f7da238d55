package io.delayq.chaos.scenario;

import io.delayq.chaos.ChaosContext;
import io.delayq.chaos.report.ScenarioResult;

/** One chaos experiment: sets up its Redis and workers, injects its faults, measures, cleans up. */
public interface Scenario {
    String key();

    ScenarioResult run(ChaosContext ctx) throws Exception;
}
