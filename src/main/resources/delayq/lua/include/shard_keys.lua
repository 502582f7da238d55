-- Every shard script receives the same ten KEYS, in this order, all inside the hash tag {queue:shard}
-- so that a script touches exactly one Redis Cluster slot. The Java side builds them in ShardKeys.
local DUE = { KEYS[1], KEYS[2], KEYS[3] }   -- due sets by priority level 0 (normal), 1, 2 (highest)
local INFLIGHT = KEYS[4]                   -- ZSET id -> lease expiry ms (the fencing token)
local TASKS = KEYS[5]                      -- prefix of the record hashes TASKS:<b>, b = bucket of the id
                                           -- (record_key below); the key named TASKS itself is never written
local ATTEMPTS = KEYS[6]                   -- HASH id -> attempts that ended without an ack (retry, lease
                                           -- expiry, dead-lettering); a claim hands out that + 1, an ack deletes it
local ERRORS = KEYS[7]                     -- HASH id -> last error text
local DEAD = KEYS[8]                       -- ZSET id -> time it died
local MARKER = KEYS[9]                     -- ZSET wake-up marker: member "next", score = earliest new due time
local RATE = KEYS[10]                      -- HASH token bucket (tokens, at) for the optional rate limit
-- HASH id -> "<at ms>|<percent>|<note>": the latest progress a running handler reported (progress.lua), for
-- in-flight tasks only; every script that ends a lease deletes its entry. Not among the KEYS: only a worker
-- that reported progress (and reclaim) touches it, in the shard's slot like the record buckets.
local PROGRESS = INFLIGHT and string.sub(INFLIGHT, 1, -9) .. 'progress' -- (scripts with keys of their own have no INFLIGHT)
-- Completion records, kept after an ack only while the worker keeps results (ack.lua): HASH
-- id -> "<finished ms>|<attempts>|<handler ms>|<truncated 0/1>|<worker>|<result>", and ZSET id -> finished ms,
-- the order they are trimmed in. Derived like PROGRESS: a queue that keeps no results never has them.
local DONE = INFLIGHT and string.sub(INFLIGHT, 1, -9) .. 'done'
local DONE_AT = DONE and DONE .. ':at'
-- Dedup windows (include/dedup.lua): ZSET id -> end of the id's window (ms, > 0: the task was settled, an enqueue
-- of the id is refused until then), or minus the window's length (< 0: the task still exists and carries a window,
-- which starts when it is acked, cancelled or dead-lettered). Derived like PROGRESS: a queue that never uses windows
-- never has it, and pays one ZCARD per enqueue and per settling call for it.
local DEDUP = INFLIGHT and string.sub(INFLIGHT, 1, -9) .. 'dedup'

-- Records live in TASK_BUCKETS small hashes per shard, not one big one: Redis keeps a hash of at most
-- hash-max-listpack-entries (512) entries with values of at most hash-max-listpack-value (64) bytes as
-- one compact listpack (~20 B per entry instead of ~70 B of hash-table entry). 2039 buckets hold a
-- shard of 250,000 waiting tasks at ~123 per bucket (fullest ~1.3x that), so a shard can grow to
-- ~700,000 before buckets start turning into hash tables; fewer, fuller buckets would make every
-- listpack lookup (a linear scan) slower. A prime count spreads sequential ids ("order-1", "order-2",
-- ...) evenly: with 2048 the low bits of the id hash repeat and the fullest bucket held ~1.9x the mean.
-- The bucket keys share the shard's hash tag, so they sit in the shard's Cluster slot (Redis 7 lets a
-- script touch undeclared keys of its own slot). Mirrored in Java by io.delayq.shard.RecordBuckets.
local TASK_BUCKETS = 2039

-- The record hash of a task: TASKS:<b>, b = h mod TASK_BUCKETS where h = (h * 31 + byte) mod 2^24
-- over the id's UTF-8 bytes. Every intermediate stays below 2^29, exact in Lua's doubles and cheap
-- to write in any language (producers that write records by hand compute the same key). It runs
-- once or twice per task per script, so it is kept cheap: five bytes per string.byte call (the same
-- h: five steps folded into one, 31^5 = 28629151, every term still below 2^50 and exact), no table
-- per call, and each bucket's key string built once per script call.
local byte = string.byte
local bucket_keys = {}
local function record_key(id)
  local h, n, i = 0, #id, 1
  while i + 4 <= n do
    local a, b, c, d, e = byte(id, i, i + 4)
    h = (h * 28629151 + a * 923521 + b * 29791 + c * 961 + d * 31 + e) % 16777216
    i = i + 5
  end
  while i <= n do
    h = (h * 31 + byte(id, i)) % 16777216
    i = i + 1
  end
  local b = h % TASK_BUCKETS
  local key = bucket_keys[b]
  if key == nil then
    key = TASKS .. ':' .. b
    bucket_keys[b] = key
  end
  return key
end

-- "Now" is always the Redis server clock, never a client's, so clock skew cannot fire tasks early.
-- (pause.lua and worker_beat.lua, queue-wide scripts with keys of their own, include this file for it alone.)
local function server_now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Wake a sleeping worker when a task becomes due earlier than anything it already knows of.
local function mark(due)
  redis.call('ZADD', MARKER, 'LT', due, 'next')
end
