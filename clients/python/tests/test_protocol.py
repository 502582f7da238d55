"""The protocol as pure functions: shared vectors, validation rules, batching and URLs; no Redis needed."""
import json
import re
import unittest
from datetime import datetime, timedelta, timezone
from pathlib import Path

from delayq import InvalidInputException, Task, protocol
from delayq.connection import parse, redact

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "protocol-vectors.json").read_text(encoding="utf-8"))
DOCS = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"


class VectorsTest(unittest.TestCase):
    def test_shards_and_buckets_match_the_shared_vectors(self):
        for v in VECTORS["ids"]:
            self.assertEqual(protocol.bucket_of(v["id"]), v["bucket"], v["id"])
            for n, shard in v["shardOf"].items():
                self.assertEqual(protocol.shard_of(v["id"], int(n)), shard, (v["id"], n))

    def test_records_are_encoded_and_decoded_as_the_vectors_say(self):
        for v in VECTORS["records"]:
            self.assertEqual(protocol.encode_record(v["payload"], v["enqueuedAt"], v["priority"]), v["encoded"])
            decoded = protocol.decode_record(v["encoded"])
            self.assertEqual((decoded.payload, decoded.enqueued_at, decoded.priority),
                             (v["payload"], v["enqueuedAt"], v["priority"]))

    def test_records_with_options_are_encoded_as_the_vectors_say(self):
        self.assertGreater(len(VECTORS["recordsWithOptions"]), 2)
        for v in VECTORS["recordsWithOptions"]:
            t = v["task"]
            options = protocol.require_options(t)
            self.assertEqual(protocol.encode_record(t["payload"], t["enqueuedAt"], t["priority"], options), v["encoded"])

    def test_invalid_options_are_refused_with_cores_messages(self):
        for v in VECTORS["invalidOptions"]:
            with self.assertRaises(InvalidInputException, msg=v["options"]) as caught:
                protocol.require_options(v["options"])
            self.assertEqual((caught.exception.field, str(caught.exception)), (v["field"], v["message"]))

    def test_a_tasks_options_become_record_fields_and_its_expiry_is_judged_against_its_due_time(self):
        now = 1_764_460_000_000
        tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        [p] = protocol.prepare([Task("pay-1", due_at=now + 1000, payload="x", expires_at=now + 3_600_000, on_expiry="discard",
                                     max_attempts=10, backoff=timedelta(seconds=2), backoff_max=timedelta(minutes=10),
                                     backoff_multiplier=3.0, traceparent=tp)], 16, 65536, now)
        self.assertEqual(protocol.encode_record(p.payload, now, p.priority, p.options),
                         '{"payload":"x","enqueuedAt":1764460000000,"expiresAt":1764463600000,"onExpiry":"discard",'
                         '"maxAttempts":10,"backoffMs":2000,"backoffMaxMs":600000,"backoffMultiplier":3,"traceparent":"' + tp + '"}')
        [plain] = protocol.prepare([Task("pay-2", payload="x")], 16, 65536, now)
        self.assertEqual(protocol.encode_record(plain.payload, now, 0, plain.options), "0mikxxdds:x")
        # a group is a record field (the JSON form), in core's order: after the trace context, before the windows
        [grouped] = protocol.prepare([Task("g", payload="<&>", group="tenant-42", traceparent=tp,
                                           dedup_window=timedelta(minutes=1))], 16, 65536, now)
        self.assertEqual(protocol.encode_record(grouped.payload, now, grouped.priority, grouped.options),
                         '{"payload":"<&>","enqueuedAt":1764460000000,"traceparent":"' + tp + '","group":"tenant-42",'
                         '"dedupWindowMs":60000}')

        def refused(message, **kw):
            with self.assertRaises(InvalidInputException) as caught:
                protocol.prepare([Task("t", **kw)], 16, 65536, now)
            self.assertEqual(str(caught.exception), message)

        refused("expiresAt: must be after the task's dueAt (2025-11-29T23:46:41Z), got 2025-11-29T23:46:40Z: "
                "the task would expire before it could run", due_at=now + 1000, expires_at=now)
        refused("expiresAt: must be after the task's due time (now + delay) (2025-11-30T00:46:40Z), got "
                "2025-11-29T23:56:40Z: the task would expire before it could run",
                delay=timedelta(hours=1), expires_at=now + 600_000)
        refused("expiresAt: is in the past (2025-11-29T23:46:30Z)", due_at=now - 20_000, expires_at=now - 10_000)
        refused("backoffMs: must not be negative, got -1000 ms", backoff=timedelta(seconds=-1))
        refused("maxAttempts: must be 1 to 1000, got 0", max_attempts=0)
        refused("group: cannot be combined with priority 1: a grouped task has priority 0 (groups are served round robin, "
                "each in due-time order)", group="tenant-42", priority=1)
        refused("group: may hold only ASCII letters, digits and - _ . : @ /, got ' ' at offset 6 of \"tenant 42\"",
                group="tenant 42")

    def test_hand_written_json_records_are_read_too(self):
        r = protocol.decode_record('{"payload":"cancel-if-unpaid","enqueuedAt":1764460000000,"priority":1,"x":1}')
        self.assertEqual((r.payload, r.enqueued_at, r.priority), ("cancel-if-unpaid", 1764460000000, 1))
        self.assertEqual(protocol.decode_record(None).payload, None)
        with self.assertRaisesRegex(protocol.MalformedRecordException, "it starts with 'x'"):
            protocol.decode_record("xyz")

    def test_the_python_snippets_of_the_protocol_docs_compute_the_vectors(self):
        """docs/protocol.md's Python snippets, run as written (the Go ones compute the same; no Go here)."""
        if not DOCS.exists():
            self.skipTest(f"{DOCS} not in this checkout")
        snippets = re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
        self.assertGreaterEqual(len(snippets), 2)
        import zlib
        for v in VECTORS["ids"]:
            scope = {"zlib": zlib, "task_id": v["id"], "n": 16}
            for code in snippets:
                exec(code, scope)  # noqa: S102 - the documentation's own code
            self.assertEqual(scope["shard"], v["shardOf"]["16"], v["id"])
            self.assertEqual(scope["bucket"], v["bucket"], v["id"])


class ValidationTest(unittest.TestCase):
    def rule(self, field, message, call, *args, **kwargs):
        with self.assertRaises(InvalidInputException) as caught:
            call(*args, **kwargs)
        self.assertEqual(caught.exception.field, field)
        self.assertEqual(str(caught.exception), f"{field}: {message}")

    def test_ids_queues_shards_and_priorities_follow_the_java_rules(self):
        self.rule("id", "must not be empty", protocol.require_id, "")
        self.rule("id", "must be at most 256 bytes of UTF-8, got 258", protocol.require_id, "é" * 129)
        self.assertEqual(protocol.require_id("é" * 128), "é" * 128)
        self.rule("queue", "must be at most 40 characters, got 41", protocol.require_queue, "q" * 41)
        self.rule("queue", "must be a lower-case DNS label (a-z, 0-9 and '-', starting and ending with a letter or "
                           "digit), got 'Orders'", protocol.require_queue, "Orders")
        self.rule("shards", "must be between 1 and 1024, got 0", protocol.require_shards, 0)
        self.rule("priority", "must be 0 (normal), 1 (high) or 2 (highest), got 3", protocol.require_priority, 3)
        self.rule("payload", "must be at most 4 bytes of UTF-8 (the client's maxPayloadBytes), got 6",
                  protocol.require_payload, "ééé", 4)

    def test_a_delay_is_sent_as_is_for_the_script_to_add_to_the_redis_clock(self):
        self.assertEqual(protocol.schedule(timedelta(minutes=30), None, 0), ("in", 1_800_000))
        self.assertEqual(protocol.schedule(None, None, 0), ("in", 0))
        at = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
        self.assertEqual(protocol.schedule(None, at, 0), ("at", 1796119200000))
        self.assertEqual(protocol.schedule(None, 1796119200000, 0), ("at", 1796119200000))
        self.rule("delay", "must not be negative, got -1000 ms", protocol.schedule, timedelta(seconds=-1), None, 0)
        self.rule("schedule", "give a delay or a due time (dueAt), not both", protocol.schedule, timedelta(1), at, 0)
        with self.assertRaisesRegex(InvalidInputException, "dueAt: must be a timezone-aware datetime"):
            protocol.schedule(None, datetime(2026, 12, 1), 0)

    def test_a_batch_is_checked_whole_and_split_per_shard_in_calls_of_at_most_500(self):
        with self.assertRaises(InvalidInputException):
            protocol.prepare([Task("ok"), Task("bad", priority=7)], 4, 100, 0)
        prepared = protocol.prepare([Task(f"t-{i}") for i in range(1200)], 1, 100, 0)
        calls = protocol.chunks(prepared)
        self.assertEqual([len(indexes) for _, indexes in calls], [500, 500, 200])
        self.assertEqual([i for _, indexes in calls for i in indexes], list(range(1200)))


class UrlTest(unittest.TestCase):
    def test_the_documented_schemes(self):
        self.assertFalse(parse("redis://localhost:6379/2").cluster)
        self.assertTrue(parse("rediss://user:pw@redis.prod:6380").tls)
        c = parse("rediss-cluster://app:s3cr%40t@10.0.0.1:7000, 10.0.0.2:7001")
        self.assertEqual((c.cluster, c.tls, c.nodes, c.username, c.password),
                         (True, True, [("10.0.0.1", 7000), ("10.0.0.2", 7001)], "app", "s3cr@t"))
        self.assertEqual(parse("redis-cluster://pw@h:1").password, "pw")

    def test_bad_urls_name_the_field_and_hide_the_password(self):
        with self.assertRaisesRegex(InvalidInputException, r"^redis: must start with redis://"):
            parse("http://localhost")
        with self.assertRaises(InvalidInputException) as caught:
            parse("redis-cluster://app:secret@nohostport")
        self.assertNotIn("secret", str(caught.exception))
        self.assertEqual(redact("redis://app:secret@h:1"), "redis://app:***@h:1")


if __name__ == "__main__":
    unittest.main()


class LayoutTest(unittest.TestCase):
    """Where an id-addressed operation looks (core's Layout, the same rule)."""

    def test_the_meta_reply_becomes_a_layout(self):
        from delayq.layout import Layout
        self.assertEqual(Layout.from_meta([4, 2]), Layout(0, 4, 0, (4,)))
        self.assertEqual(Layout.from_meta([16, 2, 1, "4,16", "4 16", 3, 7]), Layout(1, 16, 4, (4, 16)))
        self.assertEqual(Layout.from_meta([16, 2, 2, "4,16", "", 9, 0]), Layout(2, 16, 0, (4, 16)))

    def test_during_a_migration_the_old_shard_first_then_the_new_one(self):
        from delayq.layout import Layout
        during = Layout(1, 16, 4, (4, 16))
        task_id = next(f"t-{n}" for n in range(100) if protocol.shard_of(f"t-{n}", 4) != protocol.shard_of(f"t-{n}", 16))
        old, new = protocol.shard_of(task_id, 4), protocol.shard_of(task_id, 16)
        self.assertEqual(during.lookup_order(task_id), [old, new])
        self.assertEqual(during.old_shard_of(task_id), old)
        self.assertEqual(during.shard_of(task_id), new)
        # after it: the new shard, then the shard under every earlier count (strays)
        after = Layout(2, 16, 0, (4, 16))
        self.assertEqual(after.lookup_order(task_id), [new, old])
        self.assertEqual(after.old_shard_of(task_id), -1)
        same = next(f"s-{n}" for n in range(100) if protocol.shard_of(f"s-{n}", 4) == protocol.shard_of(f"s-{n}", 16))
        self.assertEqual(during.old_shard_of(same), -1)
        self.assertEqual(during.lookup_order(same), [protocol.shard_of(same, 16)])

    def test_a_count_the_queue_had_is_followed_and_another_refused(self):
        from delayq import ShardCountMismatchException
        from delayq.layout import check_meta
        self.assertEqual(check_meta([16, 2, 2, "4,16", ""], "orders", 4).shards, 16)
        with self.assertRaises(ShardCountMismatchException):
            check_meta([16, 2, 2, "4,16", ""], "orders", 8)

    def test_enqueue_sends_the_epoch_and_where_last(self):
        p = protocol.prepare([Task("a", payload="x")], 4, 100, 1000)
        self.assertEqual(protocol.enqueue_args(protocol.DuplicatePolicy.REJECT, p, 1000, 3, True)[-2:], ["3", "present"])
        self.assertEqual(protocol.enqueue_args(protocol.DuplicatePolicy.REJECT, p, 1000)[-2:], ["0", ""])
