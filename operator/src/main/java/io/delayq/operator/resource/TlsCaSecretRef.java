package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;

/**
 * The key of a Secret that holds the PEM CA certificate(s) a {@code rediss://} server's certificate
 * chains to. A Secret, like the credentials, so that the operator needs no further RBAC and a
 * cert-manager Certificate's Secret (key {@code ca.crt}, the default) can be named directly. Workers
 * mount it read-only; the operator reads it only for its own connection.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TlsCaSecretRef extends SecretRef {
    public static final String DEFAULT_KEY = "ca.crt";

    @JsonPropertyDescription("Key holding the PEM CA certificate(s); ca.crt as in cert-manager's Secrets.")
    @Default(DEFAULT_KEY)
    @Pattern(Patterns.SECRET_KEY)
    private String key = DEFAULT_KEY;

    public TlsCaSecretRef() {
    }

    public TlsCaSecretRef(String name) {
        super(name);
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }
}
