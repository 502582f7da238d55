package io.delayq.worker.delivery;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * HMAC-SHA256 over {@code "<timestamp>.<body>"}, sent as {@code X-Delayq-Signature: v1=<hex>} next to
 * {@code X-Delayq-Timestamp: <epoch seconds>}. The timestamp inside the signed text lets a receiver
 * refuse replays older than its tolerance window. {@link #verify} is the reference verifier.
 */
public final class WebhookSignature {
    public static final String SIGNATURE_HEADER = "X-Delayq-Signature";
    public static final String TIMESTAMP_HEADER = "X-Delayq-Timestamp";

    private WebhookSignature() {
    }

    public static String sign(String secret, long timestampSeconds, byte[] body) {
        return "v1=" + HexFormat.of().formatHex(hmac(secret, timestampSeconds, body));
    }

    /**
     * @return true when the signature matches and the timestamp lies within {@code toleranceSeconds}
     *         of {@code nowSeconds}
     */
    public static boolean verify(String secret, String timestampHeader, String signatureHeader, byte[] body,
                                 long nowSeconds, long toleranceSeconds) {
        if (timestampHeader == null || signatureHeader == null || !signatureHeader.startsWith("v1=")) {
            return false;
        }
        long ts;
        try {
            ts = Long.parseLong(timestampHeader);
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(nowSeconds - ts) > toleranceSeconds) {
            return false;
        }
        byte[] expected = hmac(secret, ts, body);
        byte[] given;
        try {
            given = HexFormat.of().parseHex(signatureHeader.substring(3));
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(expected, given);
    }

    private static byte[] hmac(String secret, long ts, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((ts + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
