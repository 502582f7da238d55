-- reclaim: give tasks whose lease expired (their worker died or stalled) back to the due set at
-- once, or dead-letter them when they have used their attempts. At most `limit` per call. The
-- attempt whose lease expired is counted here (ATTEMPTS: attempts that ended without an ack), so a
-- task that crashes its worker every time still reaches the dead-letter set.
-- A record's own `maxAttempts` (per-task option, JSON records only) wins over ARGV[2].
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1]: limit, ARGV[2]: max attempts (0 = unlimited),
-- ARGV[3]: dead-letter max count (0 = unbounded), ARGV[4]: dead-letter max age ms (0 = unbounded)
-- Deletes the expired tasks' PROGRESS entries.
-- Returns: {requeued, dead}
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua
--@include dedup.lua
--@include dead.lua
--@include attempt_limit.lua

local limit, max_attempts = tonumber(ARGV[1]), tonumber(ARGV[2])
local now = server_now()
local expired = redis.call('ZRANGEBYSCORE', INFLIGHT, '-inf', now, 'LIMIT', 0, limit)
local requeued, died = 0, 0
local counts = {}
if #expired > 0 then
  -- read before the first write: a script's writes stay when a later call fails (a key of the wrong type)
  counts = redis.call('HMGET', ATTEMPTS, unpack(expired))
  redis.call('ZREM', INFLIGHT, unpack(expired))
  -- whatever their handlers reported is over with the lease (the worker that reported it is gone)
  redis.call('HDEL', PROGRESS, unpack(expired))
end
-- the task's own limit (include/attempt_limit.lua); leases expire rarely, so reading records here is cheap
local function own_limit(id)
  return attempt_limit_of(redis.pcall('HGET', record_key(id), id), max_attempts)
end
local ended = {}
for i, id in ipairs(expired) do
  local attempts = (tonumber(counts[i]) or 0) + 1
  ended[2 * i - 1], ended[2 * i] = id, attempts
  local limit_of = own_limit(id)
  if limit_of > 0 and attempts >= limit_of then
    kill(id, now, 'lease expired on attempt ' .. attempts .. ' (worker died or stalled)')
    died = died + 1
  else
    redis.call('HSET', ERRORS, id, 'lease expired on attempt ' .. attempts)
    requeue(id, now, now)
    requeued = requeued + 1
  end
end
if #ended > 0 then redis.call('HSET', ATTEMPTS, unpack(ended)) end
if requeued > 0 then mark(now) end
if died > 0 then trim_dead(now, tonumber(ARGV[3]), tonumber(ARGV[4])) end
return { requeued, died }
