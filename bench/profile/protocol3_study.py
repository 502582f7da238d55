#!/usr/bin/env python3
"""Protocol 3 study: bucketed claims, with the per-task work the features need, one feature a row.

A candidate for protocol 3 keeps a shard's waiting tasks in small HASH buckets of one due window each
(`b:<window>:<k>`, at most CAP ids, field = id, value = the task's due time in base 36 then its record) and an index
ZSET of buckets by window (`idx`). A claim takes whole due buckets: RENAME to `f:<token>:<bucket>` (O(1) a bucket),
ZREM from the index, a lease entry per bucket (`lease`, scored by expiry), and answers HGETALL of each. An ack HDELs
the acked ids from their in-flight bucket (variadic, one call a bucket). What protocol 2's features then need,
modelled here and measured as added rows:

  * id index `ix:<h>` (id → bucket name, h = core's id hash mod IXB): duplicate policies on enqueue, cancel,
    reschedule, inspect by id; the ack deletes the acked ids from it (one variadic HDEL per index bucket touched);
  * in-flight registry `fl` (bucket name → token) and lease clean-up: by-id operations find an in-flight task, the
    ack drops a bucket's lease entry once the bucket is empty, the claim closes a window's open bucket so that
    enqueue never appends to a bucket in flight (HINCRBY of the window's counter by CAP);
  * replay key `claim:<request>` (the in-flight bucket names, PX lease): a re-sent claim answers HGETALL of those;
  * one EXISTS per claim of the keys that switch on the slow paths: priority indexes `idx:p1`, `idx:p2`, `groups`,
    per-bucket attempts `ba` (bucket → attempts, written only by reclaim), the legacy `due` ZSET (a seed producer's
    bare ZADD of an id); each present key sends the claim down its path (measured as separate rows);
  * fencing per task: the token is in the in-flight bucket's name; an ack whose HDEL count is short (a reclaimed
    bucket) takes a per-id slow path that keeps the index entries of ids that still exist somewhere;
  * partial buckets (a batch remainder smaller than the next bucket: HRANDFIELD + HDEL + HSET of the remainder),
    groups (a bucket index per group, round robin over the due groups, a share of the batch each), claim-ahead
    (buckets of windows starting before now + ahead), far-future tasks in coarse 60 s buckets (`cidx`) that a
    promotion step splits into due windows (its cost per task reported), reclaim of an expired lease per bucket.

Measured as in record_layouts.py: Redis' own time inside the scripts (INFO commandstats usec of evalsha) per task,
10th percentile (median) over the calls, variants interleaved REPS times in one run, ratios within the run;
beside core's claim.lua + ack.lua and the ceiling's two scripts on the same data. Workloads (one shard):
W1 (50,000 tasks due at one instant, claims of B), W2-like (62.5 tasks/s, the rate of one of 16 shards at 1,000
tasks/s, due times uniform; a simulated clock advances 100 ms a claim, and the claim takes the buckets due within
100 ms: ~6 tasks a claim, as the defaults do; core and the ceiling claim batches of 6 from a due set), and W1 on
shard 0 while 1,000,000 tasks (4 shards, due over a day) wait. Memory: Δused_memory per waiting task minus its 60
bytes of id and payload, 1,000,000 tasks, 50-byte payloads, 10-byte ids, due over a day, default listpack settings.

  /usr/bin/python3 bench/profile/protocol3_study.py [REPS=2] [B=1000] [MEMORY_TASKS=1000000]   (needs redis-server, python3-redis)
"""
import os
import random
import statistics
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_cost  # noqa: E402  (core's scripts as LuaScript assembles them, the ceiling's scripts)
import profiled_redis  # noqa: E402
from record_layouts import ID_HASH_LUA, id_hash  # noqa: E402  (core's id hash)

W1_TASKS = 50_000
W2_RATE = 62.5              # tasks/s of one shard of 16 at 1,000 tasks/s
W2_TASKS = 5_000
AHEAD_MS = 100              # DELAYQ_CLAIM_AHEAD's default
MEMORY_TASKS = 1_000_000
MEMORY_SHARDS = 4
PAYLOAD = "x" * 50
RECORD_HEAD = "0mikxxdds:"  # compact record: priority digit, enqueuedAt base 36, ':'
DAY_MS = 86_400_000
LEASE_MS = 30_000
HORIZON_MS = 600_000        # tasks due within 10 min go straight into due windows; later ones into coarse buckets
COARSE_MS = 60_000
BY_ID_CALLS = 100
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def b36(x):
    x = int(x)
    out = ""
    while True:
        x, d = divmod(x, 36)
        out = DIGITS[d] + out
        if x == 0:
            return out


LUA_B36 = """
local DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'
local function b36(x, width)
  local out = ''
  repeat
    local d = x % 36
    out = string.sub(DIGITS, d + 1, d + 1) .. out
    x = (x - d) / 36
  until x == 0
  if width and #out < width then out = string.rep('0', width - #out) .. out end
  return out
end
"""


class Candidate:
    """One protocol-3 variant: which features its scripts carry."""

    def __init__(self, name, ixb=2039, registry=True, replay=True, switches=True, window=100, cap=250,
                 split=False, attempts="bucket", two_tier=True):
        self.name, self.ixb, self.registry, self.replay, self.switches = name, ixb, registry, replay, switches
        self.window, self.cap, self.split, self.attempts, self.two_tier = window, cap, split, attempts, two_tier

    # --- where a task goes: (index key suffix, bucket base); the bucket name is base .. ':' .. k -------------------
    def base(self, due, now, group=None):
        if self.two_tier and due - now >= HORIZON_MS:
            return "c" + b36(due - due % COARSE_MS), "cidx"
        win = b36(due - due % self.window)
        if group is not None:
            return "g%s/%s" % (group, win), "gidx:%s" % group
        return win, "idx"

    def width(self, coarse):
        """Digits of a task's offset from its bucket's window start (fixed width, base 36)."""
        span, w = (COARSE_MS if coarse else self.window) - 1, 1
        while span >= 36 ** w:
            w += 1
        return w

    def value(self, due, record, coarse):
        """[attempt digit] offset of the due time from the window start, base 36, fixed width; then the record. An
        offset, not the due time itself: 8 more bytes would push a 50-byte payload's value past the listpack's 64."""
        window = COARSE_MS if coarse else self.window
        off = b36(due % window).rjust(self.width(coarse), "0")
        return ("0" if self.attempts == "prefix" else "") + off + record

    def ix(self, task_id):
        return id_hash(task_id) % self.ixb

    # --- scripts (KEYS[1]: the shard's prefix) ----------------------------------------------------------------------
    def claim(self):
        lua = """
local P = KEYS[1]
local now = tonumber(ARGV[3])
if now == 0 then local t = redis.call('TIME'); now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) end
local batch, lease, ahead = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[4])
local token = now + lease
local out = { token }
local leases, registry, names = {}, {}, {}
local function answer(fname) out[#out + 1] = fname; out[#out + 1] = redis.call('HGETALL', P .. 'f:' .. fname) end
"""
        if self.replay:
            lua += """local replay = P .. 'claim:' .. ARGV[5]
"""
        if self.switches:
            keys = "P .. 'idx:p2', P .. 'idx:p1', P .. 'groups', P .. 'ba', P .. 'due'" + (", replay" if self.replay else "")
            lua += "local special = redis.call('EXISTS', %s) > 0\n" % keys
            if self.replay:
                lua += """if special then
  local prior = redis.call('GET', replay)
  if prior then
    local tok = string.match(prior, '^(%S+)')
    out[1] = tonumber(tok)
    for fname in string.gmatch(string.sub(prior, #tok + 2), '%S+') do answer(fname) end
    return out
  end
end
"""
        lua += """
local function take(ix, room, gfield)
  if room <= 0 then return 0 end
  local got = redis.call('ZRANGEBYSCORE', ix, '-inf', now + ahead, 'LIMIT', 0, room)
  local took, done = 0, {}
  for i = 1, #got do
    local name = got[i]
    local bkey = P .. 'b:' .. name
    local size = redis.call('HLEN', bkey)
    local fname = token .. ':' .. name
    if took + size > room and (took > 0 or SPLIT) then
      if SPLIT then
        local r = room - took
        local part = redis.call('HRANDFIELD', bkey, r, 'WITHVALUES')
        local fields = {}
        for j = 1, #part, 2 do fields[#fields + 1] = part[j] end
        redis.call('HDEL', bkey, unpack(fields))
        redis.call('HSET', P .. 'f:' .. fname, unpack(part))
        leases[#leases + 1] = token; leases[#leases + 1] = fname
        REGISTER
        names[#names + 1] = fname
        answer(fname)
        took = took + r
      end
      break
    end
    redis.call('RENAME', bkey, P .. 'f:' .. fname)
    done[#done + 1] = name
    leases[#leases + 1] = token; leases[#leases + 1] = fname
    REGISTER
    CLOSE
    names[#names + 1] = fname
    answer(fname)
    took = took + size
    if took >= room then break end
  end
  if #done > 0 then redis.call('ZREM', ix, unpack(done)) end
  return took
end
local room = batch
"""
        split = "true" if self.split else "false"
        lua = lua.replace("(took > 0 or SPLIT)", "(took > 0 or %s)" % split).replace("if SPLIT then", "if %s then" % split)
        if self.registry:
            lua = lua.replace("REGISTER", "registry[#registry + 1] = name; registry[#registry + 1] = token")
            # enqueue must not append to a bucket now in flight: move the window's counter past it
            lua = lua.replace("CLOSE", "redis.call('HINCRBY', P .. 'open', string.match(name, '^(.*):%d+$'), " + str(self.cap) + ")")
        else:
            lua = lua.replace("REGISTER", "").replace("CLOSE", "")
        if self.switches:
            lua += """if special then
  room = room - take(P .. 'idx:p2', room) - take(P .. 'idx:p1', room)
  if room > 0 and redis.call('EXISTS', P .. 'due') == 1 then
    -- a seed producer's bare ZADD: ids with no record, moved one by one into an in-flight bucket of their own
    local found = redis.call('ZRANGEBYSCORE', P .. 'due', '-inf', now, 'WITHSCORES', 'LIMIT', 0, room)
    if #found > 0 then
      local ids, fields = {}, {}
      for j = 1, #found, 2 do
        ids[#ids + 1] = found[j]
        fields[#fields + 1] = found[j]; fields[#fields + 1] = b36(tonumber(found[j + 1]))
      end
      redis.call('ZREM', P .. 'due', unpack(ids))
      local fname = token .. ':L' .. b36(now)
      redis.call('HSET', P .. 'f:' .. fname, unpack(fields))
      leases[#leases + 1] = token; leases[#leases + 1] = fname
      names[#names + 1] = fname
      answer(fname)
      room = room - #ids
    end
  end
  if room > 0 and redis.call('EXISTS', P .. 'groups') == 1 then
    local groups = redis.call('ZRANGEBYSCORE', P .. 'groups', '-inf', now, 'LIMIT', 0, 100)
    local share = math.max(1, math.floor(room / (#groups + 1)))
    local turns = {}
    for _, g in ipairs(groups) do
      if room <= 0 then break end
      local gix = P .. 'gidx:' .. g
      room = room - take(gix, math.min(share, room))
      local head = redis.call('ZRANGE', gix, 0, 0, 'WITHSCORES')
      if #head == 0 then redis.call('ZREM', P .. 'groups', g)
      else turns[#turns + 1] = math.max(now, tonumber(head[2])); turns[#turns + 1] = g end
    end
    if #turns > 0 then redis.call('ZADD', P .. 'groups', unpack(turns)) end
  end
end
"""
        lua += "room = room - take(P .. 'idx', room)\n"
        lua += "if #names == 0 then return out end\n"
        lua += "redis.call('ZADD', P .. 'lease', unpack(leases))\n"
        if self.registry:
            lua += "if #registry > 0 then redis.call('HSET', P .. 'fl', unpack(registry)) end\n"
        if self.switches:
            lua += """if special and redis.call('EXISTS', P .. 'ba') == 1 then
  local bare = {}
  for j = 1, #names do bare[j] = string.match(names[j], '^%S-:(.*)$') end
  out[#out + 1] = 'attempts'; out[#out + 1] = redis.call('HMGET', P .. 'ba', unpack(bare))
end
"""
        if self.replay:
            lua += "redis.call('SET', replay, token .. ' ' .. table.concat(names, ' '), 'PX', lease)\n"
        lua += "return out\n"
        return LUA_B36 + lua

    def ack(self):
        """ARGV: nb, per bucket: in-flight name, c, c ids; then (with an index) ni, per index bucket: h, c, c ids.
        Returns the ids acked."""
        lua = """
local P = KEYS[1]
local nb = tonumber(ARGV[1])
local i, acked, stale = 2, 0, nil
local gone, emptied = {}, {}
for b = 1, nb do
  local fname, c = ARGV[i], tonumber(ARGV[i + 1])
  local fkey = P .. 'f:' .. fname
  local d = redis.call('HDEL', fkey, unpack(ARGV, i + 2, i + 1 + c))
  acked = acked + d
  if d < c then
    -- fencing per task: some ids were not this claim's any more (the bucket was reclaimed, an id retried or
    -- extended apart); their index entries are judged one by one below
    stale = stale or {}
    for k = i + 2, i + 1 + c do stale[ARGV[k]] = true end
  end
  LEASE
  i = i + 2 + c
end
"""
        if self.registry:
            lua = lua.replace("LEASE", """if redis.call('EXISTS', fkey) == 0 then
    gone[#gone + 1] = fname
    emptied[#emptied + 1] = string.match(fname, '^%S-:(.*)$')
  end""")
            lua += """if #gone > 0 then
  redis.call('ZREM', P .. 'lease', unpack(gone))
  redis.call('HDEL', P .. 'fl', unpack(emptied))
end
"""
        else:
            lua = lua.replace("LEASE", "")
        if self.ixb:
            lua += """
local ni = tonumber(ARGV[i])
i = i + 1
for g = 1, ni do
  local h, c = ARGV[i], tonumber(ARGV[i + 1])
  local ix = P .. 'ix:' .. h
  if stale == nil then
    redis.call('HDEL', ix, unpack(ARGV, i + 2, i + 1 + c))
  else
    local mine = {}
    for k = i + 2, i + 1 + c do
      local id = ARGV[k]
      if not stale[id] then
        mine[#mine + 1] = id
      else
        -- slow path: keep the entry while the task waits or is in flight under another claim
        local name = redis.call('HGET', ix, id)
        local here = name and redis.call('HEXISTS', P .. 'b:' .. name, id) == 1
        if name and not here then
          local tok = redis.call('HGET', P .. 'fl', name)
          here = tok and redis.call('HEXISTS', P .. 'f:' .. tok .. ':' .. name, id) == 1
        end
        if name and not here then mine[#mine + 1] = id end
      end
    end
    if #mine > 0 then redis.call('HDEL', ix, unpack(mine)) end
  end
  i = i + 2 + c
end
"""
        return lua + "return acked\n"

    def placement(self):
        """Lua: place(id, due, value, now, group-or-nil) -> bucket name: enqueue's bucket choice (open counter per
        window, a new bucket every CAP tasks, the index entry of the bucket when it opens)."""
        coarse = "true" if self.two_tier else "false"
        return LUA_B36 + """
local W, CAP, HORIZON, COARSE, FW, CW = %d, %d, %d, %d, %d, %d
-- head: the attempt digit or ''; the value holds the due time's offset from the bucket's window start
local function place(P, id, due, head, record, now)
  local base, ix, value
  if %s and due - now >= HORIZON then
    base, ix, value = 'c' .. b36(due - due %% COARSE), 'cidx', head .. b36(due %% COARSE, CW) .. record
  else
    base, ix, value = b36(due - due %% W), 'idx', head .. b36(due %% W, FW) .. record
  end
  local cnt = redis.call('HINCRBY', P .. 'open', base, 1)
  local name = base .. ':' .. math.floor((cnt - 1) / CAP)
  redis.call('HSET', P .. 'b:' .. name, id, value)
  if (cnt - 1) %% CAP == 0 then redis.call('ZADD', P .. ix, due - due %% (ix == 'cidx' and COARSE or W), name) end
  return name
end
""" % (self.window, self.cap, HORIZON_MS, COARSE_MS, self.width(False), self.width(True), coarse)

    def enqueue(self):
        """ARGV: n, then per task id, due, record. Rejects an id the index holds (duplicate policy `reject`)."""
        lua = ID_HASH_LUA + self.placement() + """
local P = KEYS[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n, added, earliest = tonumber(ARGV[1]), 0, nil
for k = 0, n - 1 do
  local id, due, record = ARGV[2 + 3 * k], tonumber(ARGV[3 + 3 * k]), ARGV[4 + 3 * k]
  local ix = P .. 'ix:' .. (id_hash(id) %% %d)
  if redis.call('HEXISTS', ix, id) == 0 then
    local name = place(P, id, due, %s, record, now)
    redis.call('HSET', ix, id, name)
    added = added + 1
    if earliest == nil or due < earliest then earliest = due end
  end
end
if earliest then redis.call('ZADD', P .. 'marker', 'LT', earliest, 'next') end
return added
""" % (self.ixb, "'0'" if self.attempts == "prefix" else "''")
        return lua

    def find(self):
        return """
local function find(P, id, h)
  local ix = P .. 'ix:' .. h
  local name = redis.call('HGET', ix, id)
  if not name then return nil end
  local bkey = P .. 'b:' .. name
  if redis.call('HEXISTS', bkey, id) == 1 then return name, bkey, ix end
  local tok = redis.call('HGET', P .. 'fl', name)
  if tok and redis.call('HEXISTS', P .. 'f:' .. tok .. ':' .. name, id) == 1 then return name, nil, ix end
  return nil
end
local function unlist(P, name, bkey)
  if redis.call('EXISTS', bkey) == 0 then
    redis.call('ZREM', P .. (string.sub(name, 1, 1) == 'c' and 'cidx' or 'idx'), name)
  end
end
"""

    def cancel(self):
        """ARGV: id, index bucket. 1 cancelled, 2 in flight (refused), 0 unknown."""
        return self.find() + """
local P = KEYS[1]
local name, bkey, ix = find(P, ARGV[1], ARGV[2])
if not name then return 0 end
if not bkey then return 2 end
redis.call('HDEL', bkey, ARGV[1])
redis.call('HDEL', ix, ARGV[1])
unlist(P, name, bkey)
return 1
"""

    def reschedule(self):
        """ARGV: id, index bucket, new due. 1 moved, 2 in flight, 0 unknown."""
        skip = 2 if self.attempts == "prefix" else 1
        return self.find() + self.placement() + """
local P = KEYS[1]
local id, due = ARGV[1], tonumber(ARGV[3])
local name, bkey, ix = find(P, id, ARGV[2])
if not name then return 0 end
if not bkey then return 2 end
local value = redis.call('HGET', bkey, id)
redis.call('HDEL', bkey, id)
unlist(P, name, bkey)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
-- the value: [attempt digit], the offset (CW digits in a coarse bucket, FW in a due window), the record
local head = %s
local width = string.sub(name, 1, 1) == 'c' and CW or FW
redis.call('HSET', ix, id, place(P, id, due, head, string.sub(value, %d + width), now))
return 1
""" % ("string.sub(value, 1, 1)" if self.attempts == "prefix" else "''", skip)

    def reclaim(self):
        """ARGV: now, most buckets. Expired leases back to due now, attempts counted per bucket (`ba`) or per record."""
        count = """redis.call('HINCRBY', P .. 'ba', name, 1)
    redis.call('RENAME', fkey, bkey)""" if self.attempts == "bucket" else """local flat = redis.call('HGETALL', fkey)
    for j = 2, #flat, 2 do flat[j] = (tonumber(string.sub(flat[j], 1, 1)) + 1) .. string.sub(flat[j], 2) end
    redis.call('DEL', fkey)
    redis.call('HSET', bkey, unpack(flat))"""
        return """
local P = KEYS[1]
local now = tonumber(ARGV[1])
local expired = redis.call('ZRANGEBYSCORE', P .. 'lease', '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
local back, names, n = {}, {}, 0
for _, fname in ipairs(expired) do
  local name = string.match(fname, '^%S-:(.*)$')
  local fkey, bkey = P .. 'f:' .. fname, P .. 'b:' .. name
  if redis.call('EXISTS', fkey) == 1 then
    n = n + redis.call('HLEN', fkey)
    COUNT
    back[#back + 1] = now; back[#back + 1] = name
  end
  names[#names + 1] = name
end
if #expired == 0 then return 0 end
redis.call('ZREM', P .. 'lease', unpack(expired))
redis.call('HDEL', P .. 'fl', unpack(names))
if #back > 0 then redis.call('ZADD', P .. 'idx', unpack(back)) end
return n
""".replace("COUNT", count)

    def promote(self):
        """ARGV: now, most coarse buckets. Splits coarse buckets whose window starts within the horizon into due
        windows; the index entries follow (one HSET per index bucket touched). Returns tasks moved."""
        return ID_HASH_LUA + self.placement() + """
local P = KEYS[1]
local now = tonumber(ARGV[1])
local coarse = redis.call('ZRANGEBYSCORE', P .. 'cidx', '-inf', now + HORIZON, 'LIMIT', 0, tonumber(ARGV[2]))
local moved = 0
local skip = %d
for _, name in ipairs(coarse) do
  local bkey = P .. 'b:' .. name
  local flat = redis.call('HGETALL', bkey)
  local start = tonumber(string.match(name, '^c(%%w+):'), 36)
  local by_bucket, by_ix = {}, {}
  for j = 1, #flat, 2 do
    local id, value = flat[j], flat[j + 1]
    local due = start + tonumber(string.sub(value, skip, skip + CW - 1), 36)
    local base = b36(due - due %% W)
    local g = by_bucket[base]
    if g == nil then g = {}; by_bucket[base] = g end
    g[#g + 1] = id
    g[#g + 1] = string.sub(value, 1, skip - 1) .. b36(due %% W, FW) .. string.sub(value, skip + CW)
  end
  for base, g in pairs(by_bucket) do
    local m = #g / 2
    local cnt = redis.call('HINCRBY', P .. 'open', base, m)
    -- (a window's buckets may exceed CAP by the promoted tasks: a promotion fills one bucket per window)
    local bname = base .. ':' .. math.floor((cnt - m) / CAP)
    redis.call('HSET', P .. 'b:' .. bname, unpack(g))
    redis.call('ZADD', P .. 'idx', 'NX', tonumber(base, 36), bname)
    for j = 1, #g, 2 do
      local ix = P .. 'ix:' .. (id_hash(g[j]) %% %d)
      local e = by_ix[ix]
      if e == nil then e = {}; by_ix[ix] = e end
      e[#e + 1] = g[j]; e[#e + 1] = bname
    end
    moved = moved + m
  end
  for ix, e in pairs(by_ix) do redis.call('HSET', ix, unpack(e)) end
  redis.call('DEL', bkey)
  redis.call('HDEL', P .. 'open', string.match(name, '^(.*):%%d+$'))
end
if #coarse > 0 then redis.call('ZREM', P .. 'cidx', unpack(coarse)) end
return moved
""" % (2 if self.attempts == "prefix" else 1, self.ixb)


# --- the run ---------------------------------------------------------------------------------------------------

class Study:
    def __init__(self, batch):
        self.batch = batch
        self.r = profiled_redis.start()

    def usec(self):
        return self.r.info("commandstats").get("cmdstat_evalsha", {}).get("usec", 0)

    @staticmethod
    def prefix(shard):
        return "p3:{%d}:" % shard

    def store(self, cand, shard, tasks, payload, now, groups=0, bare=False):
        """What cand's enqueue would write for tasks [(id, due)], pipelined (enqueue's own cost is measured apart)."""
        P = self.prefix(shard)
        record = RECORD_HEAD + payload
        pipe = self.r.pipeline(transaction=False)
        if bare:
            for i in range(0, len(tasks), 5000):
                pipe.zadd(P + "due", dict(tasks[i:i + 5000]))
            pipe.execute()
            return
        opened, buckets, index, indexes = {}, {}, {}, {}
        for n, (task_id, due) in enumerate(tasks):
            group = "tenant-%d" % (n % groups) if groups else None
            base, ix = cand.base(due, now, group)
            cnt = opened.get(base, 0) + 1
            opened[base] = cnt
            name = "%s:%d" % (base, (cnt - 1) // cand.cap)
            if (cnt - 1) % cand.cap == 0:
                score = due - due % (COARSE_MS if ix == "cidx" else cand.window)
                indexes.setdefault(ix, {})[name] = score
            buckets.setdefault(name, {})[task_id] = cand.value(due, record, ix == "cidx")
            if cand.ixb:
                index.setdefault(cand.ix(task_id), {})[task_id] = name
        pending = 0

        def flush(force=False):
            nonlocal pending
            pending += 1
            if force or pending >= 200:
                pipe.execute()
                pending = 0

        for name, fields in buckets.items():
            pipe.hset(P + "b:" + name, mapping=fields)
            flush()
        for h, fields in index.items():
            items = list(fields.items())
            for i in range(0, len(items), 2000):
                pipe.hset(P + "ix:%d" % h, mapping=dict(items[i:i + 2000]))
                flush()
        for ix, members in indexes.items():
            items = list(members.items())
            for i in range(0, len(items), 5000):
                pipe.zadd(P + ix, dict(items[i:i + 5000]))
                flush()
        for i in range(0, len(opened), 5000):
            pipe.hset(P + "open", mapping=dict(list(opened.items())[i:i + 5000]))
            flush()
        if groups:
            pipe.zadd(P + "groups", {"tenant-%d" % g: now for g in range(groups)})
        flush(True)

    def ack_args(self, cand, out):
        """The worker's ack of a whole claim: per in-flight bucket its ids, then the ids per index bucket."""
        buckets, by_ix, n = [], {}, 0
        items = out[1:]
        for j in range(0, len(items), 2):
            fname = items[j].decode()
            if fname == "attempts":
                continue
            flat = items[j + 1]
            ids = [flat[k].decode() for k in range(0, len(flat), 2)]
            if not ids:
                continue
            n += len(ids)
            buckets.append((fname, ids))
            if cand.ixb and ":L" not in fname:
                for task_id in ids:
                    by_ix.setdefault(cand.ix(task_id), []).append(task_id)
        args = [len(buckets)]
        for fname, ids in buckets:
            args += [fname, len(ids)] + ids
        if cand.ixb:
            args.append(len(by_ix))
            for h in sorted(by_ix):
                args += [h, len(by_ix[h])] + by_ix[h]
        return n, args, buckets

    def drain(self, cand, scripts, shard=0, clock=None, stale=False):
        """Claims of B (or, with clock = (start, step), of what is due within AHEAD_MS of a simulated clock that
        advances step ms a claim), each acked whole right after. Returns per-task µs of each claim and each ack."""
        claim, ack = scripts["claim"], scripts["ack"]
        P = self.prefix(shard)
        claims, acks = [], []
        now, idle = (clock[0] if clock else 0), 0
        while True:
            t0 = self.usec()
            out = claim(keys=[P], args=[self.batch, LEASE_MS, now, AHEAD_MS if clock else 0, uuid.uuid4().hex])
            used = self.usec() - t0
            if clock:
                now += clock[1]
            if len(out) == 1:
                if not clock:
                    break
                idle += 1
                if idle > 50:
                    break
                continue
            idle = 0
            n, args, buckets = self.ack_args(cand, out)
            claims.append(used / n)
            if stale and len(buckets) > 1:
                # one of the claim's buckets was reclaimed meanwhile (as a reclaim's RENAME would leave it)
                fname, ids = buckets[0]
                name = fname.split(":", 1)[1]
                self.r.rename(P + "f:" + fname, P + "b:" + name)
                self.r.zadd(P + "idx", {name: 0})
            t0 = self.usec()
            acked = ack(keys=[P], args=args)
            acks.append((self.usec() - t0) / n)
            if not stale and acked != n:
                raise SystemExit("%s: the ack finished %d of %d" % (cand.name, acked, n))
        return claims, acks

    def reference_drain(self, which, pair, batch):
        """core's claim.lua + ack.lua or the ceiling's scripts, claims of batch, on data stored as they expect."""
        claim, ack = pair
        keys = profiled_redis.KEYS
        claims, acks = [], []
        while True:
            if which == "core":
                t0 = self.usec()
                out = claim(keys=keys + [profiled_redis.SHARD + "claim:" + uuid.uuid4().hex], args=[batch, LEASE_MS, 0, 0])
                n = out[3]
                if n == 0:
                    break
                claims.append((self.usec() - t0) / n)
                ids = [out[4 + 4 * k] for k in range(n)]
                args = [n]
                for task_id in sorted(ids, key=script_cost.bucket):
                    args += [task_id, out[2], script_cost.bucket(task_id)]
            else:
                ckeys = [keys[0], "ceil:{0}:inflight", "ceil:{0}:tasks"]
                t0 = self.usec()
                out = claim(keys=ckeys, args=[batch, LEASE_MS])
                if not out:
                    break
                n = len(out[1::2])
                claims.append((self.usec() - t0) / n)
                keys_, args = ckeys[1:], [out[0]] + out[1::2]
            t0 = self.usec()
            if which == "core":
                ack(keys=keys, args=args)
            else:
                ack(keys=keys_, args=args)
            acks.append((self.usec() - t0) / n)
        return claims, acks

    def reference_store(self, which, tasks, payload):
        keys = profiled_redis.KEYS
        pipe = self.r.pipeline(transaction=False)
        record = RECORD_HEAD + payload
        for i, (task_id, due) in enumerate(tasks):
            pipe.zadd(keys[0], {task_id: due})
            pipe.hset("%s:%d" % (keys[4], script_cost.bucket(task_id)) if which == "core" else "ceil:{0}:tasks", task_id, record)
            if i % 5000 == 4999:
                pipe.execute()
        pipe.execute()


def w1(count, now, first=0):
    return [("t%09d" % i, now) for i in range(first, first + count)]


def w2(rng, start):
    span = int(W2_TASKS / W2_RATE * 1000)
    return sorted((("t%09d" % i, start + rng.randrange(span)) for i in range(W2_TASKS)), key=lambda t: t[1])


def day(count, shards, now, rng, first=0):
    tasks = [[] for _ in range(shards)]
    for i in range(first, first + count):
        tasks[i % shards].append(("d%09d" % i, now + 3_600_000 + rng.randrange(DAY_MS)))
    return tasks


def candidates():
    base = dict(ixb=0, registry=False, replay=False, switches=False)
    return [
        Candidate("A. bucket claim + ack, nothing else (the sketch without an id index)", **base),
        Candidate("B. A + id index (2,039 id-hash buckets), deleted by the ack", **dict(base, ixb=2039)),
        Candidate("C. B + in-flight registry, lease clean-up, open bucket closed by the claim", ixb=2039, replay=False, switches=False),
        Candidate("D. C + replay key (the claim's bucket names)", ixb=2039, switches=False),
        Candidate("E. D + one EXISTS of the slow paths' keys (priorities, groups, attempts, legacy due): the candidate"),
        Candidate("F. E, id index in 256 buckets", ixb=256),
        Candidate("G. E, id index in one hash", ixb=1),
    ]


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    batch = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    global MEMORY_TASKS
    MEMORY_TASKS = int(sys.argv[3]) if len(sys.argv) > 3 else MEMORY_TASKS
    started = time.time()
    study = Study(batch)
    r = study.r

    def load(cand):
        return {k: r.register_script(getattr(cand, k)()) for k in ("claim", "ack", "enqueue", "cancel", "reschedule", "reclaim", "promote")}

    rows = candidates()
    full = rows[4]
    extras = [
        ("H. E, claims of %d (each splits a bucket: HRANDFIELD + HDEL + HSET)" % (batch - 100), Candidate("split", split=True), "w1-split"),
        ("I. E, the ack finds one of its buckets reclaimed (per-id slow path)", full, "w1-stale"),
        ("J. E, W1 in 16 groups, round robin, a share each (split buckets)", Candidate("groups", split=True), "w1-groups"),
        ("K. E, W1 written by a seed producer's bare ZADD (legacy due set)", full, "w1-bare"),
        ("L. E, due windows of 1 ms instead of 100 ms", Candidate("w1ms", window=1), "w2-only"),
    ]
    scripts = {c.name: load(c) for c in rows}
    for _, cand, _ in extras:
        scripts.setdefault(cand.name, load(cand))
    core = (r.register_script(script_cost.assembled("claim")), r.register_script(script_cost.assembled("ack")))
    ceil = (r.register_script(script_cost.ceiling("CLAIM")), r.register_script(script_cost.ceiling("ACK")))
    core_name, ceil_name = "core's claim.lua + ack.lua (protocol 2)", "the ceiling's two scripts"
    figures = {}

    def record(name, column, got):
        f = figures.setdefault((name, column), ([], []))
        f[0].extend(got[0])
        f[1].extend(got[1])

    rng = random.Random(17)
    for rep in range(reps):
        for kind in ("w1", "w2"):
            runs = [(c.name, c, "") for c in rows] + [e for e in extras if (e[2] == "w2-only") == (kind == "w2")]
            for label, cand, mode in runs:
                r.flushall()
                now = int(time.time() * 1000)
                if kind == "w1":
                    study.store(cand, 0, w1(W1_TASKS, now - 1000), "", now, groups=16 if mode == "w1-groups" else 0,
                                bare=mode == "w1-bare")
                    got = study.drain(cand, scripts[cand.name], stale=mode == "w1-stale") if mode != "w1-split" else None
                    if mode == "w1-split":
                        study.batch = batch - 100
                        got = study.drain(cand, scripts[cand.name])
                        study.batch = batch
                else:
                    tasks = w2(rng, now)
                    study.store(cand, 0, tasks, "", now)
                    got = study.drain(cand, scripts[cand.name], clock=(now - AHEAD_MS, AHEAD_MS))
                record(label, kind, got)
            for which, pair in (("core", core), ("ceiling", ceil)):
                r.flushall()
                now = int(time.time() * 1000) - 1000
                study.reference_store(which, w1(W1_TASKS if kind == "w1" else W2_TASKS, now), "")
                name = core_name if which == "core" else ceil_name
                record(name, kind, study.reference_drain(which, pair, batch if kind == "w1" else 6))
        print("[%.0f s] rep %d done" % (time.time() - started, rep + 1), file=sys.stderr)

    # W1 on shard 0 while MEMORY_TASKS wait on 4 shards (due over a day); memory; by-id; promotion
    memory, ops, promote = {}, {}, {}
    mem_rows = [rows[0], rows[1], full, rows[5], rows[6],
                Candidate("E without the coarse tier (due windows of 100 ms for every task)", two_tier=False)]
    for cand in mem_rows:
        s = scripts.get(cand.name) or load(cand)
        r.flushall()
        now = int(time.time() * 1000)
        tasks = day(MEMORY_TASKS, MEMORY_SHARDS, now, random.Random(1))
        before = r.info("memory")["used_memory"]
        for shard in range(MEMORY_SHARDS):
            study.store(cand, shard, tasks[shard], PAYLOAD, now)
        memory[cand.name] = (r.info("memory")["used_memory"] - before) / MEMORY_TASKS - 10 - len(PAYLOAD)
        if cand in rows:
            study.store(cand, 0, w1(W1_TASKS, now - 1000, first=0), "", now)
            record(cand.name, "full", study.drain(cand, s))
        if cand is full:
            pick = random.Random(5).sample(range(len(tasks[0])), 2 * BY_ID_CALLS)
            cancels, moves = [], []
            for k, index in enumerate(pick):
                task_id, due = tasks[0][index]
                t0 = study.usec()
                if k < BY_ID_CALLS:
                    ok = s["cancel"](keys=[study.prefix(0)], args=[task_id, cand.ix(task_id)])
                    cancels.append(study.usec() - t0)
                else:
                    ok = s["reschedule"](keys=[study.prefix(0)], args=[task_id, cand.ix(task_id), due + random.Random(k).randrange(-3_000_000, DAY_MS // 2)])
                    moves.append(study.usec() - t0)
                if ok != 1:
                    raise SystemExit("by-id operation found nothing for %s" % task_id)
            ops[cand.name] = (statistics.median(cancels), statistics.median(moves))
            # promotion of the coarse buckets of the next hours into due windows, 8 coarse buckets a call
            t0, moved = study.usec(), 0
            calls = []
            for _ in range(40):
                c0 = study.usec()
                m = s["promote"](keys=[study.prefix(1)], args=[now + 3_600_000 + 3_600_000, 8])
                if m == 0:
                    break
                calls.append((study.usec() - c0) / m)
                moved += m
            promote["per task"] = (statistics.median(calls), moved)
        print("[%.0f s] memory %s: %.0f B" % (time.time() - started, cand.name, memory[cand.name]), file=sys.stderr)
    for which, pair, name in (("core", core, core_name), ("ceiling", ceil, ceil_name)):
        r.flushall()
        now = int(time.time() * 1000)
        keys = profiled_redis.KEYS
        tasks = day(MEMORY_TASKS, MEMORY_SHARDS, now, random.Random(1))[0]
        before = r.info("memory")["used_memory"]
        # shard 0's share, written as protocol 2 (or the ceiling) keeps it; the other shards' data would not be read
        study.reference_store(which, tasks, PAYLOAD)
        if which == "core":
            memory[name] = (r.info("memory")["used_memory"] - before) / len(tasks) - 10 - len(PAYLOAD)
        study.reference_store(which, w1(W1_TASKS, now - 1000), "")
        record(name, "full", study.reference_drain(which, pair, batch))
    # the one-instant memory (the bench's memory workload: a campaign due tomorrow 09:00)
    r.flushall()
    now = int(time.time() * 1000)
    before = r.info("memory")["used_memory"]
    per = [[] for _ in range(MEMORY_SHARDS)]
    for i in range(MEMORY_TASKS):
        per[i % MEMORY_SHARDS].append(("d%09d" % i, now + DAY_MS))
    for shard in range(MEMORY_SHARDS):
        study.store(full, shard, per[shard], PAYLOAD, now)
    one_instant = (r.info("memory")["used_memory"] - before) / MEMORY_TASKS - 10 - len(PAYLOAD)

    # reclaim of expired leases, per bucket: attempts per bucket (ba) vs in each record's prefix
    reclaim = {}
    for label, cand in (("attempts per bucket (`ba`: HINCRBY, RENAME back)", full),
                        ("attempts in the record prefix (every value rewritten)", Candidate("prefix", attempts="prefix"))):
        s = scripts.get(cand.name) or load(cand)
        got = []
        for _ in range(reps):
            r.flushall()
            now = int(time.time() * 1000)
            study.store(cand, 0, w1(W1_TASKS, now - 1000), "", now)
            while len(s["claim"](keys=[study.prefix(0)], args=[batch, LEASE_MS, 0, 0, uuid.uuid4().hex])) > 1:
                pass
            while True:
                t0 = study.usec()
                n = s["reclaim"](keys=[study.prefix(0)], args=[now + 10 * LEASE_MS, 4])
                if n == 0:
                    break
                got.append((study.usec() - t0) / n)
        reclaim[label] = got

    # enqueue: one task a call (W2's producer) and 100 a call, the candidate against core's enqueue.lua
    enq = {}
    for label, cand in (("candidate", full),):
        s = scripts[cand.name]
        for per_call in (1, 100):
            got = []
            for _ in range(reps):
                r.flushall()
                now = int(time.time() * 1000)
                study.store(cand, 0, w1(W1_TASKS, now + 5000, first=10_000_000), "", now)
                for c in range(2000 // per_call if per_call == 1 else 20):
                    args = [per_call]
                    for k in range(per_call):
                        args += ["e%09d" % (c * per_call + k), now + rng.randrange(2000), RECORD_HEAD]
                    t0 = study.usec()
                    s["enqueue"](keys=[study.prefix(0)], args=args)
                    got.append((study.usec() - t0) / per_call)
            enq[(label, per_call)] = got
    core_enqueue = r.register_script(script_cost.assembled("enqueue"))
    for per_call in (1, 100):
        got = []
        for _ in range(reps):
            r.flushall()
            now = int(time.time() * 1000)
            study.reference_store("core", w1(W1_TASKS, now + 5000, first=10_000_000), "")
            for c in range(2000 // per_call if per_call == 1 else 20):
                args = ["reject", per_call]
                for k in range(per_call):
                    args += ["e%09d" % (c * per_call + k), "at", now + rng.randrange(2000), RECORD_HEAD, 0]
                args += [0, ""]
                t0 = study.usec()
                core_enqueue(keys=profiled_redis.KEYS, args=args)
                got.append((study.usec() - t0) / per_call)
        enq[("core's enqueue.lua", per_call)] = got

    # --- report ---------------------------------------------------------------------------------------------------
    def q10(v):
        return sorted(v)[len(v) // 10]

    def cell(name, column, split=False):
        got = figures.get((name, column))
        if not got or not got[0]:
            return "—"
        c, a = q10(got[0]), q10(got[1])
        median = statistics.median(got[0]) + statistics.median(got[1])
        return ("%.2f + %.2f = %.2f (%.2f)" % (c, a, c + a, median)) if split else "%.2f (%.2f)" % (c + a, median)

    print("Redis script time per task, µs: 10th percentile (median) over the calls; claims of %d (W1), ~6 (W2-like); "
          "%d reps; %.0f s" % (batch, reps, time.time() - started))
    print()
    print("| variant | W1: claim + ack µs / task | W2-like (~6 a claim) | W1 while %s wait | memory B / waiting task beyond id + payload |"
          % "{:,}".format(MEMORY_TASKS))
    print("|---|---:|---:|---:|---:|")
    for cand in rows:
        print("| %s | %s | %s | %s | %s |" % (cand.name, cell(cand.name, "w1", True), cell(cand.name, "w2"),
                                             cell(cand.name, "full"), "%.0f" % memory[cand.name] if cand.name in memory else "—"))
    for label, cand, mode in extras:
        print("| %s | %s | %s | — | — |" % (label, cell(label, "w1", True), cell(label, "w2")))
    mem_only = mem_rows[-1]
    print("| %s | — | — | — | %.0f |" % (mem_only.name, memory[mem_only.name]))
    for name in (core_name, ceil_name):
        print("| %s (reference) | %s | %s | %s | %s |" % (name, cell(name, "w1", True), cell(name, "w2"), cell(name, "full"),
                                                         "%.0f" % memory[name] if name in memory else "—"))
    print()
    print("Memory of the candidate (E) with all tasks due at one instant (bucket cap %d): %.0f B" % (full.cap, one_instant))
    cancel_us, move_us = ops[full.name]
    print("By id on the full set (E, shard 0 of %d holding %s): cancel %.1f µs, reschedule %.1f µs (median of %d each)"
          % (MEMORY_SHARDS, "{:,}".format(MEMORY_TASKS // MEMORY_SHARDS), cancel_us, move_us, BY_ID_CALLS))
    print("Promotion of coarse buckets into due windows (E, once per task enqueued beyond %d min): %.2f µs / task (median; %d tasks)"
          % (HORIZON_MS // 60000, promote["per task"][0], promote["per task"][1]))
    print()
    print("| reclaim of expired leases (W1's buckets, 4 a call) | µs / task, 10th percentile (median) |")
    print("|---|---:|")
    for label, got in reclaim.items():
        print("| %s | %.2f (%.2f) |" % (label, q10(got), statistics.median(got)))
    print()
    print("| enqueue (due within 2 s, reject duplicates, 50,000 waiting) | 1 task a call | 100 a call |")
    print("|---|---:|---:|")
    for label in ("candidate", "core's enqueue.lua"):
        a, b = enq[(label, 1)], enq[(label, 100)]
        print("| %s | %.2f (%.2f) | %.2f (%.2f) |" % (label, q10(a), statistics.median(a), q10(b), statistics.median(b)))


if __name__ == "__main__":
    main()
