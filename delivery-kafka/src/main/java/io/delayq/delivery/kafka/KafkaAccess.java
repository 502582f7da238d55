package io.delayq.delivery.kafka;

import io.delayq.settings.ConfigException;
import io.delayq.settings.Settings;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.clients.CommonClientConfigs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.delayq.settings.WorkerSettings.*;

/**
 * How the producer reaches the brokers: TLS (a CA file, optionally a client certificate and key) and SASL
 * (PLAIN or SCRAM with a user name and password). Files are read when the worker reads its configuration, so a
 * missing or unreadable one is a configuration error naming its variable.
 */
public record KafkaAccess(String protocol, String mechanism, String username, String password, String tlsCa, String tlsCert,
                          String tlsKey) {
    static final List<String> PROTOCOLS = List.of("plaintext", "ssl", "sasl_plaintext", "sasl_ssl");
    static final List<String> MECHANISMS = List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512");

    static KafkaAccess read(Settings s) {
        String protocol = s.check(KAFKA_SECURITY_PROTOCOL.name(), s.string(KAFKA_SECURITY_PROTOCOL.name(), "plaintext").toLowerCase(Locale.ROOT),
                PROTOCOLS::contains, "must be one of " + String.join(", ", PROTOCOLS));
        boolean sasl = protocol.startsWith("sasl_");
        boolean tls = protocol.endsWith("ssl");
        String mechanism = s.check(KAFKA_SASL_MECHANISM.name(), s.string(KAFKA_SASL_MECHANISM.name(), "PLAIN").toUpperCase(Locale.ROOT),
                MECHANISMS::contains, "must be one of " + String.join(", ", MECHANISMS));
        String username = s.string(KAFKA_USERNAME);
        String password = s.string(KAFKA_PASSWORD);
        if (sasl && (username == null || password == null)) {
            throw new ConfigException(username == null ? KAFKA_USERNAME.name() : KAFKA_PASSWORD.name(),
                    "is required when " + KAFKA_SECURITY_PROTOCOL.name() + "=" + protocol);
        }
        if (!sasl && (username != null || password != null || s.has(KAFKA_SASL_MECHANISM))) {
            String given = username != null ? KAFKA_USERNAME.name() : password != null ? KAFKA_PASSWORD.name() : KAFKA_SASL_MECHANISM.name();
            throw new ConfigException(given, "needs " + KAFKA_SECURITY_PROTOCOL.name() + "=sasl_ssl (or sasl_plaintext): with "
                    + protocol + " no credentials are sent");
        }
        for (var file : List.of(KAFKA_TLS_CA, KAFKA_TLS_CERT, KAFKA_TLS_KEY)) {
            if (!tls && s.has(file)) {
                throw new ConfigException(file.name(), "needs " + KAFKA_SECURITY_PROTOCOL.name() + "=ssl (or sasl_ssl): with " + protocol + " there is no TLS");
            }
        }
        if (s.has(KAFKA_TLS_CERT) != s.has(KAFKA_TLS_KEY)) {
            throw new ConfigException(s.has(KAFKA_TLS_CERT) ? KAFKA_TLS_KEY.name() : KAFKA_TLS_CERT.name(),
                    "is required with " + (s.has(KAFKA_TLS_CERT) ? KAFKA_TLS_CERT.name() : KAFKA_TLS_KEY.name()) + " (a client certificate and its key)");
        }
        return new KafkaAccess(protocol, sasl ? mechanism : null, username, password,
                pem(s, KAFKA_TLS_CA.name()), pem(s, KAFKA_TLS_CERT.name()), pem(s, KAFKA_TLS_KEY.name()));
    }

    /** The PEM text of the file the variable names, or null when it is not set. */
    private static String pem(Settings s, String variable) {
        String file = s.string(variable, null);
        if (file == null) {
            return null;
        }
        String text;
        try {
            text = Files.readString(Path.of(file));
        } catch (IOException | RuntimeException e) {
            throw new ConfigException(variable, "must name a readable PEM file, cannot read " + file + ": " + e.getMessage());
        }
        if (!text.contains("-----BEGIN ")) {
            throw new ConfigException(variable, "must name a PEM file (-----BEGIN ...), " + file + " is not one");
        }
        return text;
    }

    void applyTo(Map<String, Object> p) {
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, protocol.toUpperCase(Locale.ROOT));
        if (mechanism != null) {
            p.put(SaslConfigs.SASL_MECHANISM, mechanism);
            String module = mechanism.equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                    : "org.apache.kafka.common.security.scram.ScramLoginModule";
            p.put(SaslConfigs.SASL_JAAS_CONFIG, module + " required username=\"" + jaas(username) + "\" password=\"" + jaas(password) + "\";");
        }
        if (tlsCa != null) {
            p.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
            p.put(SslConfigs.SSL_TRUSTSTORE_CERTIFICATES_CONFIG, tlsCa);
        }
        if (tlsCert != null) {
            p.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PEM");
            p.put(SslConfigs.SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG, tlsCert);
            p.put(SslConfigs.SSL_KEYSTORE_KEY_CONFIG, tlsKey);
        }
    }

    /** A JAAS quoted string: backslashes and quotes escaped. */
    private static String jaas(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    String describe() {
        return protocol + (mechanism != null ? " " + mechanism + " as " + username : "") + (tlsCert != null ? ", client certificate" : "");
    }

    @Override
    public String toString() {
        return "KafkaAccess[" + describe() + "]";
    }
}
