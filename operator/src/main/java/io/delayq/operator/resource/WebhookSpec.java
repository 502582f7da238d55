package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

import static io.delayq.settings.WorkerSettings.*;

/** HTTP POST of each task: 2xx acks, 429/5xx/time-out retries, other 4xx dead-letters. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WebhookSpec {
    @JsonPropertyDescription("http:// or https:// URL that receives the task as JSON.")
    @Required
    @Pattern(Patterns.HTTP_URL)
    @Size(max = 2048)
    private String url;

    @JsonPropertyDescription("Request time-out, e.g. 10s.")
    @Default(DEFAULT_WEBHOOK_TIMEOUT)
    @Pattern(Durations.PATTERN)
    private String timeout = DEFAULT_WEBHOOK_TIMEOUT;

    @JsonPropertyDescription("Secret key whose value signs each request (HMAC header); passed to workers by secretKeyRef.")
    private SecretKeyRef signingSecret;

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public String getTimeout() {
        return timeout;
    }

    public void setTimeout(String timeout) {
        this.timeout = timeout;
    }

    public SecretKeyRef getSigningSecret() {
        return signingSecret;
    }

    public void setSigningSecret(SecretKeyRef signingSecret) {
        this.signingSecret = signingSecret;
    }
}
