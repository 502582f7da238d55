#!/usr/bin/env python3
"""What closing the drain gap would cost: candidate record layouts side by side, in one run.

The drain's gap to the ceiling is per-task work inside Redis, mostly where protocol 2 keeps the records (2,039
listpack hashes per shard chosen by a hash of the id: a claim of 1,000 reads ~1,000 buckets one HGET at a time and
its ack deletes from ~780 buckets). This study puts layouts that would change that beside each other, each modelled
by a minimal claim, ack, cancel and reschedule script written here (the ceiling's two scripts plus what the layout
needs), with every per-task check of core's scripts (ids, scores, priority levels, attempts, replay key, groups)
left out of all of them alike, so that they differ only in where records live. Per layout:

  * claim + ack: Redis' own time inside the script calls (INFO commandstats usec of evalsha) per task, median over
    claims of B tasks and one ack per claim, on 4 shards holding the W1 workload (100,000 tasks due at one instant),
    the W2 distribution (100,000 due times uniform over 2 s) and W1 stored on top of the memory workload (a drain
    while 1,000,000 tasks wait: the id-hash buckets then also hold the waiting records a claim must scan past);
  * memory: Δused_memory per waiting task minus its 60 bytes of id and payload, 1,000,000 tasks with 50-byte payloads
    and 10-byte ids on 4 shards, due times spread over a day (as the bench's memory workload, whose tasks all share
    one due time; spread is what the time-bucketed layouts meet in practice);
  * by id: cancel and reschedule of one task on that full data set (script time, median), and what the layout needs
    from the protocol for them.

Two reference rows run core's real claim.lua + ack.lua (protocol 2, every check) and the ceiling's scripts
(CeilingContender.java) on the same W1 and W2 data, so the minimal model's protocol-2 row can be read against them.
Layouts and workloads are interleaved REPS times (memory once: it does not vary), so a busy machine slows all alike.

  /usr/bin/python3 bench/profile/record_layouts.py [REPS=2] [B=1000] [MEMORY_TASKS=1000000] [W1_TASKS=100000]      (needs redis-server and python3-redis)
"""
import os
import random
import re
import statistics
import sys
import time
import uuid


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_cost  # noqa: E402  (core's scripts assembled as LuaScript does, the ceiling's scripts, the id hash)

SHARDS = 4                  # the tuned rows' shard count (delayq, 1 worker)
W1_TASKS = 100_000          # bench W1: all due at one instant
W2_SPAN_MS = 2_000          # bench W2's delays: uniform over 2 s
MEMORY_TASKS = 1_000_000    # bench memory workload
PAYLOAD = "x" * 50
DAY_MS = 86_400_000
BY_ID_CALLS = 100           # cancels and reschedules, each
LEASE_MS = 30_000
# a compact record as delayq's clients write it: priority digit, enqueuedAt in base 36, ':', payload
RECORD_HEAD = "0mikxxdds:"

# --- the layouts -----------------------------------------------------------------------------------------------
# kind: how a record's hash is chosen (one: one per shard; idhash: hash of the id mod buckets; time: floor(due / W);
# hybrid: floor(due / W) and the id hash mod M; member: no record hash, the record travels in the due-set member)
# read: how a claim fetches its records (hget: one HGET per task, as claim.lua today; group: one HMGET per bucket
# touched; runs: one HMGET per run of equal buckets in due order; one: one HMGET; none)

def id_hash_lua():
    """Core's id hash (record_key without the bucket count), so that the study hashes as core does: read from
    whichever include file defines record_key (include/shard_keys.lua), everything before the line
    that takes h modulo the bucket count. Study.check_id_hash runs it against id_hash below before anything is timed."""
    include = os.path.join(script_cost.LUA, "include")
    for name in sorted(os.listdir(include)):
        text = open(os.path.join(include, name), encoding="utf-8").read()
        fn = re.search(r"(?ms)^local function record_key\((\w+)\)\n(.*?)^end$", text)
        if fn is None:
            continue
        body = re.match(r"(?s)(.*?)\n[ \t]*local \w+ = h % \w+\n", fn.group(2))
        if body is None:
            raise SystemExit("include/%s changed: record_key no longer takes h modulo its bucket count" % name)
        return "local byte = string.byte\nlocal function id_hash(%s)\n%s\n  return h\nend\n" % (fn.group(1), body.group(1))
    raise SystemExit("no file of %s defines record_key(id): the study cannot hash ids as core does" % include)


ID_HASH_LUA = id_hash_lua()


def id_hash(task_id):
    h = 0
    for c in task_id.encode():
        h = (h * 31 + c) % 16777216
    return h


class Layout:
    def __init__(self, name, kind, read, needs, buckets=0, window=0, mod=0, listpack_entries=None, index=False, move=False):
        self.name, self.kind, self.read, self.needs = name, kind, read, needs
        self.buckets, self.window, self.mod, self.listpack_entries, self.index = buckets, window, mod, listpack_entries, index
        # move: the claim moves its tasks' records into one in-flight hash per shard (the ack and reclaim then find
        # them by id alone, as in the member layouts)
        self.move = move

    def in_flight_hash(self):
        return self.kind == "member" or self.move

    def ack_hint(self, task_id, due):
        """What the worker sends with each acked id: where its record is, '' when the in-flight hash holds it."""
        if self.in_flight_hash() and not self.index:
            return ""
        return self.hint(task_id, due)

    # the record hash's suffix after <shard>:tasks: ('' for the one hash); for member layouts, the index bucket
    def hint(self, task_id, due):
        if self.kind == "one" or (self.kind == "member" and not self.index):
            return ""
        if self.kind in ("idhash", "member"):
            return str(id_hash(task_id) % self.buckets)
        if self.kind == "time":
            return str(due // self.window)
        return "%d:%d" % (due // self.window, id_hash(task_id) % self.mod)

    def record_key(self, prefix, task_id, due):
        h = self.hint(task_id, due)
        return prefix if h == "" else prefix + ":" + h

    def lua_key(self):
        """`local function rkey(id, due)`: the record hash of a task (due: its score, number or text)."""
        if self.kind == "one":
            return "local function rkey(id, due) return KEYS[3] end\n"
        if self.kind == "time":
            return "local W = %d\nlocal function rkey(id, due) return KEYS[3] .. ':' .. math.floor(tonumber(due) / W) end\n" % self.window
        if self.kind == "hybrid":
            return ID_HASH_LUA + ("local W, M = %d, %d\nlocal function rkey(id, due)\n"
                                  "  return KEYS[3] .. ':' .. math.floor(tonumber(due) / W) .. ':' .. id_hash(id) %% M\nend\n"
                                  % (self.window, self.mod))
        # idhash, and the member layouts' id index: each bucket's key built once per call, as record_key in include/shard_keys.lua
        return ID_HASH_LUA + ("local B = %d\nlocal bucket_keys = {}\nlocal function rkey(id, due)\n"
                              "  local b = id_hash(id) %% B\n  local key = bucket_keys[b]\n"
                              "  if key == nil then key = KEYS[3] .. ':' .. b; bucket_keys[b] = key end\n  return key\nend\n"
                              % self.buckets)

    # --- scripts: KEYS[1] due set, KEYS[2] in-flight set, KEYS[3] the records' hash or prefix ---------------------
    def claim(self):
        head = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local found = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[1]))
local n = #found / 2
if n == 0 then return {} end
local token = now + tonumber(ARGV[2])
local members, ids, dues, pairs_, records = {}, {}, {}, {}, {}
for i = 1, n do
  local m = found[2 * i - 1]
  members[i], dues[i] = m, found[2 * i]
"""
        if self.kind == "member":
            # member = one byte (id length - 1), the id, the record: the due set is sorted by member within a score,
            # so a probe of the length byte and the id finds the task when the caller knows its due time (cancel)
            head += "  local l = string.byte(m, 1) + 1\n  ids[i], records[i] = string.sub(m, 2, l + 1), string.sub(m, l + 2)\n"
        else:
            head += "  ids[i] = m\n"
        head += """  pairs_[2 * i - 1], pairs_[2 * i] = token, ids[i]
end
redis.call('ZREM', KEYS[1], unpack(members))
redis.call('ZADD', KEYS[2], unpack(pairs_))
"""
        if self.kind == "member":
            # in flight, the records wait in one hash per shard (reclaim and inspect find them by id); acked: deleted
            read = """local fields = {}
for i = 1, n do fields[2 * i - 1], fields[2 * i] = ids[i], records[i] end
redis.call('HSET', KEYS[3] .. ':inflight', unpack(fields))
"""
        elif self.read == "one":
            read = "records = redis.call('HMGET', KEYS[3], unpack(ids))\n"
        elif self.read == "hget":
            read = "for i = 1, n do records[i] = redis.call('HGET', rkey(ids[i], dues[i]), ids[i]) end\n"
        elif self.read == "runs":
            read = """local first, b = 1, math.floor(tonumber(dues[1]) / W)
for i = 1, n do
  local nb = i < n and math.floor(tonumber(dues[i + 1]) / W) or nil
  if nb ~= b then
    local key = KEYS[3] .. ':' .. b
    local got = redis.call('HMGET', key, unpack(ids, first, i))
    for j = first, i do records[j] = got[j - first + 1] end
    MOVE
    first, b = i + 1, nb
  end
end
"""
        else:  # group
            read = """local by_key, keys = {}, {}
for i = 1, n do
  local key = rkey(ids[i], dues[i])
  local g = by_key[key]
  if g == nil then g = {}; by_key[key] = g; keys[#keys + 1] = key end
  g[#g + 1] = i
end
for _, key in ipairs(keys) do
  local g = by_key[key]
  local fields = {}
  for j = 1, #g do fields[j] = ids[g[j]] end
  local got = redis.call('HMGET', key, unpack(fields))
  for j = 1, #g do records[g[j]] = got[j] end
end
"""
        if self.read == "runs":
            read = read.replace("MOVE", "redis.call('HDEL', key, unpack(ids, first, i))" if self.move else "")
        if self.move:
            read += """local fields = {}
for i = 1, n do fields[2 * i - 1], fields[2 * i] = ids[i], records[i] end
redis.call('HSET', KEYS[3] .. ':inflight', unpack(fields))
"""
        tail = """local out = { token, n }
for i = 1, n do out[3 * i], out[3 * i + 1], out[3 * i + 2] = ids[i], dues[i], records[i] or '' end
return out
"""
        lua = self.lua_key() if self.read in ("hget", "group") else ""
        if self.read == "runs":
            lua = "local W = %d\n" % self.window
        return lua + head + read + tail

    def ack(self):
        """ARGV: n, then per task id, token, hint (the record hash's suffix, computed by the worker as RecordBuckets does
        today, tasks sorted by it). Returns {acked, records not found where the hint said}."""
        head = """
local n = tonumber(ARGV[1])
local ids = {}
for k = 0, n - 1 do ids[k + 1] = ARGV[2 + 3 * k] end
local scores = redis.call('ZMSCORE', KEYS[2], unpack(ids))
local done, hints = {}, {}
for k = 0, n - 1 do
  local score = scores[k + 1]
  if score and tonumber(score) == tonumber(ARGV[3 + 3 * k]) then
    done[#done + 1] = ids[k + 1]
    hints[#done] = ARGV[4 + 3 * k]
  end
end
if #done == 0 then return { 0, 0 } end
redis.call('ZREM', KEYS[2], unpack(done))
local missed = 0
"""
        runs = """local first = 1
for i = 1, #done do
  if i == #done or hints[i + 1] ~= hints[i] then
    local deleted = redis.call('HDEL', PREFIX .. ':' .. hints[i], unpack(done, first, i))
    missed = missed + (i - first + 1 - deleted)
    first = i + 1
  end
end
"""
        if self.kind == "one":
            body = "missed = #done - redis.call('HDEL', KEYS[3], unpack(done))\n"
        elif self.in_flight_hash():
            body = "missed = #done - redis.call('HDEL', KEYS[3] .. ':inflight', unpack(done))\n"
            if self.index:
                body += "local PREFIX = KEYS[3] .. ':ix'\n" + runs
        else:
            body = "local PREFIX = KEYS[3]\n" + runs
        return head + body + "return { #done, missed }\n"

    def _member_lookup(self, due_arg):
        """Lua that finds the task's member `m` (and, with the index, its index bucket `key`), or returns 0."""
        if self.index:
            return self.lua_key().replace("KEYS[3] .. ':' .. b", "KEYS[3] .. ':ix:' .. b") + self._find_member() + """
local id = ARGV[1]
local key = rkey(id)
local due = redis.call('HGET', key, id)
if not due then return 0 end
local m = find_member(id, due)
if not m then return 0 end
"""
        return self._find_member() + """
local id = ARGV[1]
local m = find_member(id, ARGV[%d])
if not m then return 0 end
""" % due_arg

    def cancel(self):
        """ARGV: id, its due time (only the member layout without an index uses it). Returns 1 when cancelled."""
        if self.kind == "member":
            return (self._member_lookup(2) + "redis.call('ZREM', KEYS[1], m)\n"
                    + ("redis.call('HDEL', key, id)\n" if self.index else "") + "return 1\n")
        return self.lua_key() + """
local id = ARGV[1]
local score = redis.call('ZSCORE', KEYS[1], id)
if not score then return 0 end
redis.call('ZREM', KEYS[1], id)
return redis.call('HDEL', rkey(id, score), id)
"""

    def reschedule(self):
        """ARGV: id, new due time, old due time (only the member layout without an index uses it). Returns 1 when moved."""
        if self.kind == "member":
            return (self._member_lookup(3) + "redis.call('ZREM', KEYS[1], m)\nredis.call('ZADD', KEYS[1], ARGV[2], m)\n"
                    + ("redis.call('HSET', key, id, ARGV[2])\n" if self.index else "") + "return 1\n")
        if self.kind in ("one", "idhash"):
            return """
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], 'XX', ARGV[2], ARGV[1])
return 1
"""
        # the record follows its due time into the new time bucket
        return self.lua_key() + """
local id = ARGV[1]
local score = redis.call('ZSCORE', KEYS[1], id)
if not score then return 0 end
local old, new = rkey(id, score), rkey(id, ARGV[2])
if old ~= new then
  local record = redis.call('HGET', old, id)
  redis.call('HDEL', old, id)
  redis.call('HSET', new, id, record)
end
redis.call('ZADD', KEYS[1], 'XX', ARGV[2], id)
return 1
"""

    @staticmethod
    def _find_member():
        # the shortest member with the task's prefix, added for a moment: the next member in the set's order is the
        # task's own when it waits at that due time (nothing else can sort between a prefix and its extensions)
        return """
local function find_member(id, due)
  local probe = string.char(#id - 1) .. id
  redis.call('ZADD', KEYS[1], due, probe)
  local rank = redis.call('ZRANK', KEYS[1], probe)
  local after = redis.call('ZRANGE', KEYS[1], rank + 1, rank + 1, 'WITHSCORES')
  redis.call('ZREM', KEYS[1], probe)
  if after[1] and tonumber(after[2]) == tonumber(due) and string.sub(after[1], 1, #probe) == probe then return after[1] end
  return nil
end
"""

    def member(self, task_id, record):
        return chr(len(task_id) - 1) + task_id + record


def layouts():
    by_id = "cancel, reschedule, dedupe by id alone"
    return [
        Layout("protocol 2 today: 2,039 id-hash buckets, HGET per task", "idhash", "hget", by_id, buckets=2039),
        Layout("2,039 id-hash buckets, HMGET per bucket", "idhash", "group", by_id, buckets=2039),
        Layout("256 id-hash buckets, HMGET per bucket", "idhash", "group", by_id, buckets=256),
        Layout("256 id-hash buckets, hash-max-listpack-entries 2048", "idhash", "group",
               by_id + "; a server setting the operator must own", buckets=256, listpack_entries=2048),
        Layout("64 id-hash buckets, HMGET per bucket", "idhash", "group", by_id, buckets=64),
        Layout("one hash per shard (protocol 1, the ceiling's)", "one", "one", by_id),
        Layout("due-time buckets W = 10 ms", "time", "runs", by_id + "; the ack and reclaim need each due time, "
               "a reschedule moves the record", window=10),
        Layout("due-time buckets W = 1 s", "time", "runs", "as above", window=1000),
        Layout("due-time buckets W = 60 s", "time", "runs", "as above", window=60000),
        Layout("due-time buckets W = 60 s, the claim moves records to an in-flight hash", "time", "runs",
               "as above, but the ack and reclaim find in-flight records by id alone", window=60000, move=True),
        Layout("due-time W = 1 s × 16 id-hash buckets", "hybrid", "group", "as above", window=1000, mod=16),
        Layout("due-time W = 60 s × 16 id-hash buckets", "hybrid", "group", "as above", window=60000, mod=16),
        Layout("record in the due-set member, in-flight records in one hash", "member", "none",
               "cancel / reschedule only with the task's due time; no dedupe by id (enqueue cannot find an id)"),
        Layout("record in the due-set member + id → due index (2,039 buckets)", "member", "none",
               "cancel, reschedule, dedupe by id alone (through the index)", buckets=2039, index=True),
    ]


# --- the run ---------------------------------------------------------------------------------------------------

class Study:
    def __init__(self, batch):
        self.batch = batch
        self.r = script_cost.start_redis()
        self.default_entries = self.r.config_get("hash-max-listpack-entries")["hash-max-listpack-entries"]
        self.check_id_hash()

    def check_id_hash(self):
        """The id hash read from core's include hashes as the study's own (which chooses where store() writes)."""
        ids = ["", "a", "order-8812", "abcde", "abcdefghij", "x" * 37, "żółw-☃", str(uuid.uuid4())]
        lua = ID_HASH_LUA + "local out = {}\nfor i = 1, #ARGV do out[i] = id_hash(ARGV[i]) end\nreturn out\n"
        got = self.r.eval(lua, 0, *ids)
        want = [id_hash(i) for i in ids]
        if got != want:
            raise SystemExit("core's record_key hashes ids differently from this study's id_hash: %s != %s" % (got, want))

    def usec(self):
        return self.r.info("commandstats").get("cmdstat_evalsha", {}).get("usec", 0)

    @staticmethod
    def keys(shard):
        p = "lay:{%d}:" % shard
        return [p + "due", p + "inflight", p + "tasks"]

    def fresh(self, layout):
        self.r.flushall()
        self.r.config_set("hash-max-listpack-entries", layout.listpack_entries or self.default_entries)

    def store(self, layout, tasks, payload):
        """tasks: per shard a list of (id, due). Multi-member ZADDs and HSETs, pipelined."""
        record_of = RECORD_HEAD + payload
        pipe = self.r.pipeline(transaction=False)
        pending = 0
        for shard, shard_tasks in enumerate(tasks):
            due_key, _, prefix = self.keys(shard)
            members, hashes = {}, {}
            for task_id, due in shard_tasks:
                if layout.kind == "member":
                    members[layout.member(task_id, record_of)] = due
                    if layout.index:
                        hashes.setdefault(prefix + ":ix:" + layout.hint(task_id, due), {})[task_id] = due
                else:
                    members[task_id] = due
                    hashes.setdefault(layout.record_key(prefix, task_id, due), {})[task_id] = record_of
                if len(members) == 5000:
                    pipe.zadd(due_key, members)
                    members, pending = {}, pending + 1
            if members:
                pipe.zadd(due_key, members)
            for key, fields in hashes.items():
                items = list(fields.items())
                for i in range(0, len(items), 2000):
                    pipe.hset(key, mapping=dict(items[i:i + 2000]))
                    pending += 1
                    if pending >= 200:
                        pipe.execute()
                        pending = 0
            pipe.execute()
            pending = 0

    def drain(self, layout, claim, ack):
        """Claims of B round robin over the shards, each acked right after (as a worker with a short handler does).
        Returns per-task µs of each claim and each ack."""
        claims, acks = [], []
        live = list(range(SHARDS))
        while live:
            for shard in list(live):
                keys = self.keys(shard)
                t0 = self.usec()
                out = claim(keys=keys, args=[self.batch, LEASE_MS])
                if not out:
                    live.remove(shard)
                    continue
                n = out[1]
                claims.append((self.usec() - t0) / n)
                token = out[0]
                tasks = []
                for k in range(n):
                    task_id, due, record = out[2 + 3 * k].decode(), int(float(out[3 + 3 * k])), out[4 + 3 * k]
                    if not record:
                        raise SystemExit("%s: the claim found no record for %s" % (layout.name, task_id))
                    tasks.append((layout.ack_hint(task_id, due), task_id))
                tasks.sort()
                args = [n]
                for hint, task_id in tasks:
                    args += [task_id, token, hint]
                t0 = self.usec()
                done, missed = ack(keys=keys, args=args)
                acks.append((self.usec() - t0) / n)
                if done != n or missed != 0:
                    raise SystemExit("%s: the ack finished %d of %d tasks, %d records not where the hint said" % (layout.name, done, n, missed))
        return claims, acks

    def reference_drain(self, which, claim, ack):
        """core's real scripts (protocol 2) or the ceiling's, on data stored as they expect it."""
        claims, acks = [], []
        live = list(range(SHARDS))
        while live:
            for shard in list(live):
                due_key, inflight, prefix = self.keys(shard)
                tag = "lay:{%d}:" % shard
                if which == "core":
                    keys = [due_key, tag + "due:p1", tag + "due:p2", inflight, prefix, tag + "attempts", tag + "errors",
                            tag + "dead", tag + "marker", tag + "rate"]
                    t0 = self.usec()
                    out = claim(keys=keys + [tag + "claim:" + uuid.uuid4().hex], args=[self.batch, LEASE_MS, 0, 0])
                    n = out[3]
                    if n == 0:
                        live.remove(shard)
                        continue
                    claims.append((self.usec() - t0) / n)
                    ids = [out[4 + 4 * k].decode() for k in range(n)]
                    args = [n]
                    for task_id in sorted(ids, key=script_cost.bucket):
                        args += [task_id, out[2], script_cost.bucket(task_id)]
                    t0 = self.usec()
                    ack(keys=keys, args=args)
                    acks.append((self.usec() - t0) / n)
                else:
                    keys = [due_key, inflight, prefix]
                    t0 = self.usec()
                    out = claim(keys=keys, args=[self.batch, LEASE_MS])
                    if not out:
                        live.remove(shard)
                        continue
                    ids = out[1::2]
                    claims.append((self.usec() - t0) / len(ids))
                    t0 = self.usec()
                    ack(keys=keys[1:], args=[out[0]] + ids)
                    acks.append((self.usec() - t0) / len(ids))
        return claims, acks

    def by_id(self, layout, cancel, reschedule, tasks, rng):
        """On the stored memory workload: cancels and reschedules of tasks picked at random. Returns µs per call."""
        picked = rng.sample(range(len(tasks[0])), 2 * BY_ID_CALLS)
        cancels, moves = [], []
        for k, index in enumerate(picked):
            shard = k % SHARDS
            task_id, due = tasks[shard][index]
            keys = self.keys(shard)
            t0 = self.usec()
            if k < BY_ID_CALLS:
                ok = cancel(keys=keys, args=[task_id, due])
                cancels.append(self.usec() - t0)
            else:
                ok = reschedule(keys=keys, args=[task_id, due + rng.randrange(-DAY_MS // 2, DAY_MS // 2), due])
                moves.append(self.usec() - t0)
            if ok != 1:
                raise SystemExit("%s: the %s of %s found nothing" % (layout.name, "cancel" if k < BY_ID_CALLS else "reschedule", task_id))
        return statistics.median(cancels), statistics.median(moves)


def workload(kind, count, now, rng, first=0):
    """Per shard a list of (id, due): W1 one instant, W2 uniform over 2 s, day uniform over the next 24 h."""
    tasks = [[] for _ in range(SHARDS)]
    for i in range(first, first + count):
        if kind == "w1":
            due = now
        elif kind == "tomorrow":
            due = now + DAY_MS
        elif kind == "w2":
            due = now + rng.randrange(W2_SPAN_MS)
        else:
            due = now + 3_600_000 + rng.randrange(DAY_MS)
        tasks[i % SHARDS].append(("t%09d" % i, due))
    return tasks


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    batch = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    global MEMORY_TASKS, W1_TASKS
    MEMORY_TASKS = int(sys.argv[3]) if len(sys.argv) > 3 else MEMORY_TASKS
    W1_TASKS = int(sys.argv[4]) if len(sys.argv) > 4 else W1_TASKS
    started = time.time()
    study = Study(batch)
    r = study.r
    rng = random.Random(17)
    all_layouts = layouts()
    scripts = {lay.name: [r.register_script(s) for s in (lay.claim(), lay.ack(), lay.cancel(), lay.reschedule())] for lay in all_layouts}
    core = (r.register_script(script_cost.assembled("claim")), r.register_script(script_cost.assembled("ack")))
    ceil = (r.register_script(script_cost.ceiling("CLAIM")), r.register_script(script_cost.ceiling("ACK")))
    core_name, ceil_name = "core's claim.lua + ack.lua (protocol 2, every check)", "the ceiling's scripts (one hash per shard)"
    p2 = Layout("", "idhash", "hget", "", buckets=2039)
    one = Layout("", "one", "one", "")
    figures = {}  # (name, column) -> (per-task µs of every claim, of every ack), pooled over the reps

    def record(name, column, claims, acks):
        got = figures.setdefault((name, column), ([], []))
        got[0].extend(claims)
        got[1].extend(acks)

    # memory, by-id operations and a W1 drain on top of the full queue: once per layout (the stored set is the same)
    memory, ops, one_instant = {}, {}, {}
    for lay in all_layouts:
        claim, ack, cancel, reschedule = scripts[lay.name]
        study.fresh(lay)
        now = int(time.time() * 1000)
        tasks = workload("day", MEMORY_TASKS, now, random.Random(1))
        before = r.info("memory")["used_memory"]
        study.store(lay, tasks, PAYLOAD)
        memory[lay.name] = (r.info("memory")["used_memory"] - before) / MEMORY_TASKS - 10 - len(PAYLOAD)
        ops[lay.name] = study.by_id(lay, cancel, reschedule, tasks, rng)
        study.store(lay, workload("w1", W1_TASKS, now - 1000, rng, first=MEMORY_TASKS), "")
        record(lay.name, "full", *study.drain(lay, claim, ack))
        if lay.kind in ("time", "hybrid"):
            # the bench's memory workload as written: every task due at one instant (a campaign for tomorrow 09:00)
            study.fresh(lay)
            before = r.info("memory")["used_memory"]
            study.store(lay, workload("tomorrow", MEMORY_TASKS, now, rng), PAYLOAD)
            one_instant[lay.name] = (r.info("memory")["used_memory"] - before) / MEMORY_TASKS - 10 - len(PAYLOAD)
        print("[%.0f s] %s: %.0f B per waiting task beyond id + payload" % (time.time() - started, lay.name, memory[lay.name]), file=sys.stderr)

    for name, layout, which, pair in ((core_name, p2, "core", core), (ceil_name, one, "ceiling", ceil)):
        study.fresh(layout)
        now = int(time.time() * 1000)
        study.store(layout, workload("day", MEMORY_TASKS, now, random.Random(1)), PAYLOAD)
        study.store(layout, workload("w1", W1_TASKS, now - 1000, rng, first=MEMORY_TASKS), "")
        record(name, "full", *study.reference_drain(which, *pair))

    # W1 and W2 alone, interleaved: every layout and the two references once per rep
    for rep in range(reps):
        for kind in ("w1", "w2"):
            for lay in all_layouts:
                study.fresh(lay)
                study.store(lay, workload(kind, W1_TASKS, int(time.time() * 1000) - W2_SPAN_MS - 1000, rng), "")
                claim, ack = scripts[lay.name][:2]
                record(lay.name, kind, *study.drain(lay, claim, ack))
            study.fresh(p2)
            study.store(p2, workload(kind, W1_TASKS, int(time.time() * 1000) - W2_SPAN_MS - 1000, rng), "")
            record(core_name, kind, *study.reference_drain("core", *core))
            study.fresh(one)
            study.store(one, workload(kind, W1_TASKS, int(time.time() * 1000) - W2_SPAN_MS - 1000, rng), "")
            record(ceil_name, kind, *study.reference_drain("ceiling", *ceil))
        print("[%.0f s] rep %d done" % (time.time() - started, rep + 1), file=sys.stderr)
    r.config_set("hash-max-listpack-entries", study.default_entries)

    def q10(v):
        return sorted(v)[len(v) // 10]

    def cell(name, column, split=False):
        got = figures.get((name, column))
        if not got:
            return "—"
        c, a = q10(got[0]), q10(got[1])
        median = statistics.median(got[0]) + statistics.median(got[1])
        return ("%.2f + %.2f = %.2f (%.2f)" % (c, a, c + a, median)) if split else "%.2f (%.2f)" % (c + a, median)

    def total(name, column):
        got = figures[(name, column)]
        return q10(got[0]) + q10(got[1])

    base = all_layouts[0].name
    print("Redis script time per task, µs, 10th percentile (median) over claims of %d and one ack each (%d reps; memory and "
          "by-id once); %.0f s" % (batch, reps, time.time() - started))
    waiting = "1M" if MEMORY_TASKS == 1_000_000 else "{:,}".format(MEMORY_TASKS)
    print("| layout | W1: claim + ack µs / task | W2 | W1 while %s wait | saved vs protocol 2 (W1) | memory B / waiting task "
          "beyond id + payload (all due at one instant) | cancel µs | reschedule µs | what the protocol needs for by-id operations |"
          % waiting)
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for lay in all_layouts:
        cancel_us, move_us = ops[lay.name]
        mem = "%.0f" % memory[lay.name]
        if lay.name in one_instant:
            mem += " (%.0f)" % one_instant[lay.name]
        print("| %s | %s | %s | %s | %.2f | %s | %.1f | %.1f | %s |" % (
            lay.name, cell(lay.name, "w1", True), cell(lay.name, "w2"), cell(lay.name, "full"),
            total(base, "w1") - total(lay.name, "w1"), mem, cancel_us, move_us, lay.needs))
    for name in (core_name, ceil_name):
        print("| %s (reference) | %s | %s | %s | %.2f | — | — | — | — |" % (
            name, cell(name, "w1", True), cell(name, "w2"), cell(name, "full"), total(base, "w1") - total(name, "w1")))


if __name__ == "__main__":
    main()
