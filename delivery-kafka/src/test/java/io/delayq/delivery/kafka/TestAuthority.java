package io.delayq.delivery.kafka;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A certificate authority made up for one test run: EC P-256 keys from the JDK, X.509 v3 certificates written out in
 * DER by hand (the JDK signs but has no public API to build a certificate), handed out as PEM text. Nothing is
 * downloaded and no tool is run.
 */
final class TestAuthority {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] ECDSA_WITH_SHA256 = oid(1, 2, 840, 10045, 4, 3, 2);
    private static final byte[] COMMON_NAME = oid(2, 5, 4, 3);
    private static final byte[] BASIC_CONSTRAINTS = oid(2, 5, 29, 19);
    private static final byte[] SUBJECT_ALT_NAME = oid(2, 5, 29, 17);
    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);

    /** A certificate and its key, as PEM: the chain (the certificate, then its authority's) and the PKCS#8 key. */
    record Issued(String chainPem, String keyPem) {
    }

    private final byte[] name;
    private final KeyPair keys;
    private final String certificatePem;

    private TestAuthority(String commonName) {
        name = name(commonName);
        keys = ecKeys();
        certificatePem = pem("CERTIFICATE", certificate(name, keys, true, List.of(), List.of()));
    }

    static TestAuthority named(String commonName) {
        return new TestAuthority(commonName);
    }

    /** The authority's own certificate: what a party that trusts it is given. */
    String certificatePem() {
        return certificatePem;
    }

    /** A certificate for a server reached by the given IP addresses and host names. */
    Issued server(String commonName, List<String> ips, List<String> hosts) {
        return issue(commonName, ips, hosts);
    }

    /** A client certificate (for mutual TLS): no names to be reached by. */
    Issued client(String commonName) {
        return issue(commonName, List.of(), List.of());
    }

    private Issued issue(String commonName, List<String> ips, List<String> hosts) {
        KeyPair subject = ecKeys();
        byte[] der = certificate(name(commonName), subject, false, ips, hosts);
        return new Issued(pem("CERTIFICATE", der) + certificatePem, pem("PRIVATE KEY", subject.getPrivate().getEncoded()));
    }

    private byte[] certificate(byte[] subject, KeyPair subjectKeys, boolean authority, List<String> ips, List<String> hosts) {
        Instant now = Instant.now();
        List<byte[]> extensions = new ArrayList<>();
        if (authority) {
            extensions.add(sequence(BASIC_CONSTRAINTS, tlv(0x01, new byte[]{(byte) 0xff}), octets(sequence(tlv(0x01, new byte[]{(byte) 0xff})))));
        }
        if (!ips.isEmpty() || !hosts.isEmpty()) {
            List<byte[]> names = new ArrayList<>();
            ips.forEach(ip -> names.add(tlv(0x87, ipBytes(ip))));
            hosts.forEach(host -> names.add(tlv(0x82, host.getBytes(StandardCharsets.US_ASCII))));
            extensions.add(sequence(SUBJECT_ALT_NAME, octets(sequence(names.toArray(byte[][]::new)))));
        }
        List<byte[]> fields = new ArrayList<>(List.of(
                tlv(0xa0, integer(BigInteger.TWO)),
                integer(new BigInteger(63, RANDOM).add(BigInteger.ONE)),
                sequence(ECDSA_WITH_SHA256),
                name,
                sequence(utcTime(now.minus(Duration.ofHours(1))), utcTime(now.plus(Duration.ofDays(2)))),
                subject,
                subjectKeys.getPublic().getEncoded()));
        if (!extensions.isEmpty()) {
            fields.add(tlv(0xa3, sequence(extensions.toArray(byte[][]::new))));
        }
        byte[] tbs = sequence(fields.toArray(byte[][]::new));
        try {
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(keys.getPrivate());
            signer.update(tbs);
            return sequence(tbs, sequence(ECDSA_WITH_SHA256), bitString(signer.sign()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair ecKeys() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] name(String commonName) {
        return sequence(tlv(0x31, sequence(COMMON_NAME, tlv(0x0c, commonName.getBytes(StandardCharsets.UTF_8)))));
    }

    private static byte[] ipBytes(String ip) {
        String[] parts = ip.split("\\.");
        byte[] b = new byte[4];
        for (int i = 0; i < 4; i++) {
            b[i] = (byte) Integer.parseInt(parts[i]);
        }
        return b;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[]{'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    // DER, just the parts a certificate needs

    private static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = content.length;
        if (n < 0x80) {
            out.write(n);
        } else {
            byte[] length = BigInteger.valueOf(n).toByteArray();
            int skip = length[0] == 0 ? 1 : 0;
            out.write(0x80 | (length.length - skip));
            out.write(length, skip, length.length - skip);
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    private static byte[] sequence(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return tlv(0x30, out.toByteArray());
    }

    private static byte[] integer(BigInteger value) {
        return tlv(0x02, value.toByteArray());
    }

    private static byte[] octets(byte[] content) {
        return tlv(0x04, content);
    }

    private static byte[] bitString(byte[] content) {
        byte[] withUnusedBits = new byte[content.length + 1];
        System.arraycopy(content, 0, withUnusedBits, 1, content.length);
        return tlv(0x03, withUnusedBits);
    }

    private static byte[] utcTime(Instant t) {
        return tlv(0x17, UTC_TIME.format(t).getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] oid(int... arcs) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(40 * arcs[0] + arcs[1]);
        for (int i = 2; i < arcs.length; i++) {
            int arc = arcs[i];
            int groups = 1;
            while ((arc >>> (7 * groups)) != 0) {
                groups++;
            }
            for (int g = groups - 1; g >= 0; g--) {
                out.write(((arc >>> (7 * g)) & 0x7f) | (g > 0 ? 0x80 : 0));
            }
        }
        return tlv(0x06, out.toByteArray());
    }
}
