package io.delayq.worker.config;

import io.delayq.InvalidInputException;
import io.delayq.settings.WorkerSettings;

/**
 * What a worker on a protocol-3 queue cannot do yet (docs/protocol3.md, "Left"): a setting asking for it fails the
 * start, naming the setting, instead of being ignored.
 */
public final class BucketedQueueSettings {
    private BucketedQueueSettings() {
    }

    public static void requireSupported(WorkerConfig config) {
        if (config.rateLimit().groupsLimited()) {
            throw refused(WorkerSettings.GROUP_RATE_LIMIT.name(), "group rate limits");
        }
        if (config.groupWeights().any()) {
            throw refused(WorkerSettings.GROUP_WEIGHTS.name(), "groups");
        }
        if (config.groupCaps().any()) {
            throw refused(WorkerSettings.GROUP_MAX_RUNNING.name(), "groups");
        }
    }

    private static InvalidInputException refused(String setting, String what) {
        return new InvalidInputException(setting, "the queue is on protocol 3, which does not offer " + what + " yet; unset it");
    }
}
