package io.delayq.worker.dispatch;

import io.delayq.shard.RecordBuckets;
import io.delayq.shard.ShardKeys;
import io.lettuce.core.api.sync.RedisCommands;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The corpus of what a hand-written producer can get wrong, each written with raw Redis commands as such
 * a producer would (ZADD of the due score, HSET of the record, and for some a key of its own), with the
 * exact reason the task must be dead-lettered with. The record cases are generated: every field of the
 * JSON form with every kind of wrong value, every part of the compact form broken.
 */
final class RawWrites {
    static final String COMPACT_RULE =
            "task record must be JSON (starting with '{') or compact '<priority 0-2><enqueuedAt in base 36>:<payload>'";

    /** A raw write: before the ZADD/HSET of the task itself (a key of the wrong type, a bad attempts field). */
    interface Setup {
        void apply(RedisCommands<byte[], byte[]> redis, ShardKeys keys, byte[] id);
    }

    /**
     * @param score  the due score; {@code null} = due now (server time - 10 ms)
     * @param level  the due set written (0 = {@code due}, 1, 2 = {@code due:p1}, {@code due:p2})
     * @param record the record HSET into the id's bucket, or {@code null} for a bare ZADD
     * @param reason the exact reason, given the shard's keys; {@code exact == false}: its beginning
     * @param lone   whether the good neighbour is due later, so that the claim sees this task alone
     */
    record Case(String name, byte[] id, Double score, int level, String record, Setup setup, Function<ShardKeys, String> reason,
                boolean exact, boolean lone) {
        @Override
        public String toString() {
            return name;
        }

        Case loneClaim() {
            return new Case(name + " (claimed alone)", id, score, level, record, setup, reason, exact, true);
        }
    }

    private RawWrites() {
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    static String bucket(ShardKeys k, byte[] id) {
        return k.recordBucket(RecordBuckets.bucketOf(id));
    }

    private static Case bad(String name, byte[] id, Double score, int level, String record, Setup setup, String reason) {
        return new Case(name, id, score, level, record, setup, k -> reason, true, false);
    }

    private static Case badRecord(String name, String record, String reason) {
        return bad("record " + name + ": " + record, bytes("rec-" + name), null, 0, record, null, reason);
    }

    static Stream<Case> malformed() {
        List<Case> cases = new ArrayList<>();
        // ids
        cases.add(bad("id not UTF-8 (bin\\xff\\xfeid)", concat(bytes("bin"), bytes(0xff, 0xfe), bytes("id")), null, 0, null, null,
                "task id is not valid UTF-8 (byte 0xff at offset 3)"));
        cases.add(bad("id not UTF-8, with a record", concat(bytes("rec"), bytes(0xe9)), null, 0, "{\"payload\":\"kept\"}", null,
                "task id is not valid UTF-8 (truncated sequence at offset 3)"));
        cases.add(bad("id with an overlong encoding", concat(bytes(0xc0, 0xaf), bytes("id")), null, 0, null, null,
                "task id is not valid UTF-8 (byte 0xc0 at offset 0)"));
        cases.add(bad("id with a UTF-16 surrogate", concat(bytes("sur"), bytes(0xed, 0xa0, 0x80)), null, 0, null, null,
                "task id is not valid UTF-8 (byte 0xa0 at offset 4)"));
        cases.add(bad("id past U+10FFFF", concat(bytes("big"), bytes(0xf4, 0x90, 0x80, 0x80)), null, 0, null, null,
                "task id is not valid UTF-8 (byte 0x90 at offset 4)"));
        cases.add(bad("id with a truncated sequence", concat(bytes("cut"), bytes(0xe2, 0x82)), null, 0, null, null,
                "task id is not valid UTF-8 (truncated sequence at offset 3)"));
        cases.add(bad("id empty", new byte[0], null, 0, null, null, "task id is empty (ids are 1 to 256 bytes of UTF-8)"));
        cases.add(bad("id of 257 bytes", bytes("x".repeat(257)), null, 0, null, null,
                "task id is 257 bytes long (ids are at most 256 bytes of UTF-8)"));
        cases.add(bad("id of 4000 bytes, with a record", bytes("y".repeat(4000)), null, 0, "{\"payload\":\"p\"}", null,
                "task id is 4000 bytes long (ids are at most 256 bytes of UTF-8)"));
        // scores (NaN cannot be written: Redis refuses it, see MalformedCorpusTest)
        String seconds = " is not epoch milliseconds (before 2000-01-01; seconds instead of ms?)";
        String beyond = " is not epoch milliseconds (after 9999-12-31)";
        cases.add(bad("score +inf", bytes("score-plus-inf"), Double.POSITIVE_INFINITY, 0, null, null, "due score inf" + beyond));
        cases.add(bad("score -inf", bytes("score-minus-inf"), Double.NEGATIVE_INFINITY, 0, null, null, "due score -inf" + seconds));
        cases.add(bad("score huge (9e15)", bytes("score-huge"), 9e15, 0, "{\"payload\":\"p\"}", null, "due score 9000000000000000" + beyond));
        cases.add(bad("score one ms past 9999-12-31", bytes("score-past-9999"), 253402300800000d, 2, "{\"priority\":2}", null,
                "due score 253402300800000" + beyond));
        cases.add(bad("score in seconds", bytes("score-seconds"), 1764460000d, 0, "{\"payload\":\"p\"}", null,
                "due score 1764460000" + seconds));
        cases.add(bad("score negative", bytes("score-negative"), -5d, 0, null, null, "due score -5" + seconds));
        cases.add(bad("score zero", bytes("score-zero"), 0d, 1, "1mikxxdds:p", null, "due score 0" + seconds));
        // records, JSON form: every field with every kind of wrong value
        Map<String, String> payload = Map.of("12", "a number 12", "{\"order\":12}", "an object {\"order\":12}",
                "[\"a\"]", "an array [\"a\"]", "true", "a boolean true");
        payload.forEach((value, kind) -> cases.add(badRecord("payload " + kind, "{\"payload\":" + value + "}",
                "task record field 'payload' must be a JSON string (send JSON as text, \"{\\\"order\\\":12}\"), got " + kind)));
        Map<String, String> enqueuedAt = Map.of("\"yesterday\"", "a string \"yesterday\"", "\"\"", "a string \"\"", "-1", "a number -1",
                "true", "a boolean true", "{\"ms\":1}", "an object {\"ms\":1}", "1e300", "a number 1.0E300");
        enqueuedAt.forEach((value, kind) -> cases.add(badRecord("enqueuedAt " + kind, "{\"payload\":\"p\",\"enqueuedAt\":" + value + "}",
                "task record field 'enqueuedAt' must be epoch milliseconds (a number >= 0), got " + kind)));
        Map<String, String> priority = Map.of("5", "a number 5", "-1", "a number -1", "1.5", "a number 1.5",
                "\"urgent\"", "a string \"urgent\"", "true", "a boolean true", "[1]", "an array [1]");
        priority.forEach((value, kind) -> cases.add(badRecord("priority " + kind, "{\"payload\":\"p\",\"priority\":" + value + "}",
                "task record field 'priority' must be 0, 1 or 2, got " + kind)));
        cases.add(new Case("record invalid JSON", bytes("rec-invalid"), null, 0, "{payload: cancel order 12", null,
                k -> "task record is not valid JSON: ", false, false));
        cases.add(new Case("record JSON with trailing text", bytes("rec-trailing"), null, 0, "{\"payload\":\"p\"} and more", null,
                k -> "task record is not valid JSON: ", false, false));
        cases.add(badRecord("JSON array", "[\"cancel\",12]", "task record is JSON but not an object (it starts with '[')"));
        cases.add(badRecord("JSON string", "\"cancel\"", "task record is JSON but not an object (it starts with '\"')"));
        cases.add(badRecord("JSON null", "null", COMPACT_RULE + "; it starts with 'n'"));
        cases.add(badRecord("JSON number", "42", COMPACT_RULE + "; it starts with '4'"));
        // records, compact form: each part broken
        cases.add(badRecord("compact priority digit 3", "3mikxxdds:p", COMPACT_RULE + "; it starts with '3'"));
        cases.add(badRecord("compact bad base 36", "0mik!xdds:p", COMPACT_RULE + "; enqueuedAt 'mik!xdds' is not a base-36 number"));
        cases.add(badRecord("compact empty enqueuedAt", "0:p", COMPACT_RULE + "; enqueuedAt '' is not a base-36 number"));
        cases.add(badRecord("compact enqueuedAt overflowing", "0" + "z".repeat(14) + ":p",
                COMPACT_RULE + "; enqueuedAt '" + "z".repeat(14) + "' is not a base-36 number"));
        cases.add(badRecord("compact signed enqueuedAt", "0-mikxxdds:p", COMPACT_RULE + "; enqueuedAt '-mikxxdds' has a sign"));
        cases.add(badRecord("compact missing ':'", "0mikxxdds", COMPACT_RULE + "; the ':' before the payload is missing"));
        // the priority in the record against the due set the task is in
        cases.add(new Case("priority 1 in the plain due set", bytes("prio-mismatch-json"), null, 0, "{\"payload\":\"p\",\"priority\":1}",
                null, k -> "record priority 1 does not match the set the task was in (" + k.due(0) + ", priority 0)", true, false));
        cases.add(new Case("bare id in due:p2", bytes("prio-mismatch-bare"), null, 2, null,
                null, k -> "record priority 0 does not match the set the task was in (" + k.due(2) + ", priority 2)", true, false));
        cases.add(new Case("compact priority 2 in due:p1", bytes("prio-mismatch-compact"), null, 1, "2mikxxdds:p",
                null, k -> "record priority 2 does not match the set the task was in (" + k.due(1) + ", priority 1)", true, false));
        // keys of the wrong type that cost only their own tasks
        cases.add(new Case("record bucket is a string", bytes("bucket-string"), null, 0, null,
                (r, k, id) -> r.set(bytes(bucket(k, id)), bytes("garbage")),
                k -> "record bucket " + bucket(k, bytes("bucket-string")) + " is a string, not a hash", true, false));
        cases.add(new Case("record bucket is a list", bytes("bucket-list"), null, 0, null,
                (r, k, id) -> r.rpush(bytes(bucket(k, id)), bytes("garbage")),
                k -> "record bucket " + bucket(k, bytes("bucket-list")) + " is a list, not a hash", true, false));
        Case attempts = new Case("attempts field not a number", bytes("attempts-text"), null, 0, "{\"payload\":\"p\"}",
                (r, k, id) -> r.hset(bytes(k.attempts()), id, bytes("abc")),
                k -> "attempts field in " + k.attempts() + " holds \"abc\", not a number", true, false);
        cases.add(attempts);
        cases.add(attempts.loneClaim());
        cases.add(bad("id not UTF-8", concat(bytes("lone"), bytes(0xff)), null, 0, null, null,
                "task id is not valid UTF-8 (byte 0xff at offset 4)").loneClaim());
        return cases.stream();
    }
}
