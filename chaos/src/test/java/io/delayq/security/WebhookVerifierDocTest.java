package io.delayq.security;

import io.delayq.worker.delivery.WebhookSignature;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The copyable Python verifier in docs/security.md agrees with the worker's signer: the snippet is
 * taken from the document as printed and run by python3 against requests signed by
 * {@link WebhookSignature#sign}. (Signing and the Java reference verifier are tested both ways by the
 * worker's WebhookSignatureTest; this test only keeps the documentation honest.)
 */
class WebhookVerifierDocTest {
    private static final String SECRET = "whsec-3f9a";

    @BeforeEach
    void python() throws Exception {
        assumeThat(run(List.of("python3", "--version")).exit).as("python3 on PATH").isZero();
    }

    @Test
    void documentedPythonVerifierAcceptsWhatTheWorkerSignsAndRefusesTheRest() throws Exception {
        String doc = Files.readString(DocumentedAcl.DOC);
        int start = doc.indexOf("```python\n");
        assertThat(start).as("a ```python block in " + DocumentedAcl.DOC).isPositive();
        String snippet = doc.substring(start + "```python\n".length(), doc.indexOf("```", start + 10));

        long now = System.currentTimeMillis() / 1000;
        byte[] body = "{\"id\":\"order-8812\",\"attempt\":1,\"payload\":\"Zahlung prüfen ✓\"}".getBytes(StandardCharsets.UTF_8);
        byte[] tampered = "{\"id\":\"order-8812\",\"attempt\":1,\"payload\":\"Zahlung prüfen ✗\"}".getBytes(StandardCharsets.UTF_8);
        String good = WebhookSignature.sign(SECRET, now, body);
        List<String[]> cases = new ArrayList<>();   // timestamp, signature, body, expected
        cases.add(new String[]{String.valueOf(now), good, b64(body), "True"});
        cases.add(new String[]{String.valueOf(now), "v1=" + good.substring(3).toUpperCase(), b64(body), "True"});
        cases.add(new String[]{String.valueOf(now), good, b64(tampered), "False"});
        cases.add(new String[]{String.valueOf(now), WebhookSignature.sign("another-secret", now, body), b64(body), "False"});
        cases.add(new String[]{String.valueOf(now - 1000), WebhookSignature.sign(SECRET, now - 1000, body), b64(body), "False"});
        cases.add(new String[]{String.valueOf(now + 1000), WebhookSignature.sign(SECRET, now + 1000, body), b64(body), "False"});
        cases.add(new String[]{String.valueOf(now), good.substring(3), b64(body), "False"});
        cases.add(new String[]{"yesterday", good, b64(body), "False"});

        StringBuilder script = new StringBuilder(snippet).append("\nimport base64\n");
        StringBuilder expected = new StringBuilder();
        for (String[] c : cases) {
            script.append(String.format("print(verify(b%s, %s, %s, base64.b64decode(%s)))%n",
                    py(SECRET), py(c[0]), py(c[1]), py(c[2])));
            expected.append(c[3]).append('\n');
        }
        Path file = Files.createTempFile("delayq-verify-", ".py");
        Files.writeString(file, script);
        Result r = run(List.of("python3", file.toString()));
        assertThat(r.exit).as(r.out).isZero();
        assertThat(r.out).isEqualTo(expected.toString());
    }

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    /** A Python string literal (the values here have no quotes or backslashes). */
    private static String py(String s) {
        return "'" + s + "'";
    }

    private record Result(int exit, String out) {
    }

    private static Result run(List<String> cmd) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            return new Result(-1, e.getMessage());
        }
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        return new Result(p.exitValue(), out);
    }
}
