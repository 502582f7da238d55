package io.delayq.settings;

import io.delayq.InvalidInputException;

/** A configuration value broke a rule; the message names the variable. The worker exits on it. */
public class ConfigException extends InvalidInputException {
    public ConfigException(String variable, String rule) {
        super(variable, rule);
    }
}
