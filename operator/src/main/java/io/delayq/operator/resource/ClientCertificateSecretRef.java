package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;

/**
 * The keys of a Secret that hold a client certificate chain and its private key, by default those of a
 * {@code kubernetes.io/tls} Secret (and so of a cert-manager Certificate's). Workers mount both read-only.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClientCertificateSecretRef extends SecretRef {
    public static final String DEFAULT_CERT_KEY = "tls.crt";
    public static final String DEFAULT_KEY_KEY = "tls.key";

    @JsonPropertyDescription("Key holding the PEM client certificate chain.")
    @Default(DEFAULT_CERT_KEY)
    @Pattern(Patterns.SECRET_KEY)
    private String certKey = DEFAULT_CERT_KEY;

    @JsonPropertyDescription("Key holding the PEM private key, unencrypted PKCS#8 (-----BEGIN PRIVATE KEY-----; "
            + "cert-manager: privateKey.encoding PKCS8).")
    @Default(DEFAULT_KEY_KEY)
    @Pattern(Patterns.SECRET_KEY)
    private String keyKey = DEFAULT_KEY_KEY;

    public ClientCertificateSecretRef() {
    }

    public ClientCertificateSecretRef(String name) {
        super(name);
    }

    public String getCertKey() {
        return certKey;
    }

    public void setCertKey(String certKey) {
        this.certKey = certKey;
    }

    public String getKeyKey() {
        return keyKey;
    }

    public void setKeyKey(String keyKey) {
        this.keyKey = keyKey;
    }
}
