"""The synchronous producer client (redis-py)."""
from __future__ import annotations

import time
from datetime import timedelta
from typing import Any, Iterable, List, Optional, Sequence, Union

from redis.cluster import RedisCluster
from redis.exceptions import NoScriptError, ResponseError

from . import acks as acks_
from . import connection, protocol, routing
from .calendar import Calendar, business_calendar
from .layout import Layout
from .model import (CancelResult, DueAt, DuplicatePolicy, EnqueueResult, QueueStats, RescheduleResult, Task,
                    TaskInfo)
from .scripts import script
from .settings import Settings


class DelayQueue:
    """The producer client of one queue. Building it checks the queue's shard count and protocol in
    ``dq:{queue}:meta`` (recording them on first use: protocol 3 for a new queue, docs/protocol3.md, unless
    ``protocol_for_new_queues=2`` or the environment variable ``DELAYQ_PROTOCOL=2`` asks for protocol 2; the option
    wins) and raises ``ShardCountMismatchException`` or ``ProtocolVersionMismatchException`` when Redis holds others.
    An existing queue is spoken to in the protocol its meta records (2 or 3), with the same answers.

    >>> with DelayQueue.connect("redis://localhost:6379", queue="orders", shards=16) as orders:
    ...     orders.enqueue("order-8812", delay=timedelta(minutes=30), payload='{"action":"cancel-if-unpaid"}')
    """

    def __init__(self, redis: Any, *, queue: str, shards: int,
                 max_payload_bytes: int = protocol.DEFAULT_MAX_PAYLOAD_BYTES, timeout: float = 10.0,
                 replica_acks: int = 0, replica_ack_timeout: float = 0.5, protocol_for_new_queues: Optional[int] = None,
                 _owns: bool = False) -> None:
        """Wraps an existing redis-py client (``decode_responses=True``), which it will not close."""
        self._settings = Settings(queue, shards, max_payload_bytes, timeout, replica_acks, replica_ack_timeout,
                                  protocol_for_new_queues)
        self._redis = redis
        self._owns = _owns
        self._cluster = isinstance(redis, RedisCluster)
        self._routing = routing.Routing(queue, shards, self._settings.new_queue_protocol)
        try:
            routing.run_sync(self._routing.verify_meta(), self._execute)
        except BaseException:
            self.close()
            raise

    @classmethod
    def connect(cls, url: str, *, queue: str, shards: int, max_payload_bytes: int = protocol.DEFAULT_MAX_PAYLOAD_BYTES,
                timeout: float = 10.0, replica_acks: int = 0, replica_ack_timeout: float = 0.5,
                tls_ca: Optional[str] = None, protocol_for_new_queues: Optional[int] = None) -> "DelayQueue":
        """Connects to ``redis://``, ``rediss://``, ``redis-cluster://`` or ``rediss-cluster://`` URLs.
        ``protocol_for_new_queues``: 2 or 3, the protocol the queue is recorded with if this client creates it (None:
        ``DELAYQ_PROTOCOL``, else 3); an existing queue keeps the protocol its meta records."""
        endpoint = connection.parse(url)
        # bad settings are reported as such even when Redis is unreachable
        Settings(queue, shards, max_payload_bytes, timeout, replica_acks, replica_ack_timeout, protocol_for_new_queues)
        redis = connection.connect_sync(endpoint, timeout, tls_ca)
        client = cls(redis, queue=queue, shards=shards, max_payload_bytes=max_payload_bytes, timeout=timeout,
                     replica_acks=replica_acks, replica_ack_timeout=replica_ack_timeout,
                     protocol_for_new_queues=protocol_for_new_queues, _owns=True)
        client._endpoint = endpoint
        client._tls_ca = tls_ca
        return client

    @property
    def queue(self) -> str:
        return self._settings.queue

    @property
    def shards(self) -> int:
        """The queue's current shard count (as last read from its meta hash: it grows with a reshard)."""
        return self._routing.layout.shards

    @property
    def layout(self) -> Layout:
        return self._routing.layout

    @property
    def protocol_version(self) -> int:
        """The protocol the queue's meta records (2 or 3), as last read."""
        return self._routing.protocol_version

    @property
    def redis(self) -> Any:
        return self._redis

    def calendar(self, name: str) -> Optional[Calendar]:
        """The queue's business calendar of that name (``dq:{q}:calendars``), for ``after_business_days`` and ``roll_forward``."""
        return business_calendar(self._redis, self.queue, name)

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
        protocol.require_debounce(policy, prepared)
        return routing.run_sync(self._routing.enqueue(prepared, policy, enqueued_at), self._execute)

    def cancel(self, task_id: str) -> CancelResult:
        """Removes a scheduled or dead task; a task in flight is left running (IN_FLIGHT)."""
        protocol.require_id(task_id)
        return routing.run_sync(self._routing.cancel(task_id), self._execute)

    def reschedule(self, task_id: str, *, delay: Optional[timedelta] = None,
                   due_at: Optional[DueAt] = None) -> RescheduleResult:
        protocol.require_id(task_id)
        timing, ms = protocol.schedule(delay, due_at, int(time.time() * 1000))
        return routing.run_sync(self._routing.reschedule(task_id, timing, ms), self._execute)

    def inspect(self, task_id: str) -> TaskInfo:
        protocol.require_id(task_id)
        return routing.run_sync(self._routing.inspect(task_id), self._execute)

    def stats(self) -> QueueStats:
        return routing.run_sync(self._routing.stats(), self._execute)

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

    def _execute(self, calls: Sequence[routing.Call]) -> List[Any]:
        """The routing's calls, pipelined on a standalone Redis (one round trip), one after another on a Cluster; a
        script's error reply is answered as the exception, not raised. Enqueue calls go through the replica-ack path
        when the client waits for replicas."""
        if self._settings.replica_acks:
            return [self._enqueue_acked(c) if c.batch is not None else self._one(c) for c in calls]
        if self._cluster or len(calls) < 2:
            return [self._one(c) for c in calls]
        pipe = self._redis.pipeline(transaction=False)
        for c in calls:
            pipe.evalsha(script(c.name).sha, len(c.keys), *c.keys, *c.args)
        replies = pipe.execute(raise_on_error=False)
        out = []
        for call, reply in zip(calls, replies):
            if isinstance(reply, NoScriptError):
                reply = self._one(call)  # NOSCRIPT: it did not run; send it in full
            elif isinstance(reply, Exception) and not isinstance(reply, ResponseError):
                raise reply
            out.append(reply)
        return out

    def _one(self, c: routing.Call) -> Any:
        try:
            return self._run(self._redis, c.name, c.keys, c.args)
        except ResponseError as e:
            return e

    def _enqueue_acked(self, c: routing.Call) -> Any:
        """The enqueue, then WAIT on the same connection to the shard's primary (a pipeline holds one
        connection): Redis answers how many replicas hold every write of that connection so far."""
        node = self._primary_of(c.keys[0])
        acks, ms = self._settings.replica_acks, self._settings.replica_ack_millis
        for attempt in acks_.ATTEMPTS:
            reply = acks_.settle(acks_.pipeline(node, attempt, c.name, c.keys, c.args, acks, ms).execute(raise_on_error=False),
                                 c.batch or [], c.shard, acks, ms)
            if reply is not None:
                return reply
        raise AssertionError("unreachable: EVAL cannot answer NOSCRIPT")  # pragma: no cover

    def _primary_of(self, key: str) -> Any:
        if not self._cluster:
            return self._redis
        return self._redis.get_redis_connection(self._redis.get_node_from_key(key))
