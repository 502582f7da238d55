package io.delayq.console.safety;

import io.delayq.console.http.ApiException;
import io.delayq.console.http.Request;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who may act. Without an action token the console is read-only. With one, a person signs in with the
 * token and a name (recorded with every action); the session lives in an HttpOnly, SameSite=Strict
 * cookie, and every action must also carry the session's CSRF token in {@code X-CSRF-Token} and, when
 * the browser sends one, an {@code Origin} of this console's own host.
 */
public final class Sessions {
    public static final String COOKIE = "dq_session";
    public static final String CSRF_HEADER = "X-CSRF-Token";
    private static final Duration LIFETIME = Duration.ofHours(12);
    private static final SecureRandom RANDOM = new SecureRandom();

    public record Session(String user, String csrf, long expiresAtNanos) {
    }

    private final byte[] token;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final SignInThrottle throttle;
    private final io.delayq.console.actions.ActionLog log;

    public Sessions(String actionToken, SignInThrottle throttle, io.delayq.console.actions.ActionLog log) {
        this.token = actionToken == null ? null : actionToken.getBytes(StandardCharsets.UTF_8);
        this.throttle = throttle;
        this.log = log;
    }

    public boolean readOnly() {
        return token == null;
    }

    /** A new session and the cookie value that names it. */
    public record SignedIn(String cookie, Session session) {
    }

    /**
     * Checks the token (in constant time) and opens a session. Refused sign-ins go to the audit log with
     * the address and name (never what was offered as the token), and slow that address down.
     */
    public SignedIn signIn(String offeredToken, String user, String address) {
        if (readOnly()) {
            throw ApiException.forbidden("this console is read-only: no action token is configured (DELAYQ_CONSOLE_TOKEN)");
        }
        long wait = throttle.waitMs(address);
        if (wait > 0) {
            throw new ApiException(429, "token", "too many failed sign-ins from " + address + ": try again in " + (wait + 999) / 1000 + " s")
                    .retryAfterSeconds((wait + 999) / 1000);
        }
        if (user == null || user.isBlank() || user.length() > 64 || !user.matches("[\\p{L}\\p{N} ._@-]+")) {
            throw ApiException.badRequest("name", "must be 1 to 64 letters, digits, spaces or . _ @ - (it is recorded with every action)");
        }
        byte[] offered = offeredToken == null ? new byte[0] : offeredToken.getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(digest(offered), digest(token))) {
            int n = throttle.failed(address);
            long next = throttle.waitMs(address);
            log.record(user.trim() + "@" + address, "-", "sign-in", "session", "refused: wrong token (" + n + " in a row from this address"
                    + (next > 0 ? "; next try in " + (next + 999) / 1000 + " s" : "") + ")");
            throw new ApiException(401, "token", "the action token is not the configured one");
        }
        throttle.succeeded(address);
        String id = random();
        Session s = new Session(user.trim(), random(), System.nanoTime() + LIFETIME.toNanos());
        sessions.put(id, s);
        return new SignedIn(id, s);
    }

    public void signOut(Request r) {
        String id = cookie(r);
        if (id != null) {
            sessions.remove(id);
        }
    }

    /** The request's live session, or null. */
    public Session current(Request r) {
        String id = cookie(r);
        Session s = id == null ? null : sessions.get(id);
        if (s != null && System.nanoTime() - s.expiresAtNanos() > 0) {
            sessions.remove(id);
            return null;
        }
        return s;
    }

    /** The session allowed to act, after the CSRF and origin checks; refuses with 403 otherwise. */
    public Session requireAction(Request r) {
        if (readOnly()) {
            throw ApiException.forbidden("this console is read-only: no action token is configured (DELAYQ_CONSOLE_TOKEN)");
        }
        Session s = current(r);
        if (s == null) {
            throw new ApiException(401, "session", "sign in with the action token first");
        }
        String csrf = r.header(CSRF_HEADER);
        if (csrf == null || !MessageDigest.isEqual(csrf.getBytes(StandardCharsets.UTF_8), s.csrf().getBytes(StandardCharsets.UTF_8))) {
            throw ApiException.forbidden("missing or wrong " + CSRF_HEADER + " header (cross-site request refused)");
        }
        String origin = r.header("Origin");
        String host = r.header("Host");
        if (origin != null && host != null && !origin.equals("http://" + host) && !origin.equals("https://" + host)) {
            throw ApiException.forbidden("request from origin " + origin + " refused (not this console)");
        }
        return s;
    }

    private static String cookie(Request r) {
        String header = r.header("Cookie");
        if (header == null) {
            return null;
        }
        for (String part : header.split(";")) {
            String p = part.trim();
            if (p.startsWith(COOKIE + "=")) {
                return p.substring(COOKIE.length() + 1);
            }
        }
        return null;
    }

    private static byte[] digest(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String random() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
