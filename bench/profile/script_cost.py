#!/usr/bin/env python3
"""Where a claim and an ack spend Redis' time, per task: the profile behind docs/bench.md's drain notes.

Runs core's claim.lua and ack.lua (assembled from src/main/resources/delayq/lua, as LuaScript does) on one shard of
N due tasks of a redis-server it starts itself, in claims of B and one ack per claim, as a worker draining W1 does;
beside them, in the same run, variants with one piece of work taken out (text edits of the real scripts, each checked
to apply) and the ceiling design's claim and ack (taken from bench/.../CeilingContender.java). Every variant runs
REPS times, interleaved, so a busy machine slows all of them alike; per call it reads the script's own time from
INFO commandstats (usec of evalsha) and reports the 10th percentile and the median per task. A piece's cost is the
baseline minus its variant. The variants are measurements, not alternatives: each drops something delayq needs.

  /usr/bin/python3 bench/profile/script_cost.py [N=50000] [B=1000] [REPS=4]     (needs redis-server and python3-redis)
"""
import os
import re
import statistics
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import profiled_redis  # noqa: E402

import redis

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LUA = os.path.join(ROOT, "src", "main", "resources", "delayq", "lua")
CEILING = os.path.join(ROOT, "bench", "src", "main", "java", "io", "delayq", "bench", "CeilingContender.java")
BUCKETS = 2039


def assembled(name, lua=LUA):
    raw = open(os.path.join(lua, name + ".lua"), encoding="utf-8").read()
    return re.sub(r"(?m)^--@include (\S+)$", lambda m: open(os.path.join(lua, "include", m.group(1)), encoding="utf-8").read(), raw)


def edited(text, *edits):
    for old, new in edits:
        if old not in text:
            raise SystemExit("claim.lua changed: the variant's edit no longer applies: " + old)
        text = text.replace(old, new)
    return text


def ceiling(name):
    java = open(CEILING, encoding="utf-8").read()
    return re.search(r'static final String ' + name + r' = """\n(.*?)""";', java, re.S).group(1)


def bucket(task_id):
    h = 0
    for c in task_id.encode() if isinstance(task_id, str) else task_id:
        h = (h * 31 + c) % 16777216
    return h % BUCKETS


def start_redis():
    """A redis-server of this process' own on a free loopback port, persistence off, stopped when the process exits."""
    return profiled_redis.start()


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50000
    batch = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    claim, ack = assembled("claim"), assembled("ack")
    variants = [
        ("delayq claim + ack (baseline)", claim, ack),
        ("  without the record read (HGET per task)", edited(claim, ("record = redis.pcall('HGET', key, id)", "record = '0a:'")), ack),
        ("  without HGET and bucket hashing in Lua", edited(claim, ("      local key = record_key(id)\n      record = redis.pcall('HGET', key, id)",
                                                                   "      local key = 'x'\n      record = '0a:'")), ack),
        ("  without reading attempts (HMGET)", edited(claim, ("or redis.call('HMGET', ATTEMPTS, unpack(ids))", "or {}"),
                                                              ("  redis.call('HSET', ATTEMPTS, unpack(counted))", "")), ack),
        ("  without the replay key (SET of the answer)", edited(claim, ("  redis.call('SET', KEYS[11], cjson.encode({ token, ids, dues }), 'PX', lease)", "")), ack),
        ("  without the records' HDEL in the ack", claim, edited(ack, ("      deleted = redis.pcall('HDEL', TASKS .. ':' .. b, unpack(done, first, i))", "      deleted = i - first + 1"))),
    ]
    # SCRIPT_COST_BEFORE=<a lua folder of another commit>: its claim + ack as a first row, so that a change is
    # measured beside the scripts it replaces in the same run
    before = os.environ.get("SCRIPT_COST_BEFORE")
    if before:
        variants.insert(0, ("before: claim + ack of " + before, assembled("claim", before), assembled("ack", before)))
    r = start_redis()
    keys = profiled_redis.KEYS
    loaded = [(name, r.register_script(c), r.register_script(a)) for name, c, a in variants]
    ceiling_claim, ceiling_ack = r.register_script(ceiling("CLAIM")), r.register_script(ceiling("ACK"))
    per_claim = {name: [] for name, _, _ in loaded}
    per_ack = {name: [] for name, _, _ in loaded}
    ceiling_name = "ceiling design claim + ack (one record hash)"
    per_claim[ceiling_name], per_ack[ceiling_name] = [], []

    def usec():
        return r.info("commandstats").get("cmdstat_evalsha", {}).get("usec", 0)

    def store(record_key_of):
        now = int(time.time() * 1000) - 1000
        pipe = r.pipeline(transaction=False)
        for i in range(n):
            task_id = "t%09d" % i
            pipe.zadd(keys[0], {task_id: now})
            pipe.hset(record_key_of(task_id), task_id, "0mikxxdds:")
            if i % 5000 == 4999:
                pipe.execute()
        pipe.execute()

    for _ in range(reps):
        for name, c, a in loaded:
            r.flushall()
            store(lambda task_id: "%s:%d" % (keys[4], bucket(task_id)))
            batches = []
            while True:
                t0 = usec()
                out = c(keys=keys + [profiled_redis.SHARD + "claim:" + uuid.uuid4().hex], args=[batch, 30000, 0, 0])
                got = out[3]
                if got == 0:
                    break
                per_claim[name].append((usec() - t0) / got)
                batches.append((out[2], [out[4 + 4 * k] for k in range(got)]))
            for token, ids in batches:
                args = [len(ids)]
                for task_id in sorted(ids, key=bucket):
                    args += [task_id, token, bucket(task_id)]
                t0 = usec()
                a(keys=keys, args=args)
                per_ack[name].append((usec() - t0) / len(ids))
        r.flushall()
        store(lambda task_id: "ceil:{0}:tasks")
        ceil_keys = ["dq:{bench:0}:due", "ceil:{0}:inflight", "ceil:{0}:tasks"]
        while True:
            t0 = usec()
            out = ceiling_claim(keys=ceil_keys, args=[batch, 30000])
            if not out:
                break
            ids = out[1::2]
            per_claim[ceiling_name].append((usec() - t0) / len(ids))
            t0 = usec()
            ceiling_ack(keys=ceil_keys[1:], args=[out[0]] + ids)
            per_ack[ceiling_name].append((usec() - t0) / len(ids))

    def q10(v):
        return sorted(v)[len(v) // 10]

    print("Redis script time per task, µs (10th percentile / median over %d claims of %d; %d runs of %d tasks)"
          % (len(per_claim[ceiling_name]), batch, reps, n))
    print("| variant | claim | ack | claim + ack |")
    print("|---|---:|---:|---:|")
    for name in per_claim:
        c, a = per_claim[name], per_ack[name]
        print("| %s | %.2f / %.2f | %.2f / %.2f | %.2f |" % (name.strip(), q10(c), statistics.median(c), q10(a), statistics.median(a), q10(c) + q10(a)))


if __name__ == "__main__":
    main()
