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

-- Records live in TASK_BUCKETS small hashes per shard (include/record_hash.lua, which every script including this
-- file includes first): TASKS:<b>, b = record_bucket(id), each bucket's key string built once per script call.
local bucket_keys = {}
local function record_key(id)
  local b = record_bucket(id)
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
