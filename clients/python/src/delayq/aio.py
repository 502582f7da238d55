"""The asyncio producer client (``redis.asyncio``): the same operations as :class:`delayq.DelayQueue`,
as coroutines; the calls of a batch run concurrently."""
from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError, NoScriptError, ResponseError

from . import acks as acks_
from . import connection, protocol, routing
from .calendar import Calendar, calendars_key, require_name
from .layout import Layout
from .errors import DelayQueueException
from .model import (CancelResult, DueAt, DuplicatePolicy, EnqueueResult, QueueStats, RescheduleResult, Task,
                    TaskInfo)
from .scripts import script
from .settings import Settings


class AsyncDelayQueue:
    """The producer client of one queue for asyncio. Create it with ``await AsyncDelayQueue.connect(...)``
    (or ``await AsyncDelayQueue.create(redis, ...)`` to share a ``redis.asyncio`` client)."""

    def __init__(self, redis: Any, settings: Settings, owns: bool,
                 endpoint: Optional[connection.Endpoint] = None, tls_ca: Optional[str] = None) -> None:
        self._redis = redis
        self._settings = settings
        self._owns = owns
        self._cluster = isinstance(redis, RedisCluster)
        self._endpoint = endpoint
        self._tls_ca = tls_ca
        self._nodes: Dict[Tuple[str, int], Any] = {}
        self._routing = routing.Routing(settings.queue, settings.shards, settings.new_queue_protocol)

    @classmethod
    async def create(cls, redis: Any, *, queue: str, shards: int,
                     max_payload_bytes: int = protocol.DEFAULT_MAX_PAYLOAD_BYTES, timeout: float = 10.0,
                     replica_acks: int = 0, replica_ack_timeout: float = 0.5,
                     protocol_for_new_queues: Optional[int] = None) -> "AsyncDelayQueue":
        """Wraps an existing ``redis.asyncio`` client (``decode_responses=True``), which it will not close."""
        client = cls(redis, Settings(queue, shards, max_payload_bytes, timeout, replica_acks, replica_ack_timeout,
                                     protocol_for_new_queues),
                     owns=False)
        await client._verify_meta()
        return client

    @classmethod
    async def connect(cls, url: str, *, queue: str, shards: int,
                      max_payload_bytes: int = protocol.DEFAULT_MAX_PAYLOAD_BYTES, timeout: float = 10.0,
                      replica_acks: int = 0, replica_ack_timeout: float = 0.5,
                      tls_ca: Optional[str] = None, protocol_for_new_queues: Optional[int] = None) -> "AsyncDelayQueue":
        """As :meth:`delayq.DelayQueue.connect`, ``protocol_for_new_queues`` included."""
        endpoint = connection.parse(url)
        settings = Settings(queue, shards, max_payload_bytes, timeout, replica_acks, replica_ack_timeout,
                            protocol_for_new_queues)
        client = cls(connection.connect_async(endpoint, timeout, tls_ca), settings, owns=True, endpoint=endpoint,
                     tls_ca=tls_ca)
        try:
            await client._verify_meta()
        except ConnectionError as e:
            await client.close()
            # redis.asyncio words a refused TLS handshake as "Error 1 connecting to h:p. 1.": add its cause
            cause = e.__cause__ or e.__context__
            raise ConnectionError(f"{e} ({cause})" if cause else str(e)) from e
        except BaseException:
            await client.close()
            raise
        return client

    async def _verify_meta(self) -> None:
        await routing.run_async(self._routing.verify_meta(), self._execute)

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
        """The protocol the queue's meta records (2, or 3 for a queue of protocol 3), as last read."""
        return self._routing.protocol_version

    async def calendar(self, name: str) -> Optional[Calendar]:
        """The queue's business calendar of that name (``dq:{q}:calendars``)."""
        raw = await self._redis.hget(calendars_key(self.queue), require_name(name))
        return None if raw is None else Calendar.from_json(raw.decode("utf-8") if isinstance(raw, bytes) else raw)

    def shard_of(self, task_id: str) -> int:
        return protocol.shard_of(protocol.require_id(task_id), self.shards)

    async def enqueue(self, task_id: str, *, delay: Optional[timedelta] = None, due_at: Optional[DueAt] = None,
                      payload: Optional[str] = None, priority: int = 0,
                      on_duplicate: Union[DuplicatePolicy, str] = DuplicatePolicy.REJECT, **options: Any) -> EnqueueResult:
        return (await self.enqueue_many([Task(task_id, delay, due_at, payload, priority, **options)], on_duplicate))[0]

    async def enqueue_many(self, tasks: Iterable[Task],
                           on_duplicate: Union[DuplicatePolicy, str] = DuplicatePolicy.REJECT) -> List[EnqueueResult]:
        policy = protocol.require_policy(on_duplicate)
        enqueued_at = int(time.time() * 1000)
        prepared = protocol.prepare(tasks, self.shards, self._settings.max_payload_bytes, enqueued_at)
        protocol.require_debounce(policy, prepared)
        return await routing.run_async(self._routing.enqueue(prepared, policy, enqueued_at), self._execute)

    async def cancel(self, task_id: str) -> CancelResult:
        protocol.require_id(task_id)
        return await routing.run_async(self._routing.cancel(task_id), self._execute)

    async def reschedule(self, task_id: str, *, delay: Optional[timedelta] = None,
                         due_at: Optional[DueAt] = None) -> RescheduleResult:
        protocol.require_id(task_id)
        timing, ms = protocol.schedule(delay, due_at, int(time.time() * 1000))
        return await routing.run_async(self._routing.reschedule(task_id, timing, ms), self._execute)

    async def inspect(self, task_id: str) -> TaskInfo:
        protocol.require_id(task_id)
        return await routing.run_async(self._routing.inspect(task_id), self._execute)

    async def _execute(self, calls: List[routing.Call]) -> List[Any]:
        """The routing's calls, concurrently; a script's error reply is answered as the exception, not raised."""
        async def one(c: routing.Call) -> Any:
            try:
                if self._settings.replica_acks and c.batch is not None:
                    return await self._enqueue_acked(c)
                return await self._run(self._redis, c.name, c.keys, c.args)
            except ResponseError as e:
                return e
        return list(await asyncio.gather(*(one(c) for c in calls)))

    async def stats(self) -> QueueStats:
        return await routing.run_async(self._routing.stats(), self._execute)

    async def close(self) -> None:
        for node in self._nodes.values():
            await node.close()
        self._nodes.clear()
        if self._owns:
            await self._redis.close()
            pool = getattr(self._redis, "connection_pool", None)
            if pool is not None:  # a standalone client: close its sockets now, not at garbage collection
                await pool.disconnect()

    async def __aenter__(self) -> "AsyncDelayQueue":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    @staticmethod
    async def _run(redis: Any, name: str, keys: List[str], args: List[str]) -> Any:
        s = script(name)
        try:
            return await redis.evalsha(s.sha, len(keys), *keys, *args)
        except NoScriptError:
            return await redis.eval(s.source, len(keys), *keys, *args)

    async def _enqueue_acked(self, c: routing.Call) -> Any:
        """The enqueue, then WAIT on the same connection to the shard's primary (see DelayQueue)."""
        node = self._primary_of(c.keys[0])
        acks, ms = self._settings.replica_acks, self._settings.replica_ack_millis
        for attempt in acks_.ATTEMPTS:
            reply = acks_.settle(await acks_.pipeline(node, attempt, c.name, c.keys, c.args, acks, ms).execute(raise_on_error=False),
                                 c.batch or [], c.shard, acks, ms)
            if reply is not None:
                return reply
        raise AssertionError("unreachable: EVAL cannot answer NOSCRIPT")  # pragma: no cover

    def _primary_of(self, key: str) -> Any:
        if not self._cluster:
            return self._redis
        # redis.asyncio's cluster nodes are not clients: WAIT needs a connection of its own to the primary
        import redis.asyncio as aredis
        node = self._redis.get_node_from_key(key)
        address = (node.host, node.port)
        if address not in self._nodes:
            if self._endpoint is None:
                raise DelayQueueException("replica acknowledgements on a shared asyncio cluster client are "
                                                   "not supported: use AsyncDelayQueue.connect(url, ...)")
            self._nodes[address] = aredis.Redis(host=node.host, port=node.port,
                                                **connection.node_kwargs(self._endpoint, self._settings.timeout,
                                                                         self._tls_ca))
        return self._nodes[address]
