"""Interop driver: runs producer operations with the delayq Python library, one JSON line in, one out.

The first line configures the client: {"url", "queue", "shards", "options": {...}, "asyncio": bool};
every later line is one operation ({"op": "enqueue" | "cancel" | "reschedule" | "inspect" | "stats" |
"scripts" | "outbox-driver" | "outbox", ...}). The outbox operations write rows with ``delayq.outbox`` through
psycopg2 on the PostgreSQL the config's "postgres" names ({"host", "port", "user", "database"}). Each answer is {"ok": value} or {"error": {"type", "message", "field"}}, in the
shapes the Java test compares across the Python, Node and Java clients.
"""
import asyncio
import json
import sys
from datetime import datetime, timedelta, timezone

import delayq
from delayq.aio import AsyncDelayQueue
from delayq.scripts import SCRIPTS


def error(e):
    return {"error": {"type": type(e).__name__, "message": str(e), "field": getattr(e, "field", None)}}


def delay(spec):
    return None if spec.get("delayMs") is None else timedelta(milliseconds=spec["delayMs"])


def due_at(spec):
    at = spec.get("dueAt")
    if at is None or spec.get("dueAtAsDatetime") is False:
        return at
    return datetime.fromtimestamp(at / 1000, tz=timezone.utc) if at >= 0 else at


def millis(spec, key):
    return None if spec.get(key) is None else timedelta(milliseconds=spec[key])


def task(spec):
    return delayq.Task(spec["id"], delay=delay(spec), due_at=due_at(spec), payload=spec.get("payload"),
                       priority=spec.get("priority", 0), expires_at=spec.get("expiresAt"), on_expiry=spec.get("onExpiry"),
                       max_attempts=spec.get("maxAttempts"), backoff=millis(spec, "backoffMs"),
                       backoff_max=millis(spec, "backoffMaxMs"), backoff_multiplier=spec.get("backoffMultiplier"),
                       traceparent=spec.get("traceparent"), tracestate=spec.get("tracestate"))


def info(i):
    record = i.record if i.raw_record is not None else None
    return {"id": i.id, "shard": i.shard, "state": i.state.name, "score": i.score, "priority": i.priority,
            "attempts": i.attempts, "lastError": i.last_error, "rawRecord": i.raw_record,
            "payload": record.payload if record else None, "enqueuedAt": record.enqueued_at if record else None,
            "completion": completion(i.completion)}


def completion(c):
    return None if c is None else {"finishedAt": c.finished_at, "attempts": c.attempts, "handlerMs": c.handler_ms,
                                   "worker": c.worker, "result": c.result, "truncated": c.truncated}


def stats(s):
    return {"scheduled": s.scheduled, "due": s.due, "inflight": s.inflight, "dead": s.dead}


async def answer(client, op):
    """One operation on a sync or asyncio client (the asyncio one's results are awaited)."""
    async def call(value):
        return await value if asyncio.iscoroutine(value) else value

    kind = op["op"]
    if kind == "scripts":
        return {name: s.sha for name, s in SCRIPTS.items()}
    if kind == "enqueue":
        results = await call(client.enqueue_many([task(t) for t in op["tasks"]],
                                                 on_duplicate=op.get("onDuplicate", "reject")))
        return [{"id": r.id, "status": r.status.name, "dueAt": r.due_at} for r in results]
    if kind == "cancel":
        return (await call(client.cancel(op["id"]))).name
    if kind == "reschedule":
        r = await call(client.reschedule(op["id"], delay=delay(op), due_at=due_at(op)))
        return {"status": r.status.name, "dueAt": r.due_at}
    if kind == "inspect":
        return info(await call(client.inspect(op["id"])))
    if kind == "stats":
        return stats(await call(client.stats()))
    if kind == "outbox-driver":
        import psycopg2
        return psycopg2.__version__
    if kind == "outbox":
        return outbox(op)
    raise ValueError("unknown op " + kind)


def outbox(op):
    """Writes op["rows"] ({"action": "enqueue" | "cancel" | "reschedule", ...}) in one transaction of a connection of
    its own, with a business row beside them, then commits it (op["commit"]) or rolls it back; answers the row count."""
    import psycopg2
    from delayq.outbox import Outbox

    pg = CONFIG["postgres"]
    conn = psycopg2.connect(host=pg["host"], port=pg["port"], user=pg["user"], dbname=pg["database"])
    try:
        box = Outbox(op["queue"])
        with conn.cursor() as cur:
            cur.execute("CREATE TABLE IF NOT EXISTS interop_orders (id text PRIMARY KEY)")
            for row in op["rows"]:
                cur.execute("INSERT INTO interop_orders VALUES (%s) ON CONFLICT DO NOTHING", (row["id"],))
                action = row["action"]
                if action == "enqueue":
                    box.enqueue(cur, row["id"], delay=delay(row), due_at=due_at(row), payload=row.get("payload"),
                                priority=row.get("priority", 0), dedup=row.get("dedup", "reject"), group=row.get("group"),
                                expires_at=row.get("expiresAt"), max_attempts=row.get("maxAttempts"),
                                backoff=millis(row, "backoffMs"), backoff_multiplier=row.get("backoffMultiplier"))
                elif action == "cancel":
                    box.cancel(cur, row["id"])
                elif action == "reschedule":
                    box.reschedule(cur, row["id"], delay=delay(row), due_at=due_at(row))
                else:
                    raise ValueError("unknown outbox action " + action)
        if op.get("commit", True):
            conn.commit()
        else:
            conn.rollback()
        return len(op["rows"])
    finally:
        conn.close()


def options(config):
    o = config.get("options", {})
    kwargs = {}
    if "maxPayloadBytes" in o:
        kwargs["max_payload_bytes"] = o["maxPayloadBytes"]
    if "timeoutMs" in o:
        kwargs["timeout"] = o["timeoutMs"] / 1000
    if "replicaAcks" in o:
        kwargs["replica_acks"] = o["replicaAcks"]
    if "replicaAckTimeoutMs" in o:
        kwargs["replica_ack_timeout"] = o["replicaAckTimeoutMs"] / 1000
    if "tlsCa" in o:
        kwargs["tls_ca"] = o["tlsCa"]
    return kwargs


def out(value):
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()


CONFIG = {}


async def main():
    config = json.loads(sys.stdin.readline())
    CONFIG.update(config)
    try:
        if config.get("asyncio"):
            client = await AsyncDelayQueue.connect(config["url"], queue=config["queue"], shards=config["shards"],
                                                   **options(config))
        else:
            client = delayq.DelayQueue.connect(config["url"], queue=config["queue"], shards=config["shards"],
                                               **options(config))
    except Exception as e:  # the answer is the error itself
        out(error(e))
        return
    out({"ok": "connected"})
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                out({"ok": await answer(client, json.loads(line))})
            except Exception as e:
                out(error(e))
    finally:
        closed = client.close()
        if asyncio.iscoroutine(closed):
            await closed


asyncio.run(main())
