"""The sync and asyncio clients on a queue whose meta records protocol 3 (docs/protocol3.md), against a real
redis-server: every operation answers as on protocol 2, and the tasks sit in protocol 3's keys (buckets of a due
window or minute, their indexes, the id index), read here as p3/include/buckets.lua writes them."""
import asyncio
import json
import os
import re
import unittest
import zlib
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import NamedTuple, Optional
from unittest import mock

from delayq import (CancelResult, DelayQueue, DuplicatePolicy, EnqueueStatus, InvalidInputException, Priority,
                    ProtocolVersionMismatchException, ReplicaAckException, RescheduleStatus, Task, TaskState, protocol)
from delayq import protocol3
from delayq._lua import assemble
from delayq.aio import AsyncDelayQueue
from delayq.scripts import SCRIPTS

from .redis_server import WithRedis
from .test_client import grow_by_hand, server_now

CORE_LUA = Path(__file__).resolve().parents[3] / "src" / "main" / "resources" / "delayq" / "lua"
#: p3/include/buckets.lua: a due window (ms), a coarse minute, and how far ahead a task waits in minutes
WINDOW_MS, MINUTE_MS, HORIZON_MS = 100, 60_000, 600_000
_NAME = re.compile(r"^([wc])([0-9a-z]+)(?:\.p([12]))?(?:\.n(\d+))?:\d+$")


def record_protocol3(admin, queue: str, shards: int) -> None:
    """Records a new queue as protocol 3 the way core does on its first use under DELAYQ_PROTOCOL=3: meta.lua."""
    admin.eval(SCRIPTS["meta"].source, 1, protocol.meta_key(queue), shards, protocol3.PROTOCOL_BUCKETED)


class Waiting(NamedTuple):
    """Where a waiting task sits: its bucket's index and name, the due time its value gives, and its record."""
    index: str
    bucket: str
    due: int
    record: str

    @property
    def start(self) -> int:
        return int(_NAME.match(self.bucket).group(2), 36)

    @property
    def level(self) -> int:
        return int(_NAME.match(self.bucket).group(3) or 0)


def waiting(admin, prefix: str, task_id: str) -> Optional[Waiting]:
    """The task's place among the buckets the indexes list (a value: the due time's offset from the bucket's start,
    2 base-36 digits in a window, 4 in a minute, then the record); None when no waiting bucket holds it."""
    for index in ("idx", "idx1", "idx2", "cidx"):
        for name in admin.zrange(prefix + index, 0, -1):
            value = admin.hget(prefix + "b:" + name, task_id)
            if value is not None:
                digits = 4 if name.startswith("c") else 2
                start = int(_NAME.match(name).group(2), 36)
                return Waiting(index, name, start + int(value[:digits], 36), value[digits:])
    return None


def indexed(admin, prefix: str, task_id: str) -> Optional[str]:
    """The id index's entry of the task: its due time in base 36, "~" for a dead letter."""
    return admin.hget(f"{prefix}ix:{protocol3.index_bucket(task_id)}", task_id)


def claim(admin, prefix: str, lease_ms: int = 60_000) -> str:
    """Takes the shard's due buckets into flight as the worker's claim does (p3/claim.lua); answers the first
    in-flight name."""
    reply = admin.eval(SCRIPTS["p3/claim"].source, 1, prefix, 100, lease_ms, 0, 0, "", 0, 0)
    assert len(reply) > 3, f"nothing was due on {prefix}: {reply}"
    return reply[3]


def dead_letter(admin, prefix: str, task_id: str) -> None:
    """Claims the (due) task and fails it for good, as the worker does on a permanent failure (p3/retry.lua)."""
    flight = claim(admin, prefix)
    reply = admin.eval(SCRIPTS["p3/retry"].source, 1, prefix, flight, task_id, protocol3.index_bucket(task_id), 0,
                       "card declined", 0, 1, 0, 0, 0)
    assert reply[0] == "dead", reply


def protocol2_keys(admin, queue: str):
    return sorted(k for k in admin.keys(f"dq:{{{queue}:*}}:*")
                  if re.search(r"}:(due|due:p1|due:p2|inflight|tasks:\d+)$", k))


class Protocol3ScriptsTest(unittest.TestCase):
    def setUp(self):
        if not CORE_LUA.is_dir():
            self.skipTest(f"core's scripts are not at {CORE_LUA}")

    def test_protocol_3s_scripts_are_shipped_as_p3_names_beside_protocol_2s_unchanged(self):
        self.assertEqual({n for n in SCRIPTS if not n.startswith("p3/")}, {f.stem for f in CORE_LUA.glob("*.lua")})
        self.assertEqual({n for n in SCRIPTS if n.startswith("p3/")}, {"p3/" + f.stem for f in (CORE_LUA / "p3").glob("*.lua")})
        self.assertTrue(all("--@include" not in s.source for s in SCRIPTS.values()))

    def test_protocol_3s_helpers_come_from_p3_include_before_include(self):
        """p3/include/dead.lua and include/dead.lua are different files of the same name: protocol 3's wins."""
        own = (CORE_LUA / "p3" / "include" / "dead.lua").read_bytes().decode("utf-8")
        shared = (CORE_LUA / "include" / "dead.lua").read_bytes().decode("utf-8")
        self.assertNotEqual(own, shared)
        enqueue = SCRIPTS["p3/enqueue"].source
        self.assertIn(own, enqueue)
        self.assertNotIn(shared, enqueue)
        # a helper only protocol 2 has comes from include/
        self.assertIn((CORE_LUA / "include" / "crc32.lua").read_bytes().decode("utf-8"), enqueue)
        self.assertEqual(SCRIPTS["p3/enqueue"].source, assemble(CORE_LUA)["p3/enqueue"])


class Protocol3CallsTest(unittest.TestCase):
    """The calls of protocol 3 as core's BucketQueue sends them: one key, the shard's prefix; the layout epoch last
    (and where, for an enqueue), as protocol 2's."""

    def test_enqueue_sends_n_then_per_task_id_index_bucket_timing_millis_record_and_level(self):
        from delayq.calls import Protocol3Calls
        batch = protocol.prepare([Task("a", delay=timedelta(seconds=5), payload="x", priority=1)], 4, 100, 1000)
        h = str(zlib.crc32(b"a") % 2039)
        reject = Protocol3Calls("orders").enqueue(2, DuplicatePolicy.REJECT, batch, 1000, 7, True)
        self.assertEqual((reject.name, reject.keys, reject.args, reject.shard),
                         ("p3/enqueue", ["dq:{orders:2}:"], ["1", "a", h, "in", "5000", "1rs:x", "1", "7", "present"], 2))
        replace = Protocol3Calls("orders").enqueue(2, DuplicatePolicy.REPLACE, batch, 1000, 7, True)
        self.assertEqual((replace.name, replace.args), ("p3/enqueue_policy", ["replace"] + reject.args))
        anywhere = Protocol3Calls("orders").enqueue(2, DuplicatePolicy.REJECT, batch, 1000, 0, False)
        self.assertEqual(anywhere.args[-2:], ["0", ""])

    def test_calls_by_id_send_the_id_its_index_bucket_and_the_epoch(self):
        from delayq.calls import Protocol3Calls
        calls, h = Protocol3Calls("orders"), str(zlib.crc32(b"b") % 2039)
        self.assertEqual(calls.cancel(1, "b", 3)[:3], ("p3/cancel", ["dq:{orders:1}:"], ["b", h, "3"]))
        self.assertEqual(calls.inspect(1, "b", 3)[:3], ("p3/inspect", ["dq:{orders:1}:"], ["b", h, "3"]))
        self.assertEqual(calls.reschedule(1, "b", "at", 99, 3)[:3], ("p3/reschedule", ["dq:{orders:1}:"], ["b", h, "at", "99", "3"]))
        self.assertEqual(calls.stats(1)[:3], ("p3/stats", ["dq:{orders:1}:"], ["10000"]))
        self.assertEqual([calls.status_of_cancel(r) for r in ("absent", "cancelled", "inflight", "moving")],
                         ["unknown", "cancelled", "inflight", "moving"])


class Protocol3ClientTest(WithRedis, unittest.TestCase):
    def setUp(self):
        self.admin = self.redis.admin
        self.admin.flushall()
        record_protocol3(self.admin, "orders", 4)
        self.q = DelayQueue.connect(self.redis.url, queue="orders", shards=4)
        self.addCleanup(self.q.close)

    def prefix(self, task_id: str) -> str:
        return protocol3.prefix("orders", self.q.shard_of(task_id))

    def place(self, task_id: str) -> Optional[Waiting]:
        return waiting(self.admin, self.prefix(task_id), task_id)

    def test_a_queue_recorded_as_protocol_3_is_spoken_to_and_its_meta_left_as_recorded(self):
        self.assertEqual(self.q.protocol_version, 3)
        self.assertEqual(self.admin.hgetall("dq:{orders}:meta"), {"shards": "4", "protocol": "3"})
        self.admin.hset("dq:{v4}:meta", mapping={"shards": 4, "protocol": 4})
        # named as the version this client records for a new queue, as core's message does
        with mock.patch.dict(os.environ, {"DELAYQ_PROTOCOL": ""}), \
                self.assertRaisesRegex(ProtocolVersionMismatchException, "uses delayq protocol version 4 in Redis, this "
                                                                         "client speaks version 3"):
            DelayQueue.connect(self.redis.url, queue="v4", shards=4)
        with self.assertRaisesRegex(ProtocolVersionMismatchException, "uses delayq protocol version 4 in Redis, this "
                                                                      "client speaks version 2"):
            DelayQueue.connect(self.redis.url, queue="v4", shards=4, protocol_for_new_queues=2)

    def test_enqueue_puts_each_task_in_the_bucket_of_its_window_or_minute_and_level(self):
        before = server_now(self.admin)
        in_a_window = self.q.enqueue("soon", delay=timedelta(seconds=30), payload="s")
        high = self.q.enqueue("high", delay=timedelta(seconds=30), payload="h", priority=Priority.HIGH)
        highest = self.q.enqueue("highest", payload="x", priority=Priority.HIGHEST)
        at = datetime.fromtimestamp((before + 3_600_000) // 1000, tz=timezone.utc)
        in_a_minute = self.q.enqueue("later", due_at=at, payload="l")
        at_ms = self.q.enqueue("later-ms", due_at=before + 7_200_123)
        after = server_now(self.admin)
        self.assertTrue(all(r.status is EnqueueStatus.ADDED for r in (in_a_window, high, highest, in_a_minute, at_ms)))
        self.assertTrue(before + 30_000 <= in_a_window.due_at <= after + 30_000)
        self.assertEqual((in_a_minute.due_at, at_ms.due_at), (int(at.timestamp() * 1000), before + 7_200_123))

        for result, index, level in ((in_a_window, "idx", 0), (high, "idx1", 1), (highest, "idx2", 2)):
            place = self.place(result.id)
            self.assertEqual((place.index, place.level, place.due), (index, level, result.due_at), result.id)
            self.assertEqual(place.start, result.due_at - result.due_at % WINDOW_MS)
            self.assertEqual(protocol.decode_record(place.record).priority, level)
            self.assertEqual(int(indexed(self.admin, self.prefix(result.id), result.id), 36), result.due_at)
        for result in (in_a_minute, at_ms):  # due 10 minutes or more ahead: in the bucket of its minute
            place = self.place(result.id)
            self.assertEqual((place.index, place.due, place.start), ("cidx", result.due_at, result.due_at - result.due_at % MINUTE_MS))
        self.assertEqual(protocol.decode_record(self.place("later").record).payload, "l")
        self.assertEqual(sum(int(self.admin.get(protocol3.prefix("orders", s) + "waiting") or 0) for s in range(4)), 5)
        self.assertEqual(protocol2_keys(self.admin, "orders"), [])
        info = self.q.inspect("high")
        self.assertEqual((info.state, info.score, info.priority, info.attempts, info.record.payload, info.shard),
                         (TaskState.SCHEDULED, high.due_at, 1, 0, "h", self.q.shard_of("high")))

    def test_reject_answers_the_holding_tasks_due_time_and_writes_nothing(self):
        first = self.q.enqueue("a", delay=timedelta(minutes=1), payload="v1")
        again = self.q.enqueue("a", delay=timedelta(minutes=5), payload="v2", on_duplicate=DuplicatePolicy.REJECT)
        self.assertEqual((again.status, again.due_at), (EnqueueStatus.DUPLICATE, first.due_at))
        self.assertEqual(protocol.decode_record(self.place("a").record).payload, "v1")

    def test_keep_earlier_moves_a_task_to_an_earlier_window_only(self):
        now = server_now(self.admin)
        self.q.enqueue("a", due_at=now + 3_600_000, payload="kept record")
        earlier = self.q.enqueue("a", due_at=now + 20_000, payload="ignored", on_duplicate="keep-earlier")
        self.assertEqual((earlier.status, earlier.due_at), (EnqueueStatus.EARLIER, now + 20_000))
        place = self.place("a")
        self.assertEqual((place.index, place.due), ("idx", now + 20_000))
        self.assertEqual(protocol.decode_record(place.record).payload, "kept record")
        self.assertEqual(self.admin.zcard(self.prefix("a") + "cidx"), 0, "the minute's bucket it left is unlisted")
        kept = self.q.enqueue("a", due_at=now + 40_000, on_duplicate=DuplicatePolicy.KEEP_EARLIER)
        self.assertEqual((kept.status, kept.due_at), (EnqueueStatus.KEPT, now + 20_000))
        self.assertEqual(int(indexed(self.admin, self.prefix("a"), "a"), 36), now + 20_000)

    def test_replace_moves_the_task_with_its_new_record_and_level(self):
        now = server_now(self.admin)
        self.q.enqueue("a", due_at=now + 20_000, payload="v1")
        old = self.place("a").bucket
        replaced = self.q.enqueue("a", due_at=now + 30_000, payload="v2", priority=Priority.HIGH,
                                  on_duplicate=DuplicatePolicy.REPLACE)
        self.assertEqual((replaced.status, replaced.due_at), (EnqueueStatus.REPLACED, now + 30_000))
        place = self.place("a")
        self.assertEqual((place.index, place.level, place.due), ("idx1", 1, now + 30_000))
        self.assertEqual(protocol.decode_record(place.record).payload, "v2")
        self.assertEqual(self.admin.exists(self.prefix("a") + "b:" + old), 0)
        self.assertEqual(self.q.inspect("a").priority, 1)

    def test_debounce_pushes_the_due_time_up_to_the_bursts_deadline(self):
        first = self.q.enqueue("d", delay=timedelta(minutes=1), payload="v1", debounce_max_wait=timedelta(minutes=5),
                               on_duplicate="debounce")
        self.assertEqual(first.status, EnqueueStatus.ADDED)
        capped = self.q.enqueue("d", delay=timedelta(minutes=20), payload="v2", debounce_max_wait=timedelta(minutes=5),
                                on_duplicate=DuplicatePolicy.DEBOUNCE)
        self.assertEqual(capped.status, EnqueueStatus.REPLACED)
        self.assertGreater(capped.due_at, first.due_at)
        self.assertLess(capped.due_at, first.due_at + 5 * 60_000)
        place = self.place("d")
        self.assertEqual((place.index, place.due), ("idx", capped.due_at))
        self.assertEqual(json.loads(place.record)["payload"], "v2")
        self.assertIn("debounceMaxWaitMs", json.loads(place.record))

    def test_a_dedup_window_refuses_the_id_after_a_cancel_in_every_policy(self):
        now = server_now(self.admin)
        self.assertEqual(self.q.enqueue("w", due_at=now + 60_000, dedup_window=timedelta(hours=1)).status, EnqueueStatus.ADDED)
        self.assertEqual(self.q.cancel("w"), CancelResult.CANCELLED)
        for policy in ("reject", "replace", "keep-earlier"):
            r = self.q.enqueue("w", due_at=now + 60_000, on_duplicate=policy)
            self.assertEqual(r.status, EnqueueStatus.WINDOW, policy)
            self.assertGreaterEqual(r.due_at, now + 3_600_000)
        self.assertIsNone(self.place("w"))

    def test_reschedule_moves_a_waiting_task_and_keeps_its_record_level_and_attempt(self):
        r = self.q.enqueue("r", delay=timedelta(seconds=30), payload="p", priority=Priority.HIGHEST)
        moved = self.q.reschedule("r", due_at=r.due_at + 3_600_000)
        self.assertEqual((moved.status, moved.due_at), (RescheduleStatus.RESCHEDULED, r.due_at + 3_600_000))
        place = self.place("r")
        self.assertEqual((place.index, place.due), ("cidx", moved.due_at))
        self.assertEqual(protocol.decode_record(place.record).payload, "p")
        self.assertEqual(self.admin.zcard(self.prefix("r") + "idx2"), 0)
        back = self.q.reschedule("r", delay=timedelta(seconds=10))
        self.assertEqual(self.place("r").index, "idx2")
        info = self.q.inspect("r")
        self.assertEqual((info.score, info.priority, info.attempts), (back.due_at, 2, 0))
        unknown = self.q.reschedule("nope", delay=timedelta(seconds=1))
        self.assertEqual((unknown.status, unknown.due_at), (RescheduleStatus.UNKNOWN, -1))

    def test_cancel_takes_the_task_out_of_its_bucket_and_the_id_index(self):
        self.q.enqueue("c", delay=timedelta(minutes=1))
        bucket = self.prefix("c") + "b:" + self.place("c").bucket
        self.assertEqual(self.q.cancel("c"), CancelResult.CANCELLED)
        self.assertEqual((self.admin.exists(bucket), indexed(self.admin, self.prefix("c"), "c")), (0, None))
        self.assertEqual(self.admin.zcard(self.prefix("c") + "idx"), 0)
        self.assertEqual(self.q.cancel("c"), CancelResult.UNKNOWN)
        self.assertEqual(self.q.inspect("c").state, TaskState.UNKNOWN)

    def test_a_grouped_task_waits_in_its_groups_bucket_of_its_window(self):
        """A task of group g due at D (within 10 minutes) waits in b:w<base 36 of D - D % 100>#<g>:<k>, listed in gidx
        and gx:<g> at the window's start; g is in groups at its earliest window's start. A group key may hold ':' and
        '@': the scripts read it between '#' and the last ':<k>'."""
        tenant, other = "tenant-1", "eu:acme@2/x"
        ids = ("tenant-task-1", "tenant-task-3", "other-task")
        prefix = self.prefix(ids[0])
        self.assertEqual({self.prefix(i) for i in ids}, {prefix}, "the grouped tasks share a shard")
        now = server_now(self.admin)
        first, second = now + 60_000 + 17, now + 120_000 + 42

        def bucket(due: int, group: str):
            start = due - due % WINDOW_MS
            return f"w{protocol._base36(start)}#{group}:0", start

        results = self.q.enqueue_many([Task("tenant-task-1", due_at=first, group=tenant, payload="a"),
                                       Task("tenant-task-3", due_at=second, group=tenant),
                                       Task("other-task", due_at=second, group=other, max_attempts=3),
                                       Task("plain-task", due_at=first, payload="p")])
        self.assertEqual([(r.status, r.due_at) for r in results], [(EnqueueStatus.ADDED, first), (EnqueueStatus.ADDED, second),
                                                                   (EnqueueStatus.ADDED, second), (EnqueueStatus.ADDED, first)])
        for task_id, group, due in (("tenant-task-1", tenant, first), ("tenant-task-3", tenant, second), ("other-task", other, second)):
            name, start = bucket(due, group)
            value = self.admin.hget(prefix + "b:" + name, task_id)
            self.assertIsNotNone(value, f"{task_id} waits in b:{name}")
            self.assertEqual(start + int(value[:2], 36), due)
            self.assertEqual(json.loads(value[2:])["group"], group, "the record (the JSON form) names the group")
            self.assertEqual(self.admin.zscore(prefix + "gidx", name), start)
            self.assertEqual(self.admin.zscore(prefix + "gx:" + group, name), start)
            self.assertEqual(int(indexed(self.admin, prefix, task_id), 36), due)
            self.assertIsNone(waiting(self.admin, prefix, task_id), "in none of the indexes of ungrouped buckets")
        self.assertEqual((self.admin.zcard(prefix + "gidx"), self.admin.zcard(prefix + "gx:" + tenant)), (3, 2))
        self.assertEqual(self.admin.zrange(prefix + "groups", 0, -1, withscores=True),
                         [(tenant, bucket(first, tenant)[1]), (other, bucket(second, other)[1])])
        self.assertEqual(self.place("plain-task").index, "idx")
        self.assertEqual(self.admin.get(prefix + "waiting"), "3")
        info = self.q.inspect("tenant-task-1")
        self.assertEqual((info.state, info.score, info.priority, info.record.payload), (TaskState.SCHEDULED, first, 0, "a"))

        # cancel: the task and its emptied window go, and its group's turn follows its next window
        window1 = bucket(first, tenant)[0]
        self.assertEqual(self.q.cancel("tenant-task-1"), CancelResult.CANCELLED)
        self.assertEqual(self.admin.exists(prefix + "b:" + window1), 0)
        self.assertEqual((self.admin.zscore(prefix + "gidx", window1), self.admin.zscore(prefix + "gx:" + tenant, window1),
                          indexed(self.admin, prefix, "tenant-task-1")), (None, None, None))
        self.assertEqual(self.admin.zscore(prefix + "groups", tenant), bucket(second, tenant)[1])
        # reschedule: the task moves to its group's bucket of its new window, and the group's turn with it
        third = now + 180_000 + 5
        moved = self.q.reschedule("other-task", due_at=third)
        self.assertEqual((moved.status, moved.due_at), (RescheduleStatus.RESCHEDULED, third))
        name3, start3 = bucket(third, other)
        self.assertEqual(self.admin.zrange(prefix + "gx:" + other, 0, -1, withscores=True), [(name3, start3)])
        self.assertEqual(json.loads(self.admin.hget(prefix + "b:" + name3, "other-task")[2:])["group"], other)
        self.assertEqual(self.admin.zscore(prefix + "groups", other), start3)
        # a group's last task gone: gx:<group> and its place in groups go too
        for task_id in ("tenant-task-3", "other-task"):
            self.assertEqual(self.q.cancel(task_id), CancelResult.CANCELLED)
        self.assertEqual(self.admin.exists(prefix + "b:" + bucket(second, tenant)[0], prefix + "b:" + name3, prefix + "gx:" + tenant,
                                           prefix + "gx:" + other, prefix + "gidx", prefix + "groups", prefix + "waiting"), 0)
        self.assertEqual(self.q.cancel("tenant-task-3"), CancelResult.UNKNOWN)
        self.assertEqual(self.q.stats().scheduled, 1)

        # a group still goes with priority 0 only, before anything of the batch is written
        with self.assertRaises(InvalidInputException) as caught:
            self.q.enqueue_many([Task("plain-2"), Task("tenant-task-9", group=tenant, priority=Priority.HIGH)])
        self.assertEqual(str(caught.exception), "group: cannot be combined with priority 1: a grouped task has priority 0 "
                                                "(groups are served round robin, each in due-time order)")
        self.assertEqual(self.q.inspect("plain-2").state, TaskState.UNKNOWN)

    def test_a_task_in_flight_is_left_running_by_every_call(self):
        self.q.enqueue("run", payload="p")
        flight = claim(self.admin, self.prefix("run"))
        self.assertTrue(self.admin.exists(self.prefix("run") + "f:" + flight))
        info = self.q.inspect("run")
        lease = int(self.admin.zscore(self.prefix("run") + "lease", flight))
        self.assertEqual((info.state, info.score, info.attempts, info.record.payload), (TaskState.IN_FLIGHT, lease, 1, "p"))
        self.assertEqual(self.q.cancel("run"), CancelResult.IN_FLIGHT)
        self.assertEqual(self.q.reschedule("run", delay=timedelta(minutes=1)).status, RescheduleStatus.IN_FLIGHT)
        for policy in ("replace", "keep-earlier"):
            r = self.q.enqueue("run", payload="new", on_duplicate=policy)
            self.assertEqual((r.status, r.due_at), (EnqueueStatus.INFLIGHT, lease), policy)
        debounced = self.q.enqueue("run", debounce_max_wait=timedelta(minutes=1), on_duplicate="debounce")
        self.assertEqual(debounced.status, EnqueueStatus.INFLIGHT)
        self.assertEqual(self.q.enqueue("run").status, EnqueueStatus.DUPLICATE)
        self.assertEqual(self.admin.hget(self.prefix("run") + "f:" + flight, "run")[2:], info.raw_record)

    def test_a_dead_letter_answers_as_on_protocol_2_until_replaced_or_cancelled(self):
        for task_id, payload in (("dead-1", "p"), ("dead-2", "q")):  # one at a time: a claim takes every due bucket
            self.q.enqueue(task_id, payload=payload)
            dead_letter(self.admin, self.prefix(task_id), task_id)
        info = self.q.inspect("dead-1")
        self.assertEqual((info.state, info.last_error, info.record.payload), (TaskState.DEAD, "card declined", "p"))
        self.assertEqual(indexed(self.admin, self.prefix("dead-1"), "dead-1"), "~")
        self.assertEqual(self.q.reschedule("dead-1", delay=timedelta(minutes=1)).status, RescheduleStatus.DEAD)
        self.assertEqual(self.q.enqueue("dead-1", on_duplicate="keep-earlier").status, EnqueueStatus.DEAD)
        self.assertEqual(self.q.enqueue("dead-1").status, EnqueueStatus.DUPLICATE)
        replaced = self.q.enqueue("dead-1", delay=timedelta(minutes=1), payload="again", on_duplicate="replace")
        self.assertEqual(replaced.status, EnqueueStatus.REPLACED)
        self.assertEqual((self.place("dead-1").due, self.q.inspect("dead-1").state), (replaced.due_at, TaskState.SCHEDULED))
        self.assertEqual(self.q.cancel("dead-2"), CancelResult.CANCELLED)
        self.assertIsNone(self.admin.zscore(self.prefix("dead-2") + "dead", "dead-2"))
        self.assertEqual(self.q.inspect("dead-2").state, TaskState.UNKNOWN)

    def test_stats_count_the_buckets_waiting_due_in_flight_and_dead(self):
        self.q.enqueue("later", delay=timedelta(hours=1))
        self.q.enqueue("in-flight")
        claim(self.admin, self.prefix("in-flight"))
        self.q.enqueue("dead")
        dead_letter(self.admin, self.prefix("dead"), "dead")
        due = self.q.enqueue("due")
        stats = self.q.stats()
        self.assertEqual((stats.scheduled, stats.due, stats.inflight, stats.dead), (1, 1, 1, 1))
        self.assertEqual(stats.shards[self.q.shard_of("due")].oldest_due_at, due.due_at)
        self.assertEqual(len(stats.shards), 4)

    def test_a_batch_answers_in_input_order_across_shards_and_calls(self):
        tasks = [Task(f"t-{i}", delay=timedelta(hours=1), payload=str(i)) for i in range(1300)] + [Task("t-5")]
        results = self.q.enqueue_many(tasks)
        self.assertEqual([r.id for r in results], [t.id for t in tasks])
        self.assertEqual([r.status for r in results], [EnqueueStatus.ADDED] * 1300 + [EnqueueStatus.DUPLICATE])
        self.assertEqual(self.q.stats().scheduled, 1300)
        self.assertEqual(protocol.decode_record(self.place("t-777").record).payload, "777")

    def test_calls_by_id_walk_the_lookup_order_on_protocol_3_too(self):
        """A queue grown 4 -> 8 (meta and every shard's stamp): a task a stale producer left on the id's shard under
        4 is found there, since protocol 3's "absent" sends the call on to the next shard as "unknown" does."""
        self.admin.hset("dq:{grown}:meta", "protocol", 3)
        grow_by_hand(self.admin, "grown", 4, 8)
        stray = next(f"s-{n}" for n in range(100) if protocol.shard_of(f"s-{n}", 4) != protocol.shard_of(f"s-{n}", 8))
        old = protocol3.prefix("grown", protocol.shard_of(stray, 4))
        self.admin.eval(SCRIPTS["p3/enqueue"].source, 1, old, 1, stray, protocol3.index_bucket(stray), "in", 60_000, "0a:x", 0, 2, "")
        with DelayQueue.connect(self.redis.url, queue="grown", shards=4) as grown:
            info = grown.inspect(stray)
            self.assertEqual((info.state, info.shard), (TaskState.SCHEDULED, protocol.shard_of(stray, 4)))
            self.assertEqual(grown.reschedule(stray, delay=timedelta(minutes=2)).status, RescheduleStatus.RESCHEDULED)
            self.assertEqual(grown.cancel(stray), CancelResult.CANCELLED)
            self.assertEqual(grown.cancel(stray), CancelResult.UNKNOWN)
            self.assertEqual(grown.inspect(stray).shard, protocol.shard_of(stray, 8))

    def test_a_queue_grown_mid_way_is_followed_by_a_client_of_the_old_layout(self):
        """A 1-shard protocol-3 queue grows to 2 while a client runs on epoch 0: refused (LAYOUT), it re-reads the meta
        hash; during the migration the old shard is asked first ("present"), after it the earlier count is looked at."""
        record_protocol3(self.admin, "grows", 1)
        old = DelayQueue.connect(self.redis.url, queue="grows", shards=1)
        self.addCleanup(old.close)
        # ids whose shard under 2 is 1: not where the 1-shard layout put them
        kept, fresh, later = [i for i in (f"g-{n}" for n in range(100)) if protocol.shard_of(i, 2) == 1][:3]
        self.assertEqual(old.enqueue(kept, delay=timedelta(minutes=5), payload="k").status, EnqueueStatus.ADDED)
        self.admin.hset("dq:{grows}:meta", mapping={"shards": 2, "layout": 1, "layouts": "1,2", "migration": "1 2"})
        for s in range(2):
            self.admin.hset(f"dq:{{grows:{s}}}:layout", "stamp", "1 2 1")
        self.assertEqual(old.enqueue(kept).status, EnqueueStatus.DUPLICATE)  # on shard 0, "present"
        self.assertEqual((old.layout.epoch, old.shards), (1, 2))
        self.assertEqual(old.enqueue(fresh, delay=timedelta(minutes=5)).status, EnqueueStatus.ADDED)  # absent: shard 1
        self.assertIsNotNone(waiting(self.admin, protocol3.prefix("grows", 1), fresh))
        grow_by_hand(self.admin, "grows", 1, 2)  # the migration ended (the mover did not take `kept`: a stray)
        self.assertEqual(old.enqueue(later).status, EnqueueStatus.ADDED)  # refused on epoch 1, then on shard 1
        self.assertEqual(old.layout.epoch, 2)
        self.assertIsNotNone(waiting(self.admin, protocol3.prefix("grows", 1), later))
        info = old.inspect(kept)  # not on shard 1: found on its shard under the earlier count
        self.assertEqual((info.state, info.shard, info.record.payload), (TaskState.SCHEDULED, 0, "k"))
        self.assertEqual(old.cancel(kept), CancelResult.CANCELLED)
        self.assertIsNone(waiting(self.admin, protocol3.prefix("grows", 0), kept))

    def test_scripts_are_sent_again_after_the_script_cache_is_flushed(self):
        self.q.enqueue("first")
        self.admin.script_flush()
        self.assertEqual(self.q.enqueue("second").status, EnqueueStatus.ADDED)
        self.assertEqual(len(self.q.enqueue_many([Task(f"x-{i}") for i in range(20)], on_duplicate="replace")), 20)
        self.admin.script_flush()
        self.assertEqual(self.q.stats().due, 22)
        self.admin.script_flush()
        self.assertEqual(self.q.inspect("second").state, TaskState.SCHEDULED)

    def test_replica_acks_wait_after_protocol_3s_enqueue(self):
        with DelayQueue.connect(self.redis.url, queue="orders", shards=4, replica_acks=1, replica_ack_timeout=0.05) as acked:
            with self.assertRaises(ReplicaAckException) as caught:
                acked.enqueue("w-1", payload="x")
            self.assertEqual(caught.exception.results[0].status, EnqueueStatus.ADDED)
            self.assertEqual(protocol.decode_record(self.place("w-1").record).payload, "x")
            self.admin.script_flush()  # the NOSCRIPT path of the pipelined EVALSHA + WAIT
            with self.assertRaises(ReplicaAckException) as again:
                acked.enqueue("w-1", on_duplicate="keep-earlier")
            self.assertEqual(again.exception.results[0].status, EnqueueStatus.KEPT)

    def test_the_id_index_bucket_is_the_one_the_scripts_compute(self):
        """crc32(id) % 2039 as core's include/crc32.lua computes it (the scripts hash ids they adopt themselves)."""
        crc32 = (CORE_LUA / "include" / "crc32.lua").read_text(encoding="utf-8")
        for task_id in ("order-8812", "ünïcödé-✓", "x" * 256):
            self.assertEqual(self.admin.eval(crc32 + "\nreturn crc32(ARGV[1]) % 2039", 0, task_id),
                             protocol3.index_bucket(task_id), task_id)

    def test_a_protocol_2_queue_beside_it_keeps_protocol_2s_keys(self):
        with DelayQueue.connect(self.redis.url, queue="classic", shards=4, protocol_for_new_queues=2) as classic:
            self.assertEqual(classic.protocol_version, 2)
            self.assertEqual(self.admin.hgetall("dq:{classic}:meta"), {"shards": "4", "protocol": "2"})
            r = classic.enqueue("c-1", delay=timedelta(minutes=1), payload="p", priority=Priority.HIGH)
            shard = classic.shard_of("c-1")
            self.assertEqual(self.admin.zscore(f"dq:{{classic:{shard}}}:due:p1", "c-1"), r.due_at)
            self.assertEqual(protocol.decode_record(self.admin.hget(protocol.record_key("classic", shard, "c-1"), "c-1")).payload, "p")
            self.assertEqual(self.admin.keys(f"dq:{{classic:{shard}}}:ix:*") + self.admin.keys(f"dq:{{classic:{shard}}}:b:*"), [])
            self.assertEqual(classic.cancel("c-1"), CancelResult.CANCELLED)


class NewQueueProtocolTest(WithRedis, unittest.TestCase):
    """The protocol a queue this client creates is recorded with: 3 by default; 2 when asked for (the option
    ``protocol_for_new_queues``, else the environment variable ``DELAYQ_PROTOCOL``, as core reads it)."""

    def setUp(self):
        self.admin = self.redis.admin
        self.admin.flushall()
        env = mock.patch.dict(os.environ)
        env.start()
        self.addCleanup(env.stop)
        os.environ.pop("DELAYQ_PROTOCOL", None)

    def test_a_new_queue_is_recorded_as_protocol_3_and_its_first_task_waits_in_protocol_3s_buckets(self):
        with DelayQueue.connect(self.redis.url, queue="fresh", shards=4) as q:
            self.assertEqual(self.admin.hget("dq:{fresh}:meta", "protocol"), "3")
            self.assertEqual(q.protocol_version, 3)
            r = q.enqueue("first", delay=timedelta(seconds=30), payload="p")
            self.assertEqual(r.status, EnqueueStatus.ADDED)
            prefix = protocol3.prefix("fresh", q.shard_of("first"))
            place = waiting(self.admin, prefix, "first")
            self.assertEqual((place.index, place.due), ("idx", r.due_at))
            self.assertEqual(protocol.decode_record(place.record).payload, "p")
            self.assertEqual(int(indexed(self.admin, prefix, "first"), 36), r.due_at)
            self.assertEqual(protocol2_keys(self.admin, "fresh"), [])

    def test_the_option_2_records_protocol_2_and_the_task_waits_in_protocol_2s_keys(self):
        with DelayQueue.connect(self.redis.url, queue="classic", shards=4, protocol_for_new_queues=2) as q:
            self.assertEqual(self.admin.hget("dq:{classic}:meta", "protocol"), "2")
            self.assertEqual(q.protocol_version, 2)
            r = q.enqueue("c-1", delay=timedelta(seconds=30))
            self.assertEqual(self.admin.zscore(f"dq:{{classic:{q.shard_of('c-1')}}}:due", "c-1"), r.due_at)
        with DelayQueue.connect(self.redis.url, queue="explicit", shards=4, protocol_for_new_queues=3) as q:
            self.assertEqual((self.admin.hget("dq:{explicit}:meta", "protocol"), q.protocol_version), ("3", 3))

    def test_an_existing_queue_keeps_the_protocol_its_meta_records(self):
        DelayQueue.connect(self.redis.url, queue="old", shards=4, protocol_for_new_queues=2).close()
        with DelayQueue.connect(self.redis.url, queue="old", shards=4) as q:
            self.assertEqual((self.admin.hget("dq:{old}:meta", "protocol"), q.protocol_version), ("2", 2))
        DelayQueue.connect(self.redis.url, queue="new", shards=4).close()
        with DelayQueue.connect(self.redis.url, queue="new", shards=4, protocol_for_new_queues=2) as q:
            self.assertEqual((self.admin.hget("dq:{new}:meta", "protocol"), q.protocol_version), ("3", 3))

    def test_delayq_protocol_picks_it_when_the_option_is_not_given(self):
        os.environ["DELAYQ_PROTOCOL"] = "2"
        DelayQueue.connect(self.redis.url, queue="by-env", shards=4).close()
        self.assertEqual(self.admin.hget("dq:{by-env}:meta", "protocol"), "2")
        DelayQueue.connect(self.redis.url, queue="option-wins", shards=4, protocol_for_new_queues=3).close()
        self.assertEqual(self.admin.hget("dq:{option-wins}:meta", "protocol"), "3")
        os.environ["DELAYQ_PROTOCOL"] = " 3 "
        DelayQueue.connect(self.redis.url, queue="by-env-3", shards=4).close()
        self.assertEqual(self.admin.hget("dq:{by-env-3}:meta", "protocol"), "3")
        os.environ["DELAYQ_PROTOCOL"] = "4"
        with self.assertRaises(InvalidInputException) as caught:
            DelayQueue.connect(self.redis.url, queue="refused", shards=4)
        self.assertEqual(str(caught.exception), "DELAYQ_PROTOCOL: must be 2 or 3, got '4'")
        self.assertEqual(self.admin.exists("dq:{refused}:meta"), 0)

    def test_a_bad_option_is_refused_by_name_before_anything_is_written(self):
        for bad in (4, 1, "3", True, 2.0):
            with self.assertRaises(InvalidInputException) as caught:
                DelayQueue.connect(self.redis.url, queue="bad", shards=4, protocol_for_new_queues=bad)
            self.assertEqual(caught.exception.field, "protocol_for_new_queues")
            self.assertEqual(str(caught.exception), f"protocol_for_new_queues: must be 2 or 3, got {bad!r}")
        # checked before connecting: a wrong option is named even where Redis is unreachable
        with self.assertRaisesRegex(InvalidInputException, "^protocol_for_new_queues: must be 2 or 3, got 4$"):
            DelayQueue.connect("redis://127.0.0.1:1", queue="bad", shards=4, protocol_for_new_queues=4)
        self.assertEqual(self.admin.keys("*"), [])

    def test_the_asyncio_client_records_the_same(self):
        async def run():
            async with await AsyncDelayQueue.connect(self.redis.url, queue="fresh", shards=4) as q:
                r = await q.enqueue("a-1", delay=timedelta(seconds=30))
                self.assertIsNotNone(waiting(self.admin, protocol3.prefix("fresh", q.shard_of("a-1")), "a-1"))
                self.assertEqual(r.status, EnqueueStatus.ADDED)
            async with await AsyncDelayQueue.connect(self.redis.url, queue="classic", shards=4, protocol_for_new_queues=2):
                pass
            with self.assertRaisesRegex(InvalidInputException, "^protocol_for_new_queues: must be 2 or 3, got 5$"):
                await AsyncDelayQueue.connect(self.redis.url, queue="bad", shards=4, protocol_for_new_queues=5)
        asyncio.run(run())
        self.assertEqual((self.admin.hget("dq:{fresh}:meta", "protocol"), self.admin.hget("dq:{classic}:meta", "protocol")),
                         ("3", "2"))
        self.assertEqual(self.admin.exists("dq:{bad}:meta"), 0)


class Protocol3AsyncClientTest(WithRedis, unittest.IsolatedAsyncioTestCase):
    async def test_the_asyncio_client_speaks_protocol_3_as_the_sync_one_does(self):
        admin = self.redis.admin
        admin.flushall()
        record_protocol3(admin, "orders", 4)
        async with await AsyncDelayQueue.connect(self.redis.url, queue="orders", shards=4) as q:
            self.assertEqual(q.protocol_version, 3)
            results = await q.enqueue_many([Task(f"o-{i}", delay=timedelta(minutes=1), payload=f"p{i}", priority=i % 3)
                                            for i in range(30)])
            self.assertTrue(all(r.added for r in results))
            prefix = protocol3.prefix("orders", q.shard_of("o-7"))
            place = waiting(admin, prefix, "o-7")
            self.assertEqual((place.index, place.due), ("idx1", results[7].due_at))
            self.assertEqual((await q.enqueue("o-1")).status, EnqueueStatus.DUPLICATE)
            earlier = await q.enqueue("o-2", delay=timedelta(seconds=5), on_duplicate=DuplicatePolicy.KEEP_EARLIER)
            self.assertEqual(earlier.status, EnqueueStatus.EARLIER)
            info = await q.inspect("o-7")
            self.assertEqual((info.state, info.record.payload, info.priority), (TaskState.SCHEDULED, "p7", 1))
            self.assertEqual(await q.cancel("o-7"), CancelResult.CANCELLED)
            self.assertIsNone(waiting(admin, prefix, "o-7"))
            self.assertEqual((await q.reschedule("o-8", delay=timedelta(0))).status, RescheduleStatus.RESCHEDULED)
            stats = await q.stats()
            self.assertEqual((stats.scheduled, stats.due), (28, 1))
            admin.script_flush()
            self.assertEqual((await q.enqueue("after-flush", on_duplicate="replace")).status, EnqueueStatus.ADDED)
            self.assertEqual(protocol2_keys(admin, "orders"), [])
        async with await AsyncDelayQueue.connect(self.redis.url, queue="orders", shards=4, replica_acks=1,
                                                 replica_ack_timeout=0.05) as acked:
            with self.assertRaises(ReplicaAckException) as caught:
                await acked.enqueue("w-2")
            self.assertEqual(caught.exception.results[0].status, EnqueueStatus.ADDED)
            self.assertIsNotNone(waiting(admin, protocol3.prefix("orders", acked.shard_of("w-2")), "w-2"))


if __name__ == "__main__":
    unittest.main()
