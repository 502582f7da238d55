package io.delayq.operator.redis;

import io.delayq.redis.RedisUrls;

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

    /** The URL with the credentials in its user-info part, as the worker puts them there ({@link RedisUrls}). */
    public String applyTo(String url) {
        return RedisUrls.withCredentials(url, username, password);
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
