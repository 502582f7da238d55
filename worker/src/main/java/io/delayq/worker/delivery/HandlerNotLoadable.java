package io.delayq.worker.delivery;

import io.delayq.settings.ConfigException;

/**
 * No handler could be loaded: none found, the named class missing or broken, a handler jar unreadable. The
 * message names the variable, the class and every place the worker looked; the worker exits 2 on it.
 */
public class HandlerNotLoadable extends ConfigException {
    public HandlerNotLoadable(String variable, String rule) {
        super(variable, rule);
    }
}
