package io.delayq.worker.config;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** What a test's code printed on {@code System.err} (the worker's one-line errors), restored after each test. */
public final class CapturedStderr implements BeforeEachCallback, AfterEachCallback {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream originalErr;

    @Override
    public void beforeEach(ExtensionContext context) {
        err.reset();
        originalErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        System.setErr(originalErr);
    }

    /** The non-blank lines printed so far. */
    public List<String> lines() {
        return err.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
    }
}
