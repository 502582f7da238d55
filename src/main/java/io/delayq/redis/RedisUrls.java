package io.delayq.redis;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Puts credentials from the environment into a Redis URL, the way the worker reads
 * DELAYQ_REDIS_USERNAME / DELAYQ_REDIS_PASSWORD: inside a worker pod the URL has no password and the
 * Secret fills the variables, so {@code kubectl exec … delayq stats} must use them too (the CLI and the console read them this way).
 */
public final class RedisUrls {
    private RedisUrls() {
    }

    public static String withCredentials(String url, String username, String password) {
        if (password == null) {
            // Lettuce reads a user-info without ':' as a password, so a username alone cannot be expressed
            return url;
        }
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return url;
        }
        String rest = url.substring(scheme + 3);
        int end = rest.length();
        for (char c : new char[]{'/', '?', '#'}) {
            int i = rest.indexOf(c);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        String authority = rest.substring(0, end);
        int at = authority.lastIndexOf('@');
        String existingUser = "";
        if (at >= 0) {
            String info = authority.substring(0, at);
            int colon = info.indexOf(':');
            existingUser = colon >= 0 ? info.substring(0, colon) : "";
        }
        String user = username != null ? encode(username) : existingUser;
        String hosts = authority.substring(at + 1);
        return url.substring(0, scheme + 3) + user + ":" + encode(password) + "@" + hosts + rest.substring(end);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
