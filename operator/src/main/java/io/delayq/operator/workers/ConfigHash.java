package io.delayq.operator.workers;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A short SHA-256 of an object's JSON. On the pod template it makes a configuration change roll the
 * pods; on the Deployment it lets the operator tell "as desired" from "changed" without comparing
 * fields that the API server fills in with defaults.
 */
public final class ConfigHash {
    public static final String POD_TEMPLATE_ANNOTATION = "delayq.io/config-hash";
    public static final String DEPLOYMENT_ANNOTATION = "delayq.io/desired-hash";
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private ConfigHash() {
    }

    public static String of(Object... parts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Object part : parts) {
                sha.update(JSON.asJson(part).getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            }
            return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
