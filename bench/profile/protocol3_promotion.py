#!/usr/bin/env python3
"""Protocol 3 study, promotion: what moving a task from a coarse 60 s bucket into its due window costs, per task.

Tasks enqueued more than HORIZON ahead wait in coarse buckets (`b:c<minute>:<k>`, listed in `cidx`); a promotion step
splits them into 100 ms due windows before they fall due. protocol3_study.Candidate's promotion (the baseline here,
with the id index in one hash: row G) rewrites every task's value (the offset from the window start) and its index
entry (the bucket's name), and gives each coarse bucket's tasks of one window a counter, a bucket write and an index
write of their own. The cheaper promotion modelled here ("names that stay true") changes what is written at enqueue:

  * every value holds the due time's offset from its *minute* (4 base-36 digits, in window buckets too), so a
    promotion copies values as they are;
  * the id index names the task's due time and the coarse bucket number (`<due b36>:c<k>`), not a window bucket, so
    a promotion writes no index entry: by-id operations derive the bucket names from it (below);
  * coarse buckets k of a minute are promoted in groups of 8 (k // 8): a group's tasks of one window are merged into
    one bucket `b:<window>:p<k // 8>` (one HSET a window, one ZADD for all the call's windows), so a dense shard's
    windows hold what its rate puts there, not one coarse bucket's share;
  * a coarse bucket whose tasks all fall in one window is RENAMEd to `b:<window>:r<k>` (O(1); the campaign case).
  So by-id operations find a task in at most three buckets the index entry names: `b:c<minute>:<k>`,
  `b:<window>:p<k // 8>`, `b:<window>:r<k>` (then the in-flight registry for the latter two).

Workloads (one shard each, 50-byte payloads, all due beyond the horizon, promoted in calls of 8 coarse buckets):
sparse (250,000 tasks over a day: one of 4 shards of the memory workload, ~174 a minute, ~0.3 a window), dense (62.5
tasks/s, W2's rate of one shard, for 20 minutes: 15 coarse buckets a minute, ~6 a window), one instant (50,000 due at
the same millisecond, the bench's campaign). Redis' own time inside each promotion call (INFO commandstats), per
task moved: 10th percentile (median) over the calls, and the longest call; variants interleaved REPS times.

  /usr/bin/python3 bench/profile/protocol3_promotion.py [REPS=2]
"""
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import profiled_redis  # noqa: E402
from protocol3_study import (Candidate, Study, b36, LUA_B36, COARSE_MS, HORIZON_MS, DAY_MS, PAYLOAD,  # noqa: E402
                             RECORD_HEAD)

PER_CALL = 8
CW = 4                      # base-36 digits of an offset within a minute


def stay_true_store(r, P, tasks, cap=250):
    """What enqueue writes under the names that stay true, for tasks all beyond the horizon: coarse buckets,
    values with the minute's offset, index entries `<due b36>:c<k>` (one hash per shard)."""
    record = RECORD_HEAD + PAYLOAD
    opened, buckets, index, cidx = {}, {}, {}, {}
    for task_id, due in tasks:
        minute = due - due % COARSE_MS
        base = "c" + b36(minute)
        cnt = opened.get(base, 0) + 1
        opened[base] = cnt
        k = (cnt - 1) // cap
        name = "%s:%d" % (base, k)
        if (cnt - 1) % cap == 0:
            cidx[name] = minute
        buckets.setdefault(name, {})[task_id] = b36(due % COARSE_MS).rjust(CW, "0") + record
        index[task_id] = "%s:c%d" % (b36(due), k)
    pipe = r.pipeline(transaction=False)
    for n, (name, fields) in enumerate(buckets.items()):
        pipe.hset(P + "b:" + name, mapping=fields)
        if n % 200 == 199:
            pipe.execute()
    items = list(index.items())
    for i in range(0, len(items), 2000):
        pipe.hset(P + "ix:0", mapping=dict(items[i:i + 2000]))
    pipe.zadd(P + "cidx", cidx)
    pipe.hset(P + "open", mapping=opened)
    pipe.execute()


def stay_true_promote(window=100):
    """ARGV: now, most coarse buckets. Promotes the coarse buckets whose minute has ended within the horizon (so no
    enqueue writes to them any more). Returns {tasks moved, buckets renamed}."""
    return LUA_B36 + """
local W, COARSE, HORIZON, CW, MERGE = %d, %d, %d, %d, %d
local P = KEYS[1]
local now = tonumber(ARGV[1])
local coarse = redis.call('ZRANGEBYSCORE', P .. 'cidx', '-inf', now + HORIZON - COARSE, 'LIMIT', 0, tonumber(ARGV[2]))
if #coarse == 0 then return { 0, 0 } end
local merged, order, gone, bases = {}, {}, {}, {} -- order: score, name pairs for idx
local moved, renamed = 0, 0
for _, name in ipairs(coarse) do
  local bkey = P .. 'b:' .. name
  local flat = redis.call('HGETALL', bkey)
  local start = tonumber(string.match(name, '^c(%%w+):'), 36)
  local mine, first, one = {}, nil, true
  for j = 1, #flat, 2 do
    local off = tonumber(string.sub(flat[j + 1], 1, CW), 36)
    local w = start + off - off %% W
    if first == nil then first = w elseif w ~= first then one = false end
    local g = mine[w]
    if g == nil then g = {}; mine[w] = g end
    g[#g + 1] = flat[j]; g[#g + 1] = flat[j + 1]
  end
  moved = moved + #flat / 2
  local k = tonumber(string.match(name, ':(%%d+)$'))
  if one and first then
    -- the whole bucket is one window's: it becomes that window's bucket as it is
    local target = b36(first) .. ':r' .. k
    redis.call('RENAME', bkey, P .. 'b:' .. target)
    order[#order + 1] = first; order[#order + 1] = target
    renamed = renamed + 1
  else
    -- merged with the other coarse buckets of its group of MERGE (k / MERGE) per window: one bucket a window
    local group = ':p' .. math.floor(k / MERGE)
    for w, g in pairs(mine) do
      local target = b36(w) .. group
      local m = merged[target]
      if m == nil then m = {}; merged[target] = m; order[#order + 1] = w; order[#order + 1] = target end
      for j = 1, #g do m[#m + 1] = g[j] end
    end
    gone[#gone + 1] = bkey
  end
  bases[#bases + 1] = string.match(name, '^(.*):%%d+$')
end
for target, m in pairs(merged) do redis.call('HSET', P .. 'b:' .. target, unpack(m)) end
redis.call('ZADD', P .. 'idx', 'NX', unpack(order))
if #gone > 0 then redis.call('DEL', unpack(gone)) end
redis.call('ZREM', P .. 'cidx', unpack(coarse))
redis.call('HDEL', P .. 'open', unpack(bases))
return { moved, renamed }
""" % (window, COARSE_MS, HORIZON_MS, CW, PER_CALL)


def sparse(now, rng):
    return [("d%09d" % i, now + 3_600_000 + rng.randrange(DAY_MS)) for i in range(250_000)]


def dense(now, rng):
    return sorted((("n%09d" % i, now + 3_600_000 + rng.randrange(1_200_000)) for i in range(75_000)), key=lambda t: t[1])


def one_instant(now, rng):
    return [("o%09d" % i, now + 3_600_000) for i in range(50_000)]


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    started = time.time()
    study = Study(1000)
    r = study.r
    base = Candidate("G. E, id index in one hash", ixb=1)
    baseline = r.register_script(base.promote())
    variants = [
        ("promotion of protocol3_study.py (values and index entries rewritten, a window bucket per coarse bucket; row G)", "base", None),
        ("names that stay true, merged windows, RENAME of one-window buckets (100 ms windows)", "true", r.register_script(stay_true_promote(100))),
        ("the same with 1 s windows (a slow shard's)", "true", r.register_script(stay_true_promote(1000))),
    ]
    workloads = [("sparse", sparse), ("dense", dense), ("one instant", one_instant)]
    figures = {}
    P = study.prefix(0)
    for rep in range(reps):
        for wname, make in workloads:
            for label, kind, script in variants:
                r.flushall()
                now = int(time.time() * 1000)
                tasks = make(now, random.Random(11))
                if kind == "base":
                    study.store(base, 0, tasks, PAYLOAD, now)
                else:
                    stay_true_store(r, P, tasks)
                horizon_end = now + 3_600_000 + (DAY_MS if wname == "sparse" else 0) + 3_600_000
                # promote what the next 70 minutes bring (sparse: ~12,000 tasks), or everything (dense, one instant)
                until = now + 3_600_000 + 4_200_000 if wname == "sparse" else horizon_end
                calls, longest, moved_all, renamed = [], 0, 0, 0
                while True:
                    t0 = study.usec()
                    if kind == "base":
                        moved = baseline(keys=[P], args=[until, PER_CALL])
                        ren = 0
                    else:
                        moved, ren = script(keys=[P], args=[until, PER_CALL])
                    spent = study.usec() - t0
                    if moved == 0:
                        break
                    calls.append(spent / moved)
                    longest = max(longest, spent)
                    moved_all += moved
                    renamed += ren
                f = figures.setdefault((label, wname), {"calls": [], "longest": 0, "moved": moved_all, "renamed": renamed})
                f["calls"].extend(calls)
                f["longest"] = max(f["longest"], longest)
                if kind == "true":
                    # every task is where its index entry says: its coarse bucket's window bucket `<window>:p`
                    window = 100 if "100 ms" in label else 1000
                    for task_id, due in random.Random(2).sample(tasks, 50):
                        d36, ck = r.hget(P + "ix:0", task_id).decode().split(":")
                        d, k = int(d36, 36), int(ck[1:])
                        w = b36(d - d % window)
                        names = ("%s:p%d" % (w, k // PER_CALL), "%s:r%d" % (w, k))
                        if d < until - HORIZON_MS and not any(r.hexists(P + "b:" + n, task_id) for n in names):
                            raise SystemExit("%s: %s is not in its window bucket" % (label, task_id))
        print("[%.0f s] rep %d done" % (time.time() - started, rep + 1), file=sys.stderr)
    print("| promotion, µs / task moved: 10th percentile (median); longest call | sparse (~174 a minute) | dense (62.5 tasks/s) | one instant |")
    print("|---|---:|---:|---:|")
    for label, _, _ in variants:
        cells = []
        for wname, _ in workloads:
            f = figures[(label, wname)]
            v = f["calls"]
            cells.append("%.2f (%.2f); %.1f ms%s" % (sorted(v)[len(v) // 10], statistics.median(v), f["longest"] / 1000,
                                                      "; %d renamed" % f["renamed"] if f["renamed"] else ""))
        print("| %s | %s |" % (label, " | ".join(cells)))
    print("(%.0f s)" % (time.time() - started))


if __name__ == "__main__":
    main()
