package io.delayq.kube.cluster;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;

/**
 * One request as the API server's audit log recorded it (level Metadata): who asked (the impersonated user where
 * there is one), what for, and the answer's status code.
 */
public record AuditEvent(String user, String verb, String group, String resource, String subresource, String namespace,
                         String name, int code, String uri, Instant received) {

    static AuditEvent of(JsonNode e) {
        JsonNode impersonated = e.path("impersonatedUser").path("username");
        String user = impersonated.isMissingNode() || impersonated.isNull()
                ? e.path("user").path("username").asText() : impersonated.asText();
        JsonNode ref = e.path("objectRef");
        return new AuditEvent(user, e.path("verb").asText(), ref.path("apiGroup").asText(""), ref.path("resource").asText(""),
                ref.path("subresource").asText(""), ref.path("namespace").asText(""), ref.path("name").asText(""),
                e.path("responseStatus").path("code").asInt(0), e.path("requestURI").asText(),
                Instant.parse(e.path("requestReceivedTimestamp").asText("1970-01-01T00:00:00Z")));
    }

    /** A resource request (not discovery or a health check). */
    public boolean onResource() {
        return !resource.isEmpty();
    }

    /** {@code resource} or {@code resource/subresource}, as RBAC rules name it. */
    public String rbacResource() {
        return subresource.isEmpty() ? resource : resource + "/" + subresource;
    }
}
