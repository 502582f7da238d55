package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * The key of a Secret that holds the PEM CA certificate(s) a {@code rediss://} server's certificate
 * chains to. A Secret, like the credentials, so that the operator needs no further RBAC and a
 * cert-manager Certificate's Secret (key {@code ca.crt}, the default) can be named directly. Workers
 * mount it read-only; the operator reads it only for its own connection.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TlsCaSecretRef {
    public static final String DEFAULT_KEY = "ca.crt";

    @JsonPropertyDescription("Name of the Secret, in the DelayQueue's namespace.")
    @Required
    @Size(min = 1, max = 253)
    private String name;

    @JsonPropertyDescription("Key holding the PEM CA certificate(s); ca.crt as in cert-manager's Secrets.")
    @Default(DEFAULT_KEY)
    @Pattern("^[-._a-zA-Z0-9]+$")
    private String key = DEFAULT_KEY;

    public TlsCaSecretRef() {
    }

    public TlsCaSecretRef(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }
}
