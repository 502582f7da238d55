package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;

/**
 * Keys of a Secret that hold Redis credentials. Workers get them by {@code secretKeyRef}; the
 * operator reads them only to connect for backlog checks and never writes them anywhere.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CredentialsSecretRef extends SecretRef {
    @JsonPropertyDescription("Key holding the ACL user name; absent means the default user.")
    @Pattern(Patterns.SECRET_KEY)
    private String usernameKey;

    @JsonPropertyDescription("Key holding the password.")
    @Default("password")
    @Pattern(Patterns.SECRET_KEY)
    private String passwordKey = "password";

    public CredentialsSecretRef() {
    }

    public CredentialsSecretRef(String name) {
        super(name);
    }

    public String getUsernameKey() {
        return usernameKey;
    }

    public void setUsernameKey(String usernameKey) {
        this.usernameKey = usernameKey;
    }

    public String getPasswordKey() {
        return passwordKey;
    }

    public void setPasswordKey(String passwordKey) {
        this.passwordKey = passwordKey;
    }
}
