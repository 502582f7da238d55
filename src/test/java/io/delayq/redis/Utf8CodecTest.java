package io.delayq.redis;

import io.delayq.testing.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The codec every delayq connection uses writes the bytes StringCodec.UTF8 writes, and says their exact length first. */
class Utf8CodecTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    /** ASCII, two-, three- and four-byte characters, unpaired surrogates (written as '?'), control characters, empty. */
    static final List<String> CORPUS = List.of("order-8812", "", "caf\u00e9", "\u4e2d\u6587-id", "\ud83d\ude00 smile", "lone \ud83d high",
            "lone \ude00 low", "\ude00\ud83d reversed", "tab\tnew\nline\u0000nul", "\u007f\u0080 edge", "x".repeat(300) + "\u00ff");

    @Test
    void announcesTheExactLengthAndWritesStringCodecsBytes() {
        for (String s : CORPUS) {
            ByteBuf out = Unpooled.buffer();
            Utf8Codec.UTF8.encodeValue(s, out);
            ByteBuffer reference = StringCodec.UTF8.encodeValue(s);
            byte[] expected = new byte[reference.remaining()];
            reference.get(expected);
            assertThat(Utf8Codec.UTF8.estimateSize(s)).as("size of %s", s).isEqualTo(out.readableBytes()).isEqualTo(expected.length);
            byte[] written = new byte[out.readableBytes()];
            out.readBytes(written);
            assertThat(written).as("bytes of %s", s).isEqualTo(expected);
            ByteBuf key = Unpooled.buffer();
            Utf8Codec.UTF8.encodeKey(s, key);
            assertThat(key.readableBytes()).isEqualTo(expected.length);
        }
        assertThat(Utf8Codec.UTF8.isEstimateExact()).isTrue();
    }

    @Test
    void decodesAsStringCodecWithoutMovingTheBuffer() {
        for (String s : CORPUS) {
            byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length + 2).put((byte) 'a').put(bytes).put((byte) 'z');
            direct.position(1).limit(1 + bytes.length);
            assertThat(Utf8Codec.UTF8.decodeValue(direct)).isEqualTo(StringCodec.UTF8.decodeValue(direct.duplicate()));
            assertThat(direct.position()).isEqualTo(1);
            ByteBuffer heap = ByteBuffer.wrap(("a" + s).getBytes(StandardCharsets.UTF_8), 1, bytes.length).slice();
            assertThat(Utf8Codec.UTF8.decodeKey(heap)).isEqualTo(StringCodec.UTF8.decodeKey(heap.duplicate()));
        }
        byte[] malformed = {(byte) 'o', (byte) 0xc3, (byte) 'k', (byte) 0xff};
        assertThat(Utf8Codec.UTF8.decodeValue(ByteBuffer.wrap(malformed))).isEqualTo(StringCodec.UTF8.decodeValue(ByteBuffer.wrap(malformed)))
                .isEqualTo("o\ufffdk\ufffd");
    }

    @Test
    void redisStoresAndReturnsWhatWasSent() {
        try (RedisEndpoint endpoint = RedisEndpoint.connect(redis.url())) {
            RedisClient raw = RedisClient.create(redis.url());
            try (StatefulRedisConnection<byte[], byte[]> bytes = raw.connect(ByteArrayCodec.INSTANCE)) {
                for (int i = 0; i < CORPUS.size(); i++) {
                    String s = CORPUS.get(i);
                    String key = "k:" + s;
                    // a script call carries keys and values through the codec, as every queue operation does
                    String stored = io.delayq.redis.Replies.await(endpoint.commands().<String>eval("redis.call('SET', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])",
                            io.lettuce.core.ScriptOutputType.VALUE, new String[]{key}, s), java.time.Duration.ofSeconds(5));
                    assertThat(stored).isEqualTo(new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
                    assertThat(bytes.sync().get(key.getBytes(StandardCharsets.UTF_8))).isEqualTo(s.getBytes(StandardCharsets.UTF_8));
                }
            } finally {
                raw.shutdown();
            }
        }
    }
}
