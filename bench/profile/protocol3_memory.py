#!/usr/bin/env python3
"""Memory per waiting task, protocol 3 beside protocol 2, same server, same tasks (issue 32's goal: at most 133 bytes
beyond the id and the payload).

N tasks (10-byte ids, 50-byte payloads, compact records) are enqueued through each protocol's real enqueue script in
calls of 500 onto one shard of its own queue, on one redis-server with the default listpack settings; the figure is
the growth of INFO used_memory over the tasks, less their id and payload bytes. Layouts: all due at one instant a day
ahead, spread evenly over the next day, and spread over the next 10 minutes (protocol 3's due windows, not minutes).

  /usr/bin/python3 bench/profile/protocol3_memory.py [N=200000]   (needs redis-server, python3-redis)
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import profiled_redis  # noqa: E402
import script_cost  # noqa: E402  (core's scripts as LuaScript assembles them)
from protocol3_cost import assembled_p3, ix  # noqa: E402  (p3/ scripts as BucketScript assembles them)

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
PAYLOAD = "x" * 50
CALL = 500


def record(now):
    # TaskRecord's compact form: priority digit, enqueuedAt in base 36, ':', payload
    digits, x, s = "0123456789abcdefghijklmnopqrstuvwxyz", now, ""
    while x:
        x, d = divmod(x, 36)
        s = digits[d] + s
    return "0" + s + ":" + PAYLOAD


def used(r):
    return int(r.info("memory")["used_memory"])


def fill(r, protocol, queue, dues, now):
    rec = record(now)
    if protocol == 3:
        script = r.register_script(assembled_p3("enqueue"))
        prefix = "dq:{%s:0}:" % queue
        for i in range(0, len(dues), CALL):
            args = [min(CALL, len(dues) - i)]
            for k in range(i, min(i + CALL, len(dues))):
                tid = "t%09d" % k
                args += [tid, ix(tid), "at", dues[k], rec, 0]
            script(keys=[prefix], args=args)
    else:
        script = r.register_script(script_cost.assembled("enqueue"))
        keys = [k.replace("bench", queue) for k in profiled_redis.KEYS]
        for i in range(0, len(dues), CALL):
            args = ["reject", min(CALL, len(dues) - i)]
            for k in range(i, min(i + CALL, len(dues))):
                args += ["t%09d" % k, "at", dues[k], rec, 0]
            args += [0, ""]
            script(keys=keys, args=args)


def main():
    r = profiled_redis.start()
    now = int(time.time() * 1000)
    layouts = {
        "all at one instant a day ahead": [now + 86_400_000] * N,
        "spread over the next day": [now + 600_000 + (86_400_000 * k) // N for k in range(N)],
        "spread over the next 10 minutes": [now + 1_000 + (590_000 * k) // N for k in range(N)],
    }
    print("Memory per waiting task beyond its 10-byte id and 50-byte payload, N = %d, one shard, redis-server %s"
          % (N, r.info("server")["redis_version"]))
    print("| layout | protocol 2 | protocol 3 | protocol 3 / 2 |")
    print("|---|---:|---:|---:|")
    for label, dues in layouts.items():
        got = {}
        for protocol in (2, 3):
            r.flushall()
            time.sleep(0.2)
            before = used(r)
            fill(r, protocol, "mem%d" % protocol, dues, now)
            got[protocol] = (used(r) - before) / N - 60
        print("| %s | %.0f B | %.0f B | %.2f |" % (label, got[2], got[3], got[3] / got[2]))


if __name__ == "__main__":
    main()
