#!/usr/bin/env python3
"""What one W2 enqueue costs Redis: the produce path's profile, beside the version of another git revision.

Runs core's enqueue.lua (assembled from src/main/resources/delayq/lua, as LuaScript does) the way W2's producer does:
one call per task, a new id, reject mode, the record of a task without payload, due at an absolute time uniform in the
next 2 s, on a shard that already holds ~125 waiting tasks (W2's 1,000 tasks/s × 2 s over 16 shards). Beside it, in
the same run and interleaved block by block (so a busy machine slows all alike): the same script as git revision REV
had it (default: main), and three floors: a script that only returns (the cost of EVALSHA with these 10 KEYS and 9 ARGV),
and ones that define the included helpers and return (what a call pays before its first redis.call: part one of
enqueue.lua defines only shard_keys.lua and layout.lua, the general way all four). And protocol 3's enqueue
(p3/enqueue.lua, assembled as BucketScript does) on a shard its own calls filled with ~125 tasks, beside the floor
of its includes defined and nothing else.
Per variant it reports the script's own time (INFO commandstats usec of evalsha) and Redis' whole CPU (used_cpu_user +
used_cpu_sys, so the socket read, parse and reply too) per call, median over blocks, and the commands each call runs.

A call in W2 finds Redis cold (the calls are a millisecond apart, other processes run in between, so caches and TLBs
hold their data): PACE_MS > 0 sends the calls that far apart, as W2 does; 0 sends them back to back (hot).

  /usr/bin/python3 bench/profile/enqueue_cost.py [BLOCKS=12] [CALLS=2000] [REV=main] [PACE_MS=0]
  (needs redis-server, python3-redis, git)
"""
import os
import random
import re
import statistics
import subprocess
import sys
import time
from zlib import crc32

import profiled_redis

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LUA = "src/main/resources/delayq/lua"
BUCKETS = 2039
# protocol 3's id index: crc32(id) % 2039 (io.delayq.bucket.BucketLayout)
P3_ID_BUCKETS = 2039
WAITING = 125
# what W2's producer writes: a task without payload has the JSON record (TaskRecord.encode)
RECORD = '{"enqueuedAt":1764460000000}'


def source(rev, path):
    if rev is None:
        return open(os.path.join(ROOT, path), encoding="utf-8").read()
    return subprocess.run(["git", "-C", ROOT, "show", rev + ":" + path], check=True, capture_output=True, text=True).stdout


def assembled(name, rev=None):
    raw = source(rev, LUA + "/" + name + ".lua")
    return re.sub(r"(?m)^--@include (\S+)$", lambda m: source(rev, LUA + "/include/" + m.group(1)), raw)


def assembled_p3(name):
    """A protocol-3 script as core's BucketScript assembles it: includes from p3/include/, then include/."""
    raw = source(None, LUA + "/p3/" + name + ".lua")

    def include(m):
        own = os.path.join(ROOT, LUA, "p3", "include", m.group(1))
        return source(None, LUA + ("/p3/include/" if os.path.exists(own) else "/include/") + m.group(1))
    return re.sub(r"(?m)^--@include (\S+)$", include, raw)


def p3_includes_only(name):
    """A protocol-3 script's includes defined, then return: what its call pays before its first redis.call."""
    text = assembled_p3(name)
    return text[:text.index("local P = KEYS[1]")] + "return {0}\n"


def helpers(*names):
    """The named include files' definitions, then return: what a call pays to define them before any work."""
    return "".join(source(None, LUA + "/include/" + name) for name in names) + "return {0}\n"


def bucket(task_id):
    h = 0
    for c in task_id.encode():
        h = (h * 31 + c) % 16777216
    return h % BUCKETS


def main():
    blocks = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    rev = sys.argv[3] if len(sys.argv) > 3 else "main"
    pace = float(sys.argv[4]) / 1000 if len(sys.argv) > 4 else 0.0
    here = assembled("enqueue")
    variants = [
        ("enqueue.lua of " + rev, assembled("enqueue", rev)),
        ("enqueue.lua of this worktree", here),
        ("floor: a script that only returns", "return {0}\n"),
        ("floor: shard_keys + layout defined, then return (what part one of enqueue.lua needs)", helpers("record_hash.lua", "shard_keys.lua", "layout.lua")),
        ("floor: shard_keys + groups + common + layout defined, then return (all of enqueue's helpers)",
         helpers("record_hash.lua", "shard_keys.lua", "groups.lua", "common.lua", "layout.lua")),
        ("protocol 3: p3/enqueue.lua of this worktree", assembled_p3("enqueue")),
        ("protocol 3 floor: p3/enqueue.lua's includes defined, then return", p3_includes_only("enqueue")),
    ]
    r = profiled_redis.start()
    keys = profiled_redis.KEYS
    loaded = [(name, r.register_script(text)) for name, text in variants]
    p3_prefix = "dq:{q:0}:"
    script_us = {name: [] for name, _ in loaded}
    cpu_us = {name: [] for name, _ in loaded}
    cmds = {name: [] for name, _ in loaded}
    rnd = random.Random(17)
    serial = [0]

    def counters():
        info = r.info("commandstats")
        cpu = r.info("cpu")
        total = sum(v["calls"] for k, v in info.items() if k != "cmdstat_info")
        return info.get("cmdstat_evalsha", {}).get("usec", 0), cpu["used_cpu_user"] + cpu["used_cpu_sys"], total

    def p3_args(task_id, due):
        return ["1", task_id, str(crc32(task_id.encode()) % P3_ID_BUCKETS), "at", str(due), RECORD, "0"]

    def seed(p3):
        r.flushall()
        now = int(time.time() * 1000)
        pipe = r.pipeline(transaction=False)
        for _ in range(WAITING):
            serial[0] += 1
            task_id = "w%09d" % serial[0]
            if p3:
                # through the script itself: its buckets, id index and indexes as W2 leaves them
                loaded_p3.execute_command("EVAL", assembled_p3("enqueue"), 1, p3_prefix, *p3_args(task_id, now + rnd.randint(0, 2000)))
                continue
            pipe.zadd(keys[0], {task_id: now + rnd.randint(0, 2000)})
            pipe.hset("%s:%d" % (keys[4], bucket(task_id)), task_id, RECORD)
        pipe.execute()

    loaded_p3 = r
    for _ in range(blocks):
        for name, script in loaded:
            p3 = name.startswith("protocol 3")
            seed(p3)
            now = int(time.time() * 1000)
            work = []
            for _ in range(calls):
                serial[0] += 1
                task_id, due = "t%09d" % serial[0], now + rnd.randint(0, 2000)
                work.append(p3_args(task_id, due) if p3 else ["reject", "1", task_id, "at", str(due), RECORD, "0", "0", ""])
            usec0, cpu0, n0 = counters()
            for args in work:
                script(keys=[p3_prefix] if p3 else keys, args=args)
                if pace:
                    time.sleep(pace)
            usec1, cpu1, n1 = counters()
            script_us[name].append((usec1 - usec0) / calls)
            cpu_us[name].append((cpu1 - cpu0) * 1e6 / calls)
            cmds[name].append((n1 - n0) / calls)  # INFO itself is left out of the sum

    print("Redis time per single-task enqueue call, µs (median over %d blocks of %d calls; W2's shape; %s)"
          % (blocks, calls, "%.1f ms apart" % (pace * 1000) if pace else "back to back"))
    print("| variant | script (evalsha usec) | Redis CPU (incl. socket) | commands / call (incl. EVALSHA) |")
    print("|---|---:|---:|---:|")
    for name, _ in loaded:
        print("| %s | %.2f | %.1f | %.1f |" % (name, statistics.median(script_us[name]), statistics.median(cpu_us[name]),
                                             statistics.median(cmds[name])))


if __name__ == "__main__":
    main()
