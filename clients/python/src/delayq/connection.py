"""Redis URLs as delayq documents them, turned into redis-py clients (sync and asyncio):

``redis://[user:password@]host:port[/db]``, ``rediss://...`` (TLS),
``redis-cluster://[user:password@]host:port[,host:port...]``, ``rediss-cluster://...`` (TLS).
A private CA for TLS comes from ``tls_ca`` or, as for the Java worker, ``DELAYQ_REDIS_TLS_CA``.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import unquote

from .errors import InvalidInputException

_CLUSTER = ("redis-cluster://", "rediss-cluster://")


def redact(url: str) -> str:
    """The URL without its password, safe for logs and errors."""
    url = re.sub(r"://([^:/@]*):[^@/]*@", r"://\1:***@", url)
    return re.sub(r"://([^:/@]+)@", "://***@", url)


@dataclass(frozen=True)
class Endpoint:
    url: str
    cluster: bool
    tls: bool
    nodes: List[Tuple[str, int]] = field(default_factory=list)
    username: Optional[str] = None
    password: Optional[str] = None


def parse(url: Any) -> Endpoint:
    if not isinstance(url, str) or not url.strip():
        raise InvalidInputException("redis", "a Redis URL is required, e.g. redis://localhost:6379")
    if url.startswith(("redis://", "rediss://")):
        return Endpoint(url, cluster=False, tls=url.startswith("rediss://"))
    if not url.startswith(_CLUSTER):
        raise InvalidInputException("redis", "must start with redis://, rediss://, redis-cluster:// or "
                                             f"rediss-cluster://, got {redact(url)}")
    rest = url[url.index("://") + 3:]
    username = password = None
    at = rest.rfind("@")
    if at >= 0:
        user_info, rest = rest[:at], rest[at + 1:]
        user, sep, secret = user_info.partition(":")
        username = unquote(user) if sep and user else None
        password = unquote(secret) if sep else unquote(user)
    hosts = rest.split("/", 1)[0]
    nodes = []
    for host in hosts.split(","):
        host = host.strip()
        if not host:
            continue
        name, sep, port = host.rpartition(":")
        if not sep or not port.isdigit() or not name:
            raise InvalidInputException("redis", f"a cluster node must be host:port, got '{host}' in {redact(url)}")
        nodes.append((name.strip("[]"), int(port)))
    if not nodes:
        raise InvalidInputException("redis", f"a cluster URL needs at least one host:port: {redact(url)}")
    return Endpoint(url, cluster=True, tls=url.startswith("rediss-cluster://"), nodes=nodes, username=username,
                    password=password or None)


def _tls_kwargs(endpoint: Endpoint, tls_ca: Optional[str]) -> Dict[str, Any]:
    ca = tls_ca or os.environ.get("DELAYQ_REDIS_TLS_CA")
    if not endpoint.tls or not ca:
        return {}
    if not os.path.isfile(ca) or not os.access(ca, os.R_OK):
        raise InvalidInputException("DELAYQ_REDIS_TLS_CA", f"must name a readable PEM file of CA certificates, got {ca}")
    return {"ssl_ca_certs": ca}


def _common(timeout: float) -> Dict[str, Any]:
    return {"decode_responses": True, "socket_timeout": timeout, "socket_connect_timeout": min(timeout, 5.0)}


def connect_sync(endpoint: Endpoint, timeout: float, tls_ca: Optional[str]) -> Any:
    import redis
    kwargs = {**_common(timeout), **_tls_kwargs(endpoint, tls_ca)}
    if not endpoint.cluster:
        return redis.Redis.from_url(endpoint.url, **kwargs)
    from redis.cluster import ClusterNode, RedisCluster
    return RedisCluster(startup_nodes=[ClusterNode(h, p) for h, p in endpoint.nodes], username=endpoint.username,
                        password=endpoint.password, ssl=endpoint.tls, **kwargs)


def node_kwargs(endpoint: Endpoint, timeout: float, tls_ca: Optional[str]) -> Dict[str, Any]:
    """What a direct connection to one cluster node needs (the replica-ack path)."""
    return {**_common(timeout), **_tls_kwargs(endpoint, tls_ca), "username": endpoint.username,
            "password": endpoint.password, "ssl": endpoint.tls}


def connect_async(endpoint: Endpoint, timeout: float, tls_ca: Optional[str]) -> Any:
    import redis.asyncio as aredis
    kwargs = {**_common(timeout), **_tls_kwargs(endpoint, tls_ca)}
    if not endpoint.cluster:
        return aredis.Redis.from_url(endpoint.url, **kwargs)
    from redis.asyncio.cluster import ClusterNode, RedisCluster
    return RedisCluster(startup_nodes=[ClusterNode(h, p) for h, p in endpoint.nodes], username=endpoint.username,
                        password=endpoint.password, ssl=endpoint.tls, **kwargs)
