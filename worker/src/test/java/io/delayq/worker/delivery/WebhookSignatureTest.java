package io.delayq.worker.delivery;

import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Signed webhooks: a real receiver verifies every request with {@link WebhookSignature#verify} (the
 * reference verifier) and a five-minute replay window, answering 401 when verification fails.
 */
class WebhookSignatureTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "signed";
    private static final String SECRET = "whsec-3f9a1c";
    private static final long WINDOW_SECONDS = 300;

    /** The receiver's clock offset, so a replay can be made old without waiting five minutes. */
    private final AtomicLong receiverClockOffsetSeconds = new AtomicLong();
    private final HttpClient attacker = HttpClient.newHttpClient();
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 1);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);
    private Receiver receiver;

    @BeforeEach
    void open() {
        receiver = Receiver.start(() -> TestQueue.serverNow(redis.admin().commands()), (req, ex) -> {
            long now = System.currentTimeMillis() / 1000 + receiverClockOffsetSeconds.get();
            boolean genuine = WebhookSignature.verify(SECRET, req.header(WebhookSignature.TIMESTAMP_HEADER),
                    req.header(WebhookSignature.SIGNATURE_HEADER), req.body(), now, WINDOW_SECONDS);
            Receiver.reply(ex, genuine ? 200 : 401, genuine ? "ok" : "bad signature");
        });
    }

    @AfterEach
    void close() {
        workers.close();
        receiver.close();
    }

    private Worker worker(String secret) {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 1);
        env.put("DELAYQ_DELIVERY", "webhook");
        env.put("DELAYQ_WEBHOOK_URL", receiver.url().toString());
        if (secret != null) {
            env.put("DELAYQ_WEBHOOK_SECRET", secret);
        }
        return workers.startConfigured(env);
    }

    private int resend(Receiver.Request original, byte[] body, String signature) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(receiver.url())
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", original.id())
                .header("X-Delayq-Attempt", String.valueOf(original.attempt()))
                .header(WebhookSignature.TIMESTAMP_HEADER, original.header(WebhookSignature.TIMESTAMP_HEADER))
                .header(WebhookSignature.SIGNATURE_HEADER, signature)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        return attacker.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void genuineRequestsAreAcceptedAndTamperedOrReplayedOnesRejected() throws Exception {
        Worker w = worker(SECRET);
        for (int i = 0; i < 3; i++) {
            queue.client().enqueue(TaskSpec.of("withdrawal-" + i).payload("{\"amount\":" + (100 + i) + "}"));
        }
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(3));
        assertThat(outcomes(w, "dead") + outcomes(w, "retried")).isZero();
        List<Receiver.Request> genuine = receiver.requests();
        assertThat(genuine).hasSize(3);
        Receiver.Request captured = genuine.get(0);
        assertThat(captured.header(WebhookSignature.SIGNATURE_HEADER)).matches("v1=[0-9a-f]{64}");
        long ts = Long.parseLong(captured.header(WebhookSignature.TIMESTAMP_HEADER));
        assertThat(ts).isCloseTo(System.currentTimeMillis() / 1000, org.assertj.core.data.Offset.offset(60L));

        String signature = captured.header(WebhookSignature.SIGNATURE_HEADER);
        String body = new String(captured.body(), StandardCharsets.UTF_8);
        // the same request again, within the window: accepted (the Idempotency-Key is what dedupes it)
        assertThat(resend(captured, captured.body(), signature)).isEqualTo(200);
        // a tampered body under the genuine signature
        byte[] tampered = body.replace("\"amount\\\":1", "\"amount\\\":9991").getBytes(StandardCharsets.UTF_8);
        assertThat(new String(tampered, StandardCharsets.UTF_8)).isNotEqualTo(body);
        assertThat(resend(captured, tampered, signature)).isEqualTo(401);
        // a forged signature: right format, wrong secret
        assertThat(resend(captured, captured.body(), WebhookSignature.sign("guessed-secret", ts, captured.body()))).isEqualTo(401);
        // the genuine request replayed after the window
        receiverClockOffsetSeconds.set(WINDOW_SECONDS + 1);
        assertThat(resend(captured, captured.body(), signature)).isEqualTo(401);
    }

    @Test
    void aWorkerWithTheWrongSecretIsRefusedAndTheTaskDeadLettered() {
        Worker w = worker("not-the-receivers-secret");
        queue.client().enqueue(TaskSpec.of("withdrawal-9"));

        await().atMost(Duration.ofSeconds(15)).until(() -> queue.client().inspect("withdrawal-9").state() == TaskInfo.State.DEAD);
        TaskInfo dead = queue.client().inspect("withdrawal-9");
        assertThat(dead.attempts()).isEqualTo(1);
        assertThat(dead.lastError()).isEqualTo("webhook answered HTTP 401: bad signature");
        assertThat(outcomes(w, "acked")).isZero();
    }

    @Test
    void withoutASecretNoSignatureIsSent() {
        worker(null);
        queue.client().enqueue(TaskSpec.of("withdrawal-10"));

        await().atMost(Duration.ofSeconds(15)).until(() -> queue.client().inspect("withdrawal-10").state() == TaskInfo.State.DEAD);
        Receiver.Request req = receiver.requestsFor("withdrawal-10").get(0);
        assertThat(req.header(WebhookSignature.SIGNATURE_HEADER)).isNull();
        assertThat(req.header(WebhookSignature.TIMESTAMP_HEADER)).isNull();
    }

    @Test
    void theSignatureIsHmacSha256OfTimestampDotBodyAsOtherLanguagesComputeIt() throws Exception {
        byte[] body = "{\"id\":\"a\"}".getBytes(StandardCharsets.UTF_8);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String expected = "v1=" + HexFormat.of().formatHex(mac.doFinal("1764460000.{\"id\":\"a\"}".getBytes(StandardCharsets.UTF_8)));

        assertThat(WebhookSignature.sign(SECRET, 1764460000L, body)).isEqualTo(expected);
        assertThat(WebhookSignature.verify(SECRET, "1764460000", expected, body, 1764460000L + 300, 300)).isTrue();
        assertThat(WebhookSignature.verify(SECRET, "1764460000", expected, body, 1764460000L - 300, 300)).isTrue();
        assertThat(WebhookSignature.verify(SECRET, "1764460000", expected, body, 1764460000L + 301, 300)).as("too old").isFalse();
        assertThat(WebhookSignature.verify(SECRET, "1764460000", expected, body, 1764460000L - 301, 300)).as("from the future").isFalse();
        assertThat(WebhookSignature.verify(SECRET, "1764460001", expected, body, 1764460000L, 300)).as("timestamp changed").isFalse();
        assertThat(WebhookSignature.verify("other", "1764460000", expected, body, 1764460000L, 300)).as("wrong secret").isFalse();
        assertThat(WebhookSignature.verify(SECRET, null, expected, body, 1764460000L, 300)).isFalse();
        assertThat(WebhookSignature.verify(SECRET, "1764460000", null, body, 1764460000L, 300)).isFalse();
        assertThat(WebhookSignature.verify(SECRET, "yesterday", expected, body, 1764460000L, 300)).isFalse();
        assertThat(WebhookSignature.verify(SECRET, "1764460000", "v1=not-hex", body, 1764460000L, 300)).isFalse();
        assertThat(WebhookSignature.verify(SECRET, "1764460000", expected.replace("v1=", "v0="), body, 1764460000L, 300)).isFalse();
    }
}
