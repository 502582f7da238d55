#!/usr/bin/env python3
"""Protocol 3 study, the converter: what upgrading a protocol-2 queue in place costs Redis, per task and per call.

A converter call (one Lua script, atomic, bounded) takes up to BUDGET entries of one protocol-2 due set in due order,
with their records (core's record buckets) and attempts, writes them as the protocol-3 candidate keeps waiting tasks
(protocol3_study.Candidate, the id index in one hash per shard: row G) and deletes them from the protocol-2 keys, so
each task is in exactly one layout at every moment. Tasks due within the horizon go into 100 ms due windows, later
ones into coarse 60 s buckets; a task with attempts goes into a bucket of its own attempt count (`ba`); errors stay in
the shard's `errors` hash (a per-id key protocol 3 keeps). The protocol-2 tasks are written by core's own enqueue.lua
(100 a call), so the records are real; 1 % of them get an attempt count and an error, as retry.lua would leave them.
Then every set is converted, shard by shard, and checked: nothing left in the protocol-2 keys, every task in the index.

Measured as the other profiles: Redis' own time inside each converter call (INFO commandstats usec of evalsha),
per converted task (10th percentile, median) and the longest single call.

  /usr/bin/python3 bench/profile/protocol3_converter.py [TASKS=1000000] [SHARDS=4] [BUDGET=500]
"""
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import profiled_redis  # noqa: E402
import script_cost  # noqa: E402
from protocol3_study import Candidate, COARSE_MS, HORIZON_MS, DAY_MS, PAYLOAD  # noqa: E402

RECORD_AT = 1764460000000


def shard_keys(shard):
    return [k.replace("{bench:0}", "{bench:%d}" % shard) for k in profiled_redis.KEYS]


def converter(cand):
    """KEYS[1..10]: the protocol-2 shard keys, KEYS[11]: the protocol-3 prefix of the same shard (same hash tag).
    ARGV: level (0, 1, 2), budget. Returns {converted, left in the set, of them into due windows, buckets written}."""
    include = "".join(open(os.path.join(script_cost.LUA, "include", name), encoding="utf-8").read()
                      for name in ("record_hash.lua", "shard_keys.lua"))
    return include + """
local DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'
local function b36(x, width)
  local out = ''
  repeat
    local d = x %% 36
    out = string.sub(DIGITS, d + 1, d + 1) .. out
    x = (x - d) / 36
  until x == 0
  if width and #out < width then out = string.rep('0', width - #out) .. out end
  return out
end
local W, CAP, HORIZON, COARSE, FW, CW = %d, %d, %d, %d, %d, %d
local P = KEYS[11]
local level, budget = tonumber(ARGV[1]), tonumber(ARGV[2])
local set = DUE[level + 1]
local idx = level == 0 and 'idx' or ('idx:p' .. level)
local now = server_now()
local got = redis.call('ZRANGE', set, 0, budget - 1, 'WITHSCORES')
local n = #got / 2
if n == 0 then return { 0, 0, 0, 0 } end
local ids = {}
for j = 1, #got, 2 do ids[#ids + 1] = got[j] end
local attempts = redis.call('HMGET', ATTEMPTS, unpack(ids))
-- group by destination bucket base (due window or coarse minute; a retried task: that and its attempt count)
local groups, order, by_rkey, retried, index = {}, {}, {}, {}, {}
local near = 0
for j = 1, n do
  local id, due = ids[j], tonumber(got[2 * j])
  local rkey = record_key(id)
  local record = redis.call('HGET', rkey, id) or ''
  local base, value, score, ix
  if due - now >= HORIZON then
    score = due - due %% COARSE
    base, value, ix = 'c' .. b36(score), b36(due %% COARSE, CW) .. record, 'cidx'
  else
    score = due - due %% W
    base, value, ix = b36(score), b36(due %% W, FW) .. record, idx
    near = near + 1
  end
  local a = attempts[j]
  if a then
    base = base .. 'a' .. a
    retried[#retried + 1] = id
  end
  local g = groups[base]
  if g == nil then
    g = { ix = ix, score = score, a = a, kv = {}, at = {} }
    groups[base] = g
    order[#order + 1] = base
  end
  g.kv[#g.kv + 1] = id
  g.kv[#g.kv + 1] = value
  local r = by_rkey[rkey]
  if r == nil then r = {}; by_rkey[rkey] = r end
  r[#r + 1] = id
  index[#index + 1] = id
  index[#index + 1] = base
  g.at[#g.at + 1] = #index
end
-- write: one bucket per group (the window's counter decides which; a new bucket joins its index)
for _, base in ipairs(order) do
  local g = groups[base]
  local m = #g.kv / 2
  local cnt = redis.call('HINCRBY', P .. 'open', base, m)
  local k = math.floor((cnt - m) / CAP)
  local name = base .. ':' .. k
  redis.call('HSET', P .. 'b:' .. name, unpack(g.kv))
  if (cnt - m) %% CAP == 0 or math.floor((cnt - 1) / CAP) ~= k then redis.call('ZADD', P .. g.ix, g.score, name) end
  if g.a then redis.call('HSET', P .. 'ba', name, g.a) end
  for _, j in ipairs(g.at) do index[j] = name end
end
redis.call('HSET', P .. 'ix:0', unpack(index))
-- delete from the protocol-2 keys
redis.call('ZREM', set, unpack(ids))
for rkey, r in pairs(by_rkey) do redis.call('HDEL', rkey, unpack(r)) end
if #retried > 0 then redis.call('HDEL', ATTEMPTS, unpack(retried)) end
return { n, redis.call('ZCARD', set), near, #order }
""" % (cand.window, cand.cap, HORIZON_MS, COARSE_MS, cand.width(False), cand.width(True))


def usec(r):
    return r.info("commandstats").get("cmdstat_evalsha", {}).get("usec", 0)


def main():
    tasks = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    shards = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    budget = int(sys.argv[3]) if len(sys.argv) > 3 else 500
    started = time.time()
    r = profiled_redis.start()
    enqueue = r.register_script(script_cost.assembled("enqueue"))
    cand = Candidate("G. E, id index in one hash", ixb=1)
    convert = r.register_script(converter(cand))
    rng = random.Random(3)
    now = int(time.time() * 1000)
    record = "0mikxxdds:" + PAYLOAD
    for s in range(shards):
        keys = shard_keys(s)
        per = tasks // shards
        for c in range(0, per, 100):
            args = ["reject", 100]
            for k in range(c, c + 100):
                args += ["s%d-%09d" % (s, k), "at", now + 60_000 + rng.randrange(DAY_MS), record, 0]
            args += [0, ""]
            enqueue(keys=keys, args=args)
        # 1 %: an attempt count and an error, as retry.lua leaves them
        pipe = r.pipeline(transaction=False)
        for k in range(0, per, 100):
            pipe.hset(keys[5], "s%d-%09d" % (s, k), 1 + k % 3)
            pipe.hset(keys[6], "s%d-%09d" % (s, k), "java.io.IOException: connection reset")
        pipe.execute()
    print("[%.0f s] %d protocol-2 tasks written by enqueue.lua" % (time.time() - started, tasks), file=sys.stderr)
    before = r.info("memory")["used_memory"]
    per_task, longest, total, calls = [], 0, 0, 0
    near_calls, far_calls, longest_near, longest_written = [], [], 0, 0
    t_start = time.time()
    for s in range(shards):
        keys = shard_keys(s) + ["p3:{bench:%d}:" % s]
        while True:
            t0 = usec(r)
            n, left, near, written = convert(keys=keys, args=[0, budget])
            spent = usec(r) - t0
            if n == 0:
                break
            calls += 1
            total += spent
            if spent > longest:
                longest, longest_near, longest_written = spent, near, written
            per_task.append(spent / n)
            (near_calls if near else far_calls).append(spent / n)
    wall = time.time() - t_start
    after = r.info("memory")["used_memory"]
    # check: nothing left in protocol 2's keys, every task in the index
    indexed = sum(r.hlen("p3:{bench:%d}:ix:0" % s) for s in range(shards))
    left = sum(r.zcard(shard_keys(s)[0]) for s in range(shards))
    records = sum(1 for _ in r.scan_iter(match="dq:*:tasks:*", count=1000))
    attempts = sum(r.hlen(shard_keys(s)[5]) for s in range(shards))
    errors = sum(r.hlen(shard_keys(s)[6]) for s in range(shards))
    if indexed != tasks or left or records or attempts:
        raise SystemExit("conversion lost or left tasks: indexed %d of %d, %d in due, %d record buckets, %d attempts"
                         % (indexed, tasks, left, records, attempts))
    q10 = sorted(per_task)[len(per_task) // 10]
    print("Converter, %s protocol-2 tasks (%d shards, enqueue.lua, due over a day, 1 %% retried), %d a call: "
          "%.2f (%.2f) µs / task, 10th percentile (median) of %d calls; longest call %.2f ms; %.2f s of Redis time "
          "in all, %.0f s wall; memory %+.0f B / task; errors kept: %d; every task indexed, protocol-2 keys empty"
          % ("{:,}".format(tasks), shards, budget, q10, statistics.median(per_task), calls, longest / 1000,
             total / 1e6, wall, (after - before) / tasks, errors))
    print("  calls with tasks due within the horizon (into 100 ms windows): %d, %.2f (%.2f) µs / task; the others: "
          "%.2f (%.2f); the longest call put %d of its tasks into due windows, in %d buckets"
          % (len(near_calls), sorted(near_calls)[len(near_calls) // 10], statistics.median(near_calls),
             sorted(far_calls)[len(far_calls) // 10], statistics.median(far_calls), longest_near, longest_written))


if __name__ == "__main__":
    main()
