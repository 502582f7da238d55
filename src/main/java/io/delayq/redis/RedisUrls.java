package io.delayq.redis;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Puts credentials into a Redis URL: the one way the worker (DELAYQ_REDIS_USERNAME /
 * DELAYQ_REDIS_PASSWORD), the CLI and the console (the same variables: inside a worker pod the URL has
 * no password and a Secret fills them, so {@code kubectl exec … delayq stats} must use them too) and
 * the operator (a DelayQueue's credentials Secret) do it.
 */
public final class RedisUrls {
    private RedisUrls() {
    }

    /**
     * The URL with {@code password} (and {@code username}, when given) in its user-info, percent-encoded;
     * they win over credentials written in the URL. Only the authority changes: a path ({@code /0}), a query
     * or a fragment stays as it was, whatever characters it holds. A user named in the URL keeps its
     * name when only a password is given (a Secret often holds just the password).
     *
     * <p>Without a password the URL is returned unchanged: Lettuce reads a user-info without {@code :} as
     * a password, so a username alone cannot be expressed (the worker refuses DELAYQ_REDIS_USERNAME alone).
     */
    public static String withCredentials(String url, String username, String password) {
        if (password == null) {
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
            existingUser = colon >= 0 ? info.substring(0, colon) : info;
        }
        String user = username != null ? encode(username) : existingUser;
        String hosts = authority.substring(at + 1);
        return url.substring(0, scheme + 3) + user + ":" + encode(password) + "@" + hosts + rest.substring(end);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
