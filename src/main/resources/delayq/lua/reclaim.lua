-- reclaim: give tasks whose lease expired (their worker died or stalled) back to the due set at
-- once, or dead-letter them when they have used their attempts. At most `limit` per call.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1]: limit, ARGV[2]: max attempts (0 = unlimited),
-- ARGV[3]: dead-letter max count (0 = unbounded), ARGV[4]: dead-letter max age ms (0 = unbounded)
-- Returns: {requeued, dead}
--@include shard_keys.lua
--@include common.lua
--@include dead.lua

local limit, max_attempts = tonumber(ARGV[1]), tonumber(ARGV[2])
local now = server_now()
local expired = redis.call('ZRANGEBYSCORE', INFLIGHT, '-inf', now, 'LIMIT', 0, limit)
local requeued, died = 0, 0
local counts = {}
if #expired > 0 then
  -- read before the first write: a script's writes stay when a later call fails (a key of the wrong type)
  counts = redis.call('HMGET', ATTEMPTS, unpack(expired))
  redis.call('ZREM', INFLIGHT, unpack(expired))
end
for i, id in ipairs(expired) do
  local attempts = tonumber(counts[i]) or 0
  if max_attempts > 0 and attempts >= max_attempts then
    kill(id, now, 'lease expired on attempt ' .. attempts .. ' (worker died or stalled)')
    died = died + 1
  else
    redis.call('HSET', ERRORS, id, 'lease expired on attempt ' .. attempts)
    requeue(id, now)
    requeued = requeued + 1
  end
end
if requeued > 0 then mark(now) end
if died > 0 then trim_dead(now, tonumber(ARGV[3]), tonumber(ARGV[4])) end
return { requeued, died }
