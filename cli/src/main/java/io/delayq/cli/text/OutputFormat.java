package io.delayq.cli.text;

/** {@code --output text|json}. */
public enum OutputFormat {
    TEXT, JSON
}
