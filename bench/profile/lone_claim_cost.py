#!/usr/bin/env python3
"""Redis' time inside a claim of one task and its ack, as W2 claims (batch 100, one task due), beside another commit's
scripts in the same run. Per round: 1,000 tasks due in an hour so the sets are not empty, then 300 times
one due task written, claimed with batch 100 and acked; INFO commandstats usec per call (1 µs resolution: read the
median and the 10th percentile over many calls).

  /usr/bin/python3 bench/profile/lone_claim_cost.py <lua folder of the other commit> [ROUNDS=4]
  (e.g. git archive <rev> src/main/resources/delayq/lua | tar -x -C /tmp/before)
"""
import os
import statistics
import sys
import time
import uuid

import redis

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_cost as sc  # noqa: E402


def main():
    before, rounds = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 4
    rows = [("before: " + before, sc.assembled("claim", before), sc.assembled("ack", before)),
            ("this tree", sc.assembled("claim"), sc.assembled("ack"))]
    r = sc.start_redis()
    try:
        keys = sc.profiled_redis.KEYS
        loaded = [(name, r.register_script(c), r.register_script(a)) for name, c, a in rows]
        claims = {name: [] for name, _, _ in rows}
        acks = {name: [] for name, _, _ in rows}

        def usec():
            return r.info("commandstats").get("cmdstat_evalsha", {}).get("usec", 0)

        def write(task_id, due):
            r.zadd(keys[0], {task_id: due})
            r.hset("%s:%d" % (keys[4], sc.bucket(task_id)), task_id, "0mikxxdds:")

        for _ in range(rounds):
            for name, claim, ack in loaded:
                r.flushall()
                now = int(time.time() * 1000)
                for i in range(1000):
                    write("f%06d" % i, now + 3600000)
                for i in range(300):
                    write("t%06d" % i, now - 10)
                    t0 = usec()
                    out = claim(keys=keys + [sc.profiled_redis.SHARD + "claim:" + uuid.uuid4().hex, sc.profiled_redis.SHARD + "paused"], args=[100, 30000, 0, 0])
                    claims[name].append(usec() - t0)
                    assert out[3] == 1, out
                    t0 = usec()
                    ack(keys=keys, args=[1, out[4], out[2], sc.bucket(out[4])])
                    acks[name].append(usec() - t0)
        print("| scripts | claim of one task µs (p10 / median) | its ack µs (p10 / median) |")
        print("|---|---:|---:|")
        for name in claims:
            c, a = sorted(claims[name]), sorted(acks[name])
            print("| %s | %d / %d | %d / %d |" % (name, c[len(c) // 10], statistics.median(c), a[len(a) // 10], statistics.median(a)))
    finally:
        r.close()


if __name__ == "__main__":
    main()
