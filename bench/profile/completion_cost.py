#!/usr/bin/env python3
"""What completion records cost Redis: the ack's script time per task with results kept and not, and the memory a
kept record takes. The figures behind docs/bench.md's "Completion records" and DELAYQ_RESULTS_KEEP's default.

Runs core's claim.lua and ack.lua (assembled as LuaScript does) on one shard of N due tasks of a redis-server it starts
itself, in claims of B and one ack per claim, as a worker draining W1 does, in three modes, interleaved REPS times so
that a busy machine slows all of them alike: results off (the ack as before), kept below the count bound (records
added, nothing trimmed), and kept at the count bound (every ack trims as many as it adds). Per ack call it reads the
script's own time from INFO commandstats (usec of evalsha) and reports the 10th percentile and the median per task.
Memory: used_memory before and after N tasks' records are kept (results of 2 and of 100 bytes, 10-byte ids, a
21-byte worker id), per task, and MEMORY USAGE of the two keys per record.

  /usr/bin/python3 bench/profile/completion_cost.py [N=50000] [B=1000] [REPS=3]     (needs redis-server and python3-redis)
"""
import os
import statistics
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import profiled_redis  # noqa: E402
from script_cost import assembled, bucket  # noqa: E402

WORKER = "orders-7f9c4d-5b2a1e"  # a pod name and 6 hex digits, as the worker's presence id
DONE, DONE_AT = profiled_redis.SHARD + "done", profiled_redis.SHARD + "done:at"


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50000
    batch = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    r = profiled_redis.start()
    keys = profiled_redis.KEYS
    claim, ack = r.register_script(assembled("claim")), r.register_script(assembled("ack"))
    hour = 3600000
    # (name, keep ms, max per shard, result): at the bound, the set is filled to it first, so every ack trims
    modes = [("results off (the ack as before)", 0, 0, "ok"),
             ("kept, below the count bound", hour, 10 * n, "ok"),
             ("kept, at the count bound (each ack trims what it adds)", hour, n // 5, "ok")]
    per_ack = {m[0]: [] for m in modes}

    def usec():
        return r.info("commandstats").get("cmdstat_evalsha", {}).get("usec", 0)

    def store():
        pipe = r.pipeline(transaction=False)
        for i in range(n):
            task_id = "t%09d" % i
            pipe.zadd(keys[0], {task_id: 1764460000000})
            pipe.hset("%s:%d" % (keys[4], bucket(task_id)), task_id, "0mikxxdds:")
            if i % 5000 == 4999:
                pipe.execute()
        pipe.execute()

    def ack_args(token, ids, keep, cap, result):
        args = [len(ids)]
        ordered = sorted(ids, key=bucket)
        for task_id in ordered:
            args += [task_id, token, bucket(task_id)]
        args += [0, 0]
        if keep:
            args += [keep, cap, WORKER]
            for _ in ordered:
                args += ["1|35|0", result]
        return args

    def drain(keep, cap, result, timed):
        batches = []
        while True:
            out = claim(keys=keys + [profiled_redis.SHARD + "claim:" + uuid.uuid4().hex], args=[batch, 30000, 0, 0])
            if out[3] == 0:
                break
            batches.append((out[2], [out[4 + 4 * k] for k in range(out[3])]))
        for token, ids in batches:
            t0 = usec()
            ack(keys=keys, args=ack_args(token, ids, keep, cap, result))
            if timed is not None:
                timed.append((usec() - t0) / len(ids))

    for _ in range(reps):
        for name, keep, cap, result in modes:
            r.flushall()
            if cap and cap < n:
                store()
                drain(keep, cap, result, None)  # fills the records to the bound
            store()
            drain(keep, cap, result, per_ack[name])

    def q10(v):
        return sorted(v)[len(v) // 10]

    print("ack.lua: Redis script time per task, µs (10th percentile / median over %d acks of %d; %d runs of %d tasks)"
          % (len(per_ack[modes[0][0]]), batch, reps, n))
    print("| ack | µs / task | against off |")
    print("|---|---:|---:|")
    off = q10(per_ack[modes[0][0]])
    for name, _, _, _ in modes:
        a = per_ack[name]
        print("| %s | %.2f / %.2f | %.2fx |" % (name, q10(a), statistics.median(a), q10(a) / off))

    print()
    print("memory per kept record (%d tasks; 10-byte ids, a %d-byte worker id)" % (n, len(WORKER)))
    print("| result | used_memory Δ / task | MEMORY USAGE of done + done:at / task |")
    print("|---|---:|---:|")
    for result in ("ok", "x" * 100):
        r.flushall()
        store()
        # the same keys once the records' tasks are gone: store and drain without results first, so only the records differ
        drain(0, 0, result, None)
        base = r.info("memory")["used_memory"]
        store()
        drain(hour, 10 * n, result, None)
        after = r.info("memory")["used_memory"]
        usage = (r.memory_usage(DONE, samples=0) or 0) + (r.memory_usage(DONE_AT, samples=0) or 0)
        print("| %d bytes | %.0f B | %.0f B |" % (len(result), (after - base) / n, usage / n))


if __name__ == "__main__":
    main()
