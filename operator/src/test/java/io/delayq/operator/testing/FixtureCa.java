package io.delayq.operator.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** A real CA certificate (its public part only, checked in), for tests that need a PEM but no TLS server. */
public final class FixtureCa {
    private FixtureCa() {
    }

    public static String pem() {
        try (InputStream in = FixtureCa.class.getResourceAsStream("/tls/fixture-ca.crt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
