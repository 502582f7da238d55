"""The synchronous producer client (redis-py)."""
from __future__ import annotations

import time
from datetime import timedelta
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

from redis.cluster import RedisCluster
from redis.exceptions import NoScriptError

from . import acks as acks_
from . import connection, protocol
from .model import (CancelResult, DueAt, DuplicatePolicy, EnqueueResult, QueueStats, RescheduleResult, Task,
                    TaskInfo)
from .scripts import script
from .settings import Settings

Call = Tuple[str, List[str], List[str]]  # script name, keys, args


class DelayQueue:
    """The producer client of one queue. Building it checks the queue's shard count and protocol in
    ``dq:{queue}:meta`` (recording them on first use) and raises ``ShardCountMismatchException`` or
    ``ProtocolVersionMismatchException`` when Redis holds others.

    >>> with DelayQueue.connect("redis://localhost:6379", queue="orders", shards=16) as orders:
    ...     orders.enqueue("order-8812", delay=timedelta(minutes=30), payload='{"action":"cancel-if-unpaid"}')
    """

    def __init__(self, redis: Any, *, queue: str, shards: int,
                 max_payload_bytes: int = protocol.DEFAULT_MAX_PAYLOAD_BYTES, timeout: float = 10.0,
                 replica_acks: int = 0, replica_ack_timeout: float = 0.5, _owns: bool = False) -> None:
        """Wraps an existing redis-py client (``decode_responses=True``), which it will not close."""
        self._settings = Settings(queue, shards, max_payload_bytes, timeout, replica_acks, replica_ack_timeout)
        self._redis = redis
        self._owns = _owns
        self._cluster = isinstance(redis, RedisCluster)
        try:
            protocol.check_meta(self._run(redis, "meta", [protocol.meta_key(queue)],
                                          [str(shards), str(protocol.PROTOCOL_VERSION)]), queue, shards)
        except BaseException:
            self.close()
            raise

    @classmethod
    def connect(cls, url: str, *, queue: str, shards: int, max_payload_bytes: int = protocol.DEFAULT_MAX_PAYLOAD_BYTES,
                timeout: float = 10.0, replica_acks: int = 0, replica_ack_timeout: float = 0.5,
                tls_ca: Optional[str] = None) -> "DelayQueue":
        """Connects to ``redis://``, ``rediss://``, ``redis-cluster://`` or ``rediss-cluster://`` URLs."""
        endpoint = connection.parse(url)
        # bad settings are reported as such even when Redis is unreachable
        Settings(queue, shards, max_payload_bytes, timeout, replica_acks, replica_ack_timeout)
        redis = connection.connect_sync(endpoint, timeout, tls_ca)
        client = cls(redis, queue=queue, shards=shards, max_payload_bytes=max_payload_bytes, timeout=timeout,
                     replica_acks=replica_acks, replica_ack_timeout=replica_ack_timeout, _owns=True)
        client._endpoint = endpoint
        client._tls_ca = tls_ca
        return client

    @property
    def queue(self) -> str:
        return self._settings.queue

    @property
    def shards(self) -> int:
        return self._settings.shards

    @property
    def redis(self) -> Any:
        return self._redis

    def shard_of(self, task_id: str) -> int:
        return protocol.shard_of(protocol.require_id(task_id), self.shards)

    # ---- operations ----

    def enqueue(self, task_id: str, *, delay: Optional[timedelta] = None, due_at: Optional[DueAt] = None,
                payload: Optional[str] = None, priority: int = 0,
                on_duplicate: Union[DuplicatePolicy, str] = DuplicatePolicy.REJECT, **options: Any) -> EnqueueResult:
        """Schedules one task after ``delay`` (on the Redis clock) or at ``due_at``; neither: due now.
        ``options`` are the per-task options of :class:`Task` (``expires_at``, ``max_attempts``, ``traceparent``, ...)."""
        return self.enqueue_many([Task(task_id, delay, due_at, payload, priority, **options)], on_duplicate=on_duplicate)[0]

    def enqueue_many(self, tasks: Iterable[Task],
                     on_duplicate: Union[DuplicatePolicy, str] = DuplicatePolicy.REJECT) -> List[EnqueueResult]:
        """Grouped by shard, at most 500 per script call; answers in input order. The whole batch is
        validated before anything is sent."""
        policy = protocol.require_policy(on_duplicate)
        enqueued_at = int(time.time() * 1000)
        prepared = protocol.prepare(tasks, self.shards, self._settings.max_payload_bytes, enqueued_at)
        calls = protocol.chunks(prepared)
        results: List[Optional[EnqueueResult]] = [None] * len(prepared)
        if self._settings.replica_acks:
            for shard, indexes in calls:
                batch = [prepared[i] for i in indexes]
                for i, r in zip(indexes, self._enqueue_acked(shard, batch, policy, enqueued_at)):
                    results[i] = r
            return results  # type: ignore[return-value]
        replies = self._run_all([("enqueue", protocol.shard_keys(self.queue, shard),
                                  protocol.enqueue_args(policy, [prepared[i] for i in indexes], enqueued_at))
                                 for shard, indexes in calls])
        for (shard, indexes), reply in zip(calls, replies):
            for i, r in zip(indexes, protocol.parse_enqueue(reply, [prepared[i] for i in indexes])):
                results[i] = r
        return results  # type: ignore[return-value]

    def cancel(self, task_id: str) -> CancelResult:
        """Removes a scheduled or dead task; a task in flight is left running (IN_FLIGHT)."""
        shard = self.shard_of(task_id)
        return protocol.parse_cancel(self._run(self._redis, "cancel", protocol.shard_keys(self.queue, shard), [task_id]))

    def reschedule(self, task_id: str, *, delay: Optional[timedelta] = None,
                   due_at: Optional[DueAt] = None) -> RescheduleResult:
        shard = self.shard_of(task_id)
        timing, ms = protocol.schedule(delay, due_at, int(time.time() * 1000))
        return protocol.parse_reschedule(self._run(self._redis, "reschedule", protocol.shard_keys(self.queue, shard),
                                                   [task_id, timing, str(ms)]))

    def inspect(self, task_id: str) -> TaskInfo:
        shard = self.shard_of(task_id)
        return protocol.parse_inspect(self._run(self._redis, "inspect", protocol.shard_keys(self.queue, shard),
                                                [task_id]), task_id, shard)

    def stats(self) -> QueueStats:
        replies = self._run_all([("stats", protocol.shard_keys(self.queue, s), []) for s in range(self.shards)])
        return QueueStats(self.queue, [protocol.parse_stats(r, s) for s, r in enumerate(replies)])

    def close(self) -> None:
        if self._owns and self._redis is not None:
            self._redis.close()
            pool = getattr(self._redis, "connection_pool", None)
            if pool is not None:  # a standalone client: close its sockets now, not at garbage collection
                pool.disconnect()

    def __enter__(self) -> "DelayQueue":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ---- script calls ----

    @staticmethod
    def _run(redis: Any, name: str, keys: List[str], args: List[str]) -> Any:
        """By SHA; on NOSCRIPT (a restart, a failover, SCRIPT FLUSH) once in full, which caches it again."""
        s = script(name)
        try:
            return redis.evalsha(s.sha, len(keys), *keys, *args)
        except NoScriptError:
            return redis.eval(s.source, len(keys), *keys, *args)

    def _run_all(self, calls: Sequence[Call]) -> List[Any]:
        """Many calls: pipelined on a standalone Redis (one round trip), one after another on a Cluster."""
        if self._cluster or len(calls) < 2:
            return [self._run(self._redis, *c) for c in calls]
        pipe = self._redis.pipeline(transaction=False)
        for name, keys, args in calls:
            pipe.evalsha(script(name).sha, len(keys), *keys, *args)
        replies = pipe.execute(raise_on_error=False)
        out = []
        for call, reply in zip(calls, replies):
            if isinstance(reply, NoScriptError):
                reply = self._run(self._redis, *call)  # NOSCRIPT: it did not run; send it in full
            elif isinstance(reply, Exception):
                raise reply
            out.append(reply)
        return out

    def _enqueue_acked(self, shard: int, batch: List[protocol.Prepared], policy: DuplicatePolicy,
                       enqueued_at: int) -> List[EnqueueResult]:
        """The enqueue, then WAIT on the same connection to the shard's primary (a pipeline holds one
        connection): Redis answers how many replicas hold every write of that connection so far."""
        keys = protocol.shard_keys(self.queue, shard)
        args = protocol.enqueue_args(policy, batch, enqueued_at)
        node = self._primary_of(keys[0])
        acks, ms = self._settings.replica_acks, self._settings.replica_ack_millis
        for attempt in acks_.ATTEMPTS:
            results = acks_.settle(acks_.pipeline(node, attempt, keys, args, acks, ms).execute(raise_on_error=False),
                                   batch, shard, acks, ms)
            if results is not None:
                return results
        raise AssertionError("unreachable: EVAL cannot answer NOSCRIPT")  # pragma: no cover

    def _primary_of(self, key: str) -> Any:
        if not self._cluster:
            return self._redis
        return self._redis.get_redis_connection(self._redis.get_node_from_key(key))
