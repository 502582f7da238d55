package io.delayq.operator.redis;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Redis credentials read from a Secret, held in memory only to open the operator's own connection.
 * {@link #toString()} never shows the password, so the object is safe in any log line.
 */
public record RedisCredentials(String username, String password) {
    public static final RedisCredentials NONE = new RedisCredentials(null, null);

    public boolean present() {
        return password != null;
    }

    /** The URL with the credentials in its user-info part, percent-encoded. */
    public String applyTo(String url) {
        if (!present()) {
            return url;
        }
        int scheme = url.indexOf("://");
        String user = username == null ? "" : encode(username);
        return url.substring(0, scheme + 3) + user + ":" + encode(password) + "@" + url.substring(scheme + 3);
    }

    /** Replaces every occurrence of the password in a text meant for status, events or logs. */
    public String scrub(String text) {
        if (text == null || !present() || password.isEmpty()) {
            return text;
        }
        return text.replace(password, "***").replace(encode(password), "***");
    }

    /** Tells credentials apart without keeping or showing them. */
    public int fingerprint() {
        return Objects.hash(username, password);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    public String toString() {
        return "RedisCredentials[username=" + username + ", password=" + (present() ? "***" : "none") + "]";
    }
}
