"""The sync and asyncio clients against a real redis-server: operations, policies, meta checks, NOSCRIPT
recovery, the wake-up marker, replica acknowledgements, and that the shipped scripts are core's."""
import asyncio
import json
import unittest
from datetime import timedelta
from pathlib import Path

from delayq import (InvalidInputException, CancelResult, DelayQueue, DuplicatePolicy, EnqueueStatus, Priority, ProtocolVersionMismatchException,
                    ReplicaAckException, RescheduleStatus, ShardCountMismatchException, Task, TaskCompletion, TaskProgress, TaskState, protocol)
from delayq._lua import assemble
from delayq.aio import AsyncDelayQueue
from delayq.scripts import SCRIPTS

from .redis_server import WithRedis

CORE_LUA = Path(__file__).resolve().parents[3] / "src" / "main" / "resources" / "delayq" / "lua"


def server_now(r) -> int:
    seconds, micros = r.time()
    return seconds * 1000 + micros // 1000


def grow_by_hand(r, queue: str, old: int, new: int) -> None:
    """What core's mover leaves after growing ``old`` to ``new`` shards: the meta's layout fields and every shard's stamp."""
    r.hset(f"dq:{{{queue}}}:meta", mapping={"shards": new, "layout": 2, "layouts": f"{old},{new}"})
    for s in range(new):
        r.hset(f"dq:{{{queue}:{s}}}:layout", "stamp", f"2 {new} 0")


class ScriptsTest(unittest.TestCase):
    def test_the_installed_scripts_are_cores_files_assembled_now(self):
        """A package built before core's scripts changed fails here (the interop tests compare with Java too)."""
        if not CORE_LUA.is_dir():
            self.skipTest(f"core's scripts are not at {CORE_LUA}")
        self.assertEqual({n: s.source for n, s in SCRIPTS.items()}, assemble(CORE_LUA))
        self.assertTrue(all("--@include" not in s.source for s in SCRIPTS.values()))


class ClientTest(WithRedis, unittest.TestCase):
    """On a queue created as protocol 2 (its keys are read directly); test_protocol3.py runs protocol 3, the default."""

    def setUp(self):
        self.admin = self.redis.admin
        self.admin.flushall()
        self.q = DelayQueue.connect(self.redis.url, queue="orders", shards=4, protocol_for_new_queues=2)
        self.addCleanup(self.q.close)

    def test_enqueue_inspect_reschedule_cancel_and_stats(self):
        before = server_now(self.admin)
        r = self.q.enqueue("order-8812", delay=timedelta(minutes=30), payload='{"action":"cancel-if-unpaid"}',
                           priority=Priority.HIGH)
        self.assertEqual(r.status, EnqueueStatus.ADDED)
        self.assertGreaterEqual(r.due_at, before + 1_800_000)
        self.assertLessEqual(r.due_at, server_now(self.admin) + 1_800_000)
        info = self.q.inspect("order-8812")
        self.assertEqual((info.state, info.score, info.priority, info.shard),
                         (TaskState.SCHEDULED, r.due_at, 1, protocol.shard_of("order-8812", 4)))
        self.assertEqual(info.record.payload, '{"action":"cancel-if-unpaid"}')
        # the record lives in its bucket hash, in the compact form
        key = protocol.record_key("orders", info.shard, "order-8812")
        self.assertTrue(self.admin.hget(key, "order-8812").startswith("1"))

        moved = self.q.reschedule("order-8812", due_at=r.due_at + 1000)
        self.assertEqual((moved.status, moved.due_at), (RescheduleStatus.RESCHEDULED, r.due_at + 1000))
        self.assertEqual(self.q.reschedule("nope", delay=timedelta(seconds=1)).status, RescheduleStatus.UNKNOWN)
        self.q.enqueue("due-now")
        stats = self.q.stats()
        self.assertEqual((stats.scheduled, stats.due, stats.inflight, stats.dead), (1, 1, 0, 0))
        self.assertEqual(self.q.cancel("order-8812"), CancelResult.CANCELLED)
        self.assertEqual(self.q.cancel("order-8812"), CancelResult.UNKNOWN)
        self.assertEqual(self.admin.hget(key, "order-8812"), None)

    def test_per_task_options_are_stored_in_the_record(self):
        tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        expires = server_now(self.admin) + 3_600_000
        self.q.enqueue("capture-P1", payload="{}", expires_at=expires, on_expiry="discard", max_attempts=10,
                       backoff=timedelta(seconds=2), backoff_max=timedelta(minutes=10), backoff_multiplier=3,
                       traceparent=tp, tracestate="congo=t61rcWkgMzE")
        record = json.loads(self.q.inspect("capture-P1").raw_record)
        self.assertEqual({k: v for k, v in record.items() if k != "enqueuedAt"},
                         {"payload": "{}", "expiresAt": expires, "onExpiry": "discard", "maxAttempts": 10, "backoffMs": 2000,
                          "backoffMaxMs": 600000, "backoffMultiplier": 3, "traceparent": tp, "tracestate": "congo=t61rcWkgMzE"})
        with self.assertRaises(InvalidInputException) as caught:
            self.q.enqueue("t", max_attempts=0)
        self.assertEqual(str(caught.exception), "maxAttempts: must be 1 to 1000, got 0")
        self.assertEqual(self.q.inspect("t").state, TaskState.UNKNOWN)

    def test_a_grouped_task_waits_in_its_groups_due_set_its_record_naming_the_group(self):
        r = self.q.enqueue("tenant-task-1", delay=timedelta(minutes=5), payload="p", group="tenant-42",
                           traceparent="00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        prefix = f"dq:{{orders:{self.q.shard_of('tenant-task-1')}}}:"
        self.assertEqual(self.admin.zscore(prefix + "group:tenant-42", "tenant-task-1"), r.due_at)
        self.assertIsNone(self.admin.zscore(prefix + "due", "tenant-task-1"))
        raw = self.q.inspect("tenant-task-1").raw_record
        self.assertEqual(json.loads(raw)["group"], "tenant-42")
        self.assertLess(raw.index('"traceparent"'), raw.index('"group"'), "core's field order")
        for bad, message in (({"priority": 1}, "group: cannot be combined with priority 1: a grouped task has priority 0 "
                                               "(groups are served round robin, each in due-time order)"),
                             ({"group": "tenant 42"}, "group: may hold only ASCII letters, digits and - _ . : @ /, got ' ' "
                                                      'at offset 6 of "tenant 42"')):
            with self.assertRaises(InvalidInputException) as caught:
                self.q.enqueue_many([Task("plain-1"), Task("tenant-task-2", **{"group": "tenant-42", **bad})])
            self.assertEqual(str(caught.exception), message)
        self.assertEqual(self.q.inspect("plain-1").state, TaskState.UNKNOWN)
        self.assertEqual(self.q.cancel("tenant-task-1"), CancelResult.CANCELLED)
        self.assertEqual(self.admin.exists(prefix + "group:tenant-42"), 0)

    def test_inspect_shows_the_progress_a_running_handler_reported(self):
        """The progress entry as core's progress.lua writes it (``<at ms>|<percent>|<note>``), shown in flight only."""
        now = server_now(self.admin)
        self.q.enqueue("export-7", delay=timedelta(hours=1))
        shard = protocol.shard_of("export-7", 4)
        prefix = f"dq:{{orders:{shard}}}:"
        self.admin.hset(prefix + "progress", "export-7", f"{now}|40|4,000 of 10,000 rows — ünïcödé | ✓")
        self.assertIsNone(self.q.inspect("export-7").progress, "a waiting task has no progress, whatever is stored")
        # claimed by hand, as claim.lua would: out of its due set, into the in-flight set under a lease
        self.admin.zrem(prefix + "due", "export-7")
        self.admin.zadd(prefix + "inflight", {"export-7": now + 60_000})
        info = self.q.inspect("export-7")
        self.assertEqual(info.state, TaskState.IN_FLIGHT)
        self.assertEqual(info.progress, TaskProgress(40.0, "4,000 of 10,000 rows — ünïcödé | ✓", now))
        self.admin.hdel(prefix + "progress", "export-7")
        self.assertIsNone(self.q.inspect("export-7").progress)

    def test_inspect_shows_a_succeeded_tasks_completion_record(self):
        """The completion record as core's ack.lua keeps it while results are kept, beside a new task of the same id too."""
        now = server_now(self.admin)
        shard = protocol.shard_of("refund-7", 4)
        prefix = f"dq:{{orders:{shard}}}:"
        self.admin.hset(prefix + "done", "refund-7", f"{now}|2|35|0|worker-a1b2c3|refund r-91 | issued ✓")
        self.admin.zadd(prefix + "done:at", {"refund-7": now})
        info = self.q.inspect("refund-7")
        self.assertEqual(info.state, TaskState.SUCCEEDED)
        self.assertEqual((info.score, info.attempts), (now, 2))
        self.assertEqual(info.completion, TaskCompletion(now, 2, 35, "worker-a1b2c3", "refund r-91 | issued ✓", False))
        self.q.enqueue("refund-7", delay=timedelta(hours=1))
        again = self.q.inspect("refund-7")
        self.assertEqual(again.state, TaskState.SCHEDULED)
        self.assertEqual(again.completion.result, "refund r-91 | issued ✓")
        self.assertIsNone(self.q.inspect("never-seen").completion)

    def test_duplicate_policies(self):
        now = server_now(self.admin)
        self.assertEqual(self.q.enqueue("a", due_at=now + 10_000).status, EnqueueStatus.ADDED)
        self.assertEqual(self.q.enqueue("a", due_at=now + 1).status, EnqueueStatus.DUPLICATE)
        self.assertEqual(self.q.enqueue("a", due_at=now + 5_000, on_duplicate="keep-earlier").status, EnqueueStatus.EARLIER)
        kept = self.q.enqueue("a", due_at=now + 9_000, on_duplicate=DuplicatePolicy.KEEP_EARLIER)
        self.assertEqual((kept.status, kept.due_at), (EnqueueStatus.KEPT, now + 5_000))
        replaced = self.q.enqueue("a", due_at=now + 20_000, payload="new", on_duplicate=DuplicatePolicy.REPLACE)
        self.assertEqual((replaced.status, replaced.due_at), (EnqueueStatus.REPLACED, now + 20_000))
        self.assertEqual(self.q.inspect("a").record.payload, "new")

    def test_a_dedup_window_refuses_the_id_after_a_cancel_in_every_policy(self):
        now = server_now(self.admin)
        self.assertEqual(self.q.enqueue("w", due_at=now + 60_000, dedup_window=timedelta(hours=1)).status, EnqueueStatus.ADDED)
        self.assertEqual(self.q.cancel("w"), CancelResult.CANCELLED)
        for policy in ("reject", "replace", "keep-earlier"):
            r = self.q.enqueue("w", due_at=now + 60_000, on_duplicate=policy)
            self.assertEqual(r.status, EnqueueStatus.WINDOW)
            self.assertGreaterEqual(r.due_at, now + 3_600_000)
        with self.assertRaises(InvalidInputException) as e:
            self.q.enqueue("w", dedup_window=timedelta(0))
        self.assertEqual(str(e.exception), "dedupWindowMs: must be 1 to 2592000000 ms (30 days), got 0")

    def test_debounce_pushes_the_due_time_up_to_the_bursts_deadline(self):
        first = self.q.enqueue("d", delay=timedelta(minutes=1), payload="v1", debounce_max_wait=timedelta(minutes=5),
                               on_duplicate="debounce")
        self.assertEqual(first.status, EnqueueStatus.ADDED)
        capped = self.q.enqueue("d", delay=timedelta(minutes=20), payload="v2", debounce_max_wait=timedelta(minutes=5),
                                on_duplicate=DuplicatePolicy.DEBOUNCE)
        self.assertEqual(capped.status, EnqueueStatus.REPLACED)
        self.assertLess(capped.due_at, first.due_at + 5 * 60_000)
        self.assertGreater(capped.due_at, first.due_at)
        self.assertEqual(self.q.inspect("d").record.payload, "v2")
        with self.assertRaises(InvalidInputException) as e:
            self.q.enqueue("d", delay=timedelta(minutes=1), on_duplicate="debounce")
        self.assertEqual(e.exception.field, "debounceMaxWaitMs")

    def test_a_batch_answers_in_input_order_across_shards_and_calls(self):
        tasks = [Task(f"t-{i}", delay=timedelta(hours=1), payload=str(i)) for i in range(1300)] + [Task("t-5")]
        results = self.q.enqueue_many(tasks)
        self.assertEqual([r.id for r in results], [t.id for t in tasks])
        self.assertEqual([r.status for r in results], [EnqueueStatus.ADDED] * 1300 + [EnqueueStatus.DUPLICATE])
        self.assertEqual(self.q.stats().scheduled, 1300)

    def test_the_enqueue_writes_the_marker_that_wakes_a_sleeping_worker(self):
        r = self.q.enqueue("soon", delay=timedelta(seconds=5))
        marker = f"dq:{{orders:{protocol.shard_of('soon', 4)}}}:marker"
        self.assertEqual(self.admin.zscore(marker, "next"), r.due_at)

    def test_scripts_are_sent_again_after_the_script_cache_is_flushed(self):
        self.q.enqueue("first")
        self.admin.script_flush()
        self.assertEqual(self.q.enqueue("second").status, EnqueueStatus.ADDED)
        self.assertEqual(len(self.q.enqueue_many([Task(f"x-{i}") for i in range(20)])), 20)
        self.admin.script_flush()
        self.assertEqual(self.q.stats().due, 22)

    def test_meta_mismatches_fail_loudly(self):
        with self.assertRaises(ShardCountMismatchException) as caught:
            DelayQueue.connect(self.redis.url, queue="orders", shards=8)
        self.assertEqual(caught.exception.recorded, 4)
        self.admin.hset("dq:{v1}:meta", mapping={"shards": 4, "protocol": 1})
        with self.assertRaisesRegex(ProtocolVersionMismatchException, "uses delayq protocol version 1 in Redis"):
            DelayQueue.connect(self.redis.url, queue="v1", shards=4)
        self.assertEqual(self.admin.hgetall("dq:{orders}:meta"), {"shards": "4", "protocol": "2"})

    def test_a_grown_queue_is_followed_after_the_shards_refuse_the_old_epoch(self):
        """The state a finished 4 -> 8 grow leaves (meta and every shard's stamp): the client, still on epoch 0,
        is refused, re-reads the meta hash and writes on the new layout; a stray on an old-count shard is found."""
        moved = next(f"m-{n}" for n in range(100) if protocol.shard_of(f"m-{n}", 4) != protocol.shard_of(f"m-{n}", 8))
        self.q.enqueue("before", payload="x")
        acked = DelayQueue.connect(self.redis.url, queue="orders", shards=4, replica_acks=1, replica_ack_timeout=0.05)
        self.addCleanup(acked.close)
        grow_by_hand(self.admin, "orders", 4, 8)
        self.assertEqual(self.q.layout.epoch, 0)
        self.assertEqual(self.q.enqueue(moved, delay=timedelta(minutes=5)).status, EnqueueStatus.ADDED)
        self.assertEqual((self.q.layout.epoch, self.q.shards), (2, 8))
        self.assertIsNotNone(self.admin.zscore(f"dq:{{orders:{protocol.shard_of(moved, 8)}}}:due", moved))
        self.assertEqual(self.q.enqueue(moved).status, EnqueueStatus.DUPLICATE)
        stray = next(f"s-{n}" for n in range(100) if protocol.shard_of(f"s-{n}", 4) != protocol.shard_of(f"s-{n}", 8))
        self.admin.zadd(f"dq:{{orders:{protocol.shard_of(stray, 4)}}}:due", {stray: 1})
        self.assertEqual((self.q.inspect(stray).state, self.q.inspect(stray).shard), (TaskState.SCHEDULED, protocol.shard_of(stray, 4)))
        self.assertEqual(self.q.cancel(stray), CancelResult.CANCELLED)
        self.assertEqual(len(self.q.stats().shards), 8)
        # the replica-ack path is refused and follows too (the write is on the new shard, no replica confirms it)
        with self.assertRaises(ReplicaAckException) as caught:
            acked.enqueue(stray)
        self.assertEqual(caught.exception.results[0].status, EnqueueStatus.ADDED)
        self.assertEqual(acked.inspect(stray).shard, protocol.shard_of(stray, 8))
        # a client configured with the old count follows the meta's layout; one with a count never had is refused
        with DelayQueue.connect(self.redis.url, queue="orders", shards=4) as old:
            self.assertEqual(old.layout.epoch, 2)
        with self.assertRaises(ShardCountMismatchException) as never_had:
            DelayQueue.connect(self.redis.url, queue="orders", shards=16)
        self.assertEqual(str(never_had.exception),
                         "shards: queue 'orders' has 8 shards in Redis (dq:{orders}:meta) and never had 16, the count this "
                         "client is configured with; use 8 (or a count the queue had before a reshard): the client reads the "
                         "queue's layout from Redis and follows it, and the count changes only through a reshard "
                         "(delayq reshard orders --to N)")

    def test_replica_acks_fail_after_the_write_when_no_replica_confirms(self):
        with DelayQueue.connect(self.redis.url, queue="orders", shards=4, replica_acks=1,
                                replica_ack_timeout=0.05) as acked:
            with self.assertRaises(ReplicaAckException) as caught:
                acked.enqueue("w-1", payload="x")
            self.assertEqual((caught.exception.required, caught.exception.acknowledged), (1, 0))
            self.assertEqual(caught.exception.results[0].status, EnqueueStatus.ADDED)
            # the primary has it; a retry is safe and answers duplicate
            self.assertEqual(self.q.inspect("w-1").state, TaskState.SCHEDULED)
            self.admin.script_flush()  # the NOSCRIPT path of the pipelined EVALSHA + WAIT
            with self.assertRaises(ReplicaAckException) as again:
                acked.enqueue("w-1")
            self.assertEqual(again.exception.results[0].status, EnqueueStatus.DUPLICATE)


class AsyncClientTest(WithRedis, unittest.IsolatedAsyncioTestCase):
    async def test_the_asyncio_client_does_what_the_sync_one_does(self):
        self.redis.admin.flushall()
        async with await AsyncDelayQueue.connect(self.redis.url, queue="orders", shards=4, protocol_for_new_queues=2) as q:
            results = await q.enqueue_many([Task(f"o-{i}", delay=timedelta(minutes=1), payload=f"p{i}") for i in range(30)])
            self.assertTrue(all(r.added for r in results))
            self.assertEqual((await q.enqueue("o-1")).status, EnqueueStatus.DUPLICATE)
            info = await q.inspect("o-7")
            self.assertEqual((info.state, info.record.payload), (TaskState.SCHEDULED, "p7"))
            self.assertEqual(await q.cancel("o-7"), CancelResult.CANCELLED)
            self.assertEqual((await q.reschedule("o-8", delay=timedelta(0))).status, RescheduleStatus.RESCHEDULED)
            stats = await q.stats()
            self.assertEqual((stats.scheduled, stats.due), (28, 1))
            self.redis.admin.script_flush()
            self.assertEqual((await q.enqueue("after-flush")).status, EnqueueStatus.ADDED)
        with self.assertRaises(ShardCountMismatchException):
            await AsyncDelayQueue.connect(self.redis.url, queue="orders", shards=5)
        async with await AsyncDelayQueue.connect(self.redis.url, queue="orders", shards=4, replica_acks=1,
                                                 replica_ack_timeout=0.05) as acked:
            with self.assertRaises(ReplicaAckException):
                await acked.enqueue("w-2")
        async with await AsyncDelayQueue.connect(self.redis.url, queue="orders", shards=4) as q:
            grow_by_hand(self.redis.admin, "orders", 4, 8)
            moved = next(f"m-{n}" for n in range(100) if protocol.shard_of(f"m-{n}", 4) != protocol.shard_of(f"m-{n}", 8))
            self.assertEqual((await q.enqueue(moved)).status, EnqueueStatus.ADDED)
            self.assertEqual((q.layout.epoch, q.shards), (2, 8))
            self.assertEqual((await q.inspect(moved)).shard, protocol.shard_of(moved, 8))
            self.assertEqual((await q.inspect("o-9")).shard, protocol.shard_of("o-9", 4))


if __name__ == "__main__":
    unittest.main()
