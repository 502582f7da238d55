"""A delayq producer in Python with redis-py, following docs/protocol.md.

usage: python3 produce.py PORT QUEUE SHARDS < tasks.json
tasks.json: a list of {"id", "due" (epoch ms), "priority" (0..2), "payload" (text, or null for a bare ZADD)}
"""
import json
import sys
import time
import zlib

import redis

port, queue, shards = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
r = redis.Redis(host="127.0.0.1", port=port)

recorded = r.hget("dq:{%s}:meta" % queue, "shards")
if recorded is None or int(recorded) != shards:
    sys.exit("queue %s has %r shards in Redis, not %d" % (queue, recorded, shards))
protocol = r.hget("dq:{%s}:meta" % queue, "protocol")
if protocol != b"2":
    sys.exit("queue %s speaks delayq protocol %r, this producer writes protocol 2" % (queue, protocol))


def bucket(task_id):
    """The record hash of the id within its shard: h = (h * 31 + byte) mod 2^24, then h mod 2039."""
    h = 0
    for b in task_id.encode("utf-8"):
        h = (h * 31 + b) % 16777216
    return h % 2039


for task in json.load(sys.stdin):
    task_id, due, level = task["id"], task["due"], task.get("priority", 0)
    shard = zlib.crc32(task_id.encode("utf-8")) % shards
    k = "dq:{%s:%d}" % (queue, shard)
    due_key = k + ":due" + ("" if level == 0 else ":p%d" % level)
    if task["payload"] is None:
        r.zadd(due_key, {task_id: due})  # store only the id
        continue
    record = {"payload": task["payload"], "enqueuedAt": int(time.time() * 1000)}
    if level:
        record["priority"] = level
    with r.pipeline(transaction=True) as tx:  # MULTI ... EXEC
        tx.hset("%s:tasks:%d" % (k, bucket(task_id)), task_id, json.dumps(record))
        tx.zadd(due_key, {task_id: due})
        tx.zadd(k + ":marker", {"next": due}, lt=True)
        tx.execute()
