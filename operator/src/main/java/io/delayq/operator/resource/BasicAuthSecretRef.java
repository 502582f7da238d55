package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;

/**
 * Keys of a Secret that hold a user name and a password, by default those of a {@code kubernetes.io/basic-auth}
 * Secret. Workers get them by {@code secretKeyRef}; the operator only checks that they exist.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BasicAuthSecretRef extends SecretRef {
    public static final String DEFAULT_USERNAME_KEY = "username";
    public static final String DEFAULT_PASSWORD_KEY = "password";

    @JsonPropertyDescription("Key holding the user name.")
    @Default(DEFAULT_USERNAME_KEY)
    @Pattern(Patterns.SECRET_KEY)
    private String usernameKey = DEFAULT_USERNAME_KEY;

    @JsonPropertyDescription("Key holding the password.")
    @Default(DEFAULT_PASSWORD_KEY)
    @Pattern(Patterns.SECRET_KEY)
    private String passwordKey = DEFAULT_PASSWORD_KEY;

    public BasicAuthSecretRef() {
    }

    public BasicAuthSecretRef(String name) {
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
