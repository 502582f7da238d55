package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/** Where the queue's sorted sets live. Credentials come from a Secret, never from the spec. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!self.url.matches('^[a-z-]+://[^/]*@')",
        message = "spec.redis.url must not carry credentials (user:password@): put them in a Secret and reference it with spec.redis.credentialsSecret")
@ValidationRule(value = "!has(self.mode) || ((self.mode == 'Cluster') == self.url.matches('^rediss?-cluster://') && (self.mode == 'Sentinel') == self.url.matches('^rediss?-sentinel://'))",
        message = "spec.redis.mode must agree with the URL scheme: redis-cluster:// for Cluster, redis-sentinel:// for Sentinel, redis:// or rediss:// for Standalone")
@ValidationRule(value = "!has(self.tls) || self.tls == self.url.startsWith('rediss')",
        message = "spec.redis.tls must agree with the URL scheme: rediss://, rediss-sentinel:// and rediss-cluster:// use TLS, the others do not")
@ValidationRule(value = "!has(self.tlsCaSecret) || self.url.startsWith('rediss')",
        message = "spec.redis.tlsCaSecret needs TLS: it is only used with a rediss://, rediss-sentinel:// or rediss-cluster:// URL; "
                + "use one of those or remove tlsCaSecret")
public class RedisSpec {
    @JsonPropertyDescription("redis://host:port[/db], rediss:// for TLS, redis-sentinel://host:port[,host:port]/db#master, or redis-cluster://host:port[,host:port]. No credentials here: see credentialsSecret.")
    @Required
    @Pattern(Patterns.REDIS_URL)
    @Size(max = 2048)
    private String url;

    @JsonPropertyDescription("Topology; optional, since the URL scheme decides it. When given it must agree with the scheme.")
    private RedisMode mode;

    @JsonPropertyDescription("Whether the connection uses TLS; optional, since the URL scheme decides it. When given it must agree with the scheme.")
    private Boolean tls;

    @JsonPropertyDescription("A Secret in the same namespace holding the ACL user name (optional) and the password.")
    private CredentialsSecretRef credentialsSecret;

    @JsonPropertyDescription("A Secret in the same namespace holding the PEM CA certificate(s) to trust for TLS (rediss:// URLs only), "
            + "for a Redis whose certificate a private CA signed. Workers mount it read-only and the operator trusts it for its "
            + "backlog checks; a change of the Secret rolls the workers. Absent: the JVM's default trust store.")
    private TlsCaSecretRef tlsCaSecret;

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public RedisMode getMode() {
        return mode;
    }

    public void setMode(RedisMode mode) {
        this.mode = mode;
    }

    public Boolean getTls() {
        return tls;
    }

    public void setTls(Boolean tls) {
        this.tls = tls;
    }

    public CredentialsSecretRef getCredentialsSecret() {
        return credentialsSecret;
    }

    public void setCredentialsSecret(CredentialsSecretRef credentialsSecret) {
        this.credentialsSecret = credentialsSecret;
    }

    public TlsCaSecretRef getTlsCaSecret() {
        return tlsCaSecret;
    }

    public void setTlsCaSecret(TlsCaSecretRef tlsCaSecret) {
        this.tlsCaSecret = tlsCaSecret;
    }
}
