"""Replica acknowledgements: the enqueue script and ``WAIT`` pipelined on one connection to the shard's
primary (a pipeline holds one connection, and WAIT counts the writes of the connection it is sent on).
The sync and asyncio clients send :func:`pipeline` and read the answers with :func:`settle`."""
from __future__ import annotations

from typing import Any, List, Sequence

from redis.exceptions import NoScriptError, ResponseError

from . import protocol
from .errors import ReplicaAckException
from .scripts import script

#: by SHA first; after NOSCRIPT (the script did not run) in full, which caches it again
ATTEMPTS = ("evalsha", "eval")


def pipeline(node: Any, attempt: str, name: str, keys: List[str], args: List[str], replicas: int, timeout_ms: int) -> Any:
    """The enqueue script ``name`` (the queue's protocol's) and WAIT, on one connection."""
    s = script(name)
    pipe = node.pipeline(transaction=False)
    getattr(pipe, attempt)(s.sha if attempt == "evalsha" else s.source, len(keys), *keys, *args)
    pipe.wait(replicas, timeout_ms)
    return pipe


def settle(answers: Sequence[Any], batch: List[protocol.Prepared], shard: int, replicas: int,
           timeout_ms: int) -> Any:
    """The script's reply (a script error, such as a LAYOUT refusal, as the exception object: nothing was written),
    or None when the script must be sent in full; raises ReplicaAckException when fewer replicas than required
    confirmed the write in time (it is on the primary: retrying is safe)."""
    reply, acknowledged = answers
    if isinstance(reply, NoScriptError):
        return None
    if isinstance(acknowledged, Exception):
        raise acknowledged
    if isinstance(reply, ResponseError):
        return reply
    if isinstance(reply, Exception):
        raise reply
    if int(acknowledged) < replicas:
        raise ReplicaAckException(shard, protocol.parse_enqueue(reply, batch), replicas, int(acknowledged), timeout_ms)
    return reply
