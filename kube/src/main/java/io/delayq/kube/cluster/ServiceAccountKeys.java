package io.delayq.kube.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The key pair the API server signs service-account tokens with (and the controller manager's token controller
 * too): PKCS#8 and X.509 PEM files, which Kubernetes reads, made without openssl.
 */
record ServiceAccountKeys(Path privateKey, Path publicKey) {

    static ServiceAccountKeys write(Path dir) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair pair = generator.generateKeyPair();
            Path key = dir.resolve("sa.key");
            Path pub = dir.resolve("sa.pub");
            Files.writeString(key, pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
            Files.writeString(pub, pem("PUBLIC KEY", pair.getPublic().getEncoded()));
            return new ServiceAccountKeys(key, pub);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
