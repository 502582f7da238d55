package io.delayq.operator.reconcile;

import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.operator.redis.RedisCredentials;
import io.delayq.operator.resource.BasicAuthSecretRef;
import io.delayq.operator.resource.ClientCertificateSecretRef;
import io.delayq.operator.resource.CredentialsSecretRef;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DeliverySpec;
import io.delayq.operator.resource.DeliveryType;
import io.delayq.operator.resource.KafkaSpec;
import io.delayq.operator.resource.OutboxSpec;
import io.delayq.operator.resource.SecretKeyRef;
import io.delayq.operator.resource.TlsCaSecretRef;
import io.fabric8.kubernetes.api.model.Secret;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Checks the Secrets a DelayQueue references and reads the Redis credentials and TLS CA for the
 * operator's own connection. Problems name the spec field and the Secret, never a value.
 *
 * @param versions    resourceVersion of each referenced Secret that exists, by name
 * @param credentials the Redis credentials, or {@link RedisCredentials#NONE}
 * @param tlsCa       the PEM CA certificate(s) of spec.redis.tlsCaSecret, or null when none is referenced
 * @param problems    missing Secrets and keys, a CA, certificate or private key that holds none
 * @param redisSecretsUsable false when the Redis credentials or TLS CA Secret, or one of their keys, is
 *                    missing: connecting without them would only add a misleading auth or TLS error
 */
public record SecretCheck(SortedMap<String, String> versions, RedisCredentials credentials, String tlsCa, List<Problem> problems,
                          boolean redisSecretsUsable) {

    /** @param lookup finds a Secret by name in the DelayQueue's namespace, null when absent */
    public static SecretCheck of(DelayQueue dq, Function<String, Secret> lookup) {
        SortedMap<String, String> versions = new TreeMap<>();
        List<Problem> problems = new ArrayList<>();
        String namespace = dq.getMetadata().getNamespace();
        RedisCredentials credentials = RedisCredentials.NONE;
        boolean usable = true;

        CredentialsSecretRef ref = dq.getSpec().getRedis().getCredentialsSecret();
        if (ref != null) {
            Secret secret = lookup.apply(ref.getName());
            if (secret == null) {
                problems.add(missing("spec.redis.credentialsSecret.name", ref.getName(), namespace));
                usable = false;
            } else {
                versions.put(ref.getName(), Objects.requireNonNullElse(secret.getMetadata().getResourceVersion(), ""));
                String passwordKey = Objects.requireNonNullElse(ref.getPasswordKey(), "password");
                String password = value(secret, passwordKey);
                String username = ref.getUsernameKey() == null ? null : value(secret, ref.getUsernameKey());
                if (password == null) {
                    problems.add(missingKey("spec.redis.credentialsSecret.passwordKey", ref.getName(), passwordKey));
                }
                if (ref.getUsernameKey() != null && username == null) {
                    problems.add(missingKey("spec.redis.credentialsSecret.usernameKey", ref.getName(), ref.getUsernameKey()));
                }
                if (password != null) {
                    credentials = new RedisCredentials(username, password);
                }
                usable = password != null && (ref.getUsernameKey() == null || username != null);
            }
        }

        String tlsCa = null;
        TlsCaSecretRef caRef = dq.getSpec().getRedis().getTlsCaSecret();
        if (caRef != null) {
            Secret secret = lookup.apply(caRef.getName());
            if (secret == null) {
                problems.add(missing("spec.redis.tlsCaSecret.name", caRef.getName(), namespace));
                usable = false;
            } else {
                // Part of the config hash like any referenced Secret: a rotated CA rolls the workers.
                versions.put(caRef.getName(), Objects.requireNonNullElse(secret.getMetadata().getResourceVersion(), ""));
                String key = Objects.requireNonNullElse(caRef.getKey(), TlsCaSecretRef.DEFAULT_KEY);
                tlsCa = value(secret, key);
                if (tlsCa == null) {
                    problems.add(missingKey("spec.redis.tlsCaSecret.key", caRef.getName(), key));
                    usable = false;
                } else if (!holdsCertificates(tlsCa)) {
                    // Said here, by field: the workers would only crash-loop on it and the operator report a TLS error.
                    problems.add(new Problem(Reason.SECRET_KEY_INVALID, "Secret '" + caRef.getName() + "' key '" + key
                            + "' (spec.redis.tlsCaSecret.key) holds no PEM certificate: it must contain the CA certificate(s), "
                            + "-----BEGIN CERTIFICATE----- blocks"));
                    tlsCa = null;
                    usable = false;
                }
            }
        }

        DeliverySpec delivery = dq.getSpec().getDelivery();
        Found found = new Found(lookup, namespace, versions, problems);
        if (delivery != null && delivery.getType() == DeliveryType.Webhook && delivery.getWebhook() != null
                && delivery.getWebhook().getSigningSecret() != null) {
            SecretKeyRef signing = delivery.getWebhook().getSigningSecret();
            Secret secret = found.secret("spec.delivery.webhook.signingSecret.name", signing.getName());
            found.value(secret, "spec.delivery.webhook.signingSecret.key", signing.getName(), signing.getKey());
        }
        if (delivery != null && delivery.getType() == DeliveryType.Kafka && delivery.getKafka() != null) {
            kafka(delivery.getKafka(), found);
        }
        OutboxSpec outbox = dq.getSpec().getOutbox();
        if (outbox != null && outbox.getCredentialsSecret() != null) {
            basicAuth("spec.outbox.credentialsSecret", outbox.getCredentialsSecret(), found);
        }
        return new SecretCheck(versions, credentials, tlsCa, List.copyOf(problems), usable);
    }

    /** The Kafka delivery's Secrets: what the worker would otherwise stop on at start, said here by field. */
    private static void kafka(KafkaSpec kafka, Found found) {
        if (kafka.getCredentialsSecret() != null) {
            basicAuth("spec.delivery.kafka.credentialsSecret", kafka.getCredentialsSecret(), found);
        }
        TlsCaSecretRef ca = kafka.getTlsCaSecret();
        if (ca != null) {
            Secret secret = found.secret("spec.delivery.kafka.tlsCaSecret.name", ca.getName());
            String key = Objects.requireNonNullElse(ca.getKey(), TlsCaSecretRef.DEFAULT_KEY);
            String pem = found.value(secret, "spec.delivery.kafka.tlsCaSecret.key", ca.getName(), key);
            if (pem != null && !holdsCertificates(pem)) {
                found.problems().add(noCertificate(ca.getName(), key, "spec.delivery.kafka.tlsCaSecret.key", "the CA certificate(s)"));
            }
        }
        ClientCertificateSecretRef client = kafka.getTlsClientSecret();
        if (client != null) {
            Secret secret = found.secret("spec.delivery.kafka.tlsClientSecret.name", client.getName());
            String certKey = Objects.requireNonNullElse(client.getCertKey(), ClientCertificateSecretRef.DEFAULT_CERT_KEY);
            String keyKey = Objects.requireNonNullElse(client.getKeyKey(), ClientCertificateSecretRef.DEFAULT_KEY_KEY);
            String cert = found.value(secret, "spec.delivery.kafka.tlsClientSecret.certKey", client.getName(), certKey);
            if (cert != null && !holdsCertificates(cert)) {
                found.problems().add(noCertificate(client.getName(), certKey, "spec.delivery.kafka.tlsClientSecret.certKey", "the client certificate chain"));
            }
            String key = found.value(secret, "spec.delivery.kafka.tlsClientSecret.keyKey", client.getName(), keyKey);
            if (key != null && !key.contains("-----BEGIN PRIVATE KEY-----")) {
                // Kafka's PEM key store reads unencrypted PKCS#8 only; cert-manager writes PKCS#1 unless told otherwise.
                found.problems().add(new Problem(Reason.SECRET_KEY_INVALID, "Secret '" + client.getName() + "' key '" + keyKey
                        + "' (spec.delivery.kafka.tlsClientSecret.keyKey) holds no unencrypted PKCS#8 private key: it must be a "
                        + "-----BEGIN PRIVATE KEY----- block (cert-manager: privateKey.encoding PKCS8)"));
            }
        }
    }

    private static void basicAuth(String field, BasicAuthSecretRef ref, Found found) {
        Secret secret = found.secret(field + ".name", ref.getName());
        found.value(secret, field + ".usernameKey", ref.getName(),
                Objects.requireNonNullElse(ref.getUsernameKey(), BasicAuthSecretRef.DEFAULT_USERNAME_KEY));
        found.value(secret, field + ".passwordKey", ref.getName(),
                Objects.requireNonNullElse(ref.getPasswordKey(), BasicAuthSecretRef.DEFAULT_PASSWORD_KEY));
    }

    /** Looks Secrets up, remembering the version of each that exists and a problem for each that or whose key does not. */
    private record Found(Function<String, Secret> lookup, String namespace, SortedMap<String, String> versions, List<Problem> problems) {
        /** The Secret, or null (a problem naming the field) when it does not exist. */
        Secret secret(String field, String name) {
            Secret secret = lookup.apply(name);
            if (secret == null) {
                problems.add(missing(field, name, namespace));
                return null;
            }
            versions.put(name, Objects.requireNonNullElse(secret.getMetadata().getResourceVersion(), ""));
            return secret;
        }

        /** The key's value, or null: a problem naming the field when the Secret exists without the key. */
        String value(Secret secret, String field, String name, String key) {
            if (secret == null) {
                return null;
            }
            String value = SecretCheck.value(secret, key);
            if (value == null) {
                problems.add(missingKey(field, name, key));
            }
            return value;
        }
    }

    private static Problem noCertificate(String secret, String key, String field, String what) {
        return new Problem(Reason.SECRET_KEY_INVALID, "Secret '" + secret + "' key '" + key + "' (" + field
                + ") holds no PEM certificate: it must contain " + what + ", -----BEGIN CERTIFICATE----- blocks");
    }

    private static Problem missing(String field, String secret, String namespace) {
        return new Problem(Reason.SECRET_MISSING, "Secret '" + secret + "' (" + field + ") does not exist in namespace '"
                + namespace + "'; worker pods cannot start until it does");
    }

    private static Problem missingKey(String field, String secret, String key) {
        return new Problem(Reason.SECRET_KEY_MISSING, "Secret '" + secret + "' has no key '" + key + "' (" + field + ")");
    }

    /** Whether the text holds at least one X.509 certificate (PEM or DER), as the TLS trust manager will read it. */
    static boolean holdsCertificates(String pem) {
        try {
            return !CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.UTF_8))).isEmpty();
        } catch (CertificateException | RuntimeException e) {
            return false;
        }
    }

    /** The decoded value of a key; the API server keeps {@code data}, a test server may keep {@code stringData}. */
    static String value(Secret secret, String key) {
        Map<String, String> data = secret.getData();
        if (data != null && data.get(key) != null) {
            return new String(Base64.getDecoder().decode(data.get(key)), StandardCharsets.UTF_8);
        }
        Map<String, String> plain = secret.getStringData();
        return plain == null ? null : plain.get(key);
    }
}
