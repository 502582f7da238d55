-- retry: a handler failed. Schedule the task again after a backoff, or move it to the dead-letter
-- set when it has used its attempts or the failure is permanent. The attempt that failed is counted
-- here (ATTEMPTS holds the attempts that ended without an ack; the claim hands out that + 1).
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1]: id, ARGV[2]: token, ARGV[3]: backoff ms, ARGV[4]: error text,
-- ARGV[5]: max attempts (0 = unlimited), ARGV[6]: "1" to dead-letter at once,
-- ARGV[7]: dead-letter max count (0 = unbounded), ARGV[8]: dead-letter max age ms (0 = unbounded)
-- ARGV[9]: "1" when the handler reported progress: its PROGRESS entry is deleted (absent = none)
-- Returns: {"retried", due} | {"dead", died at} | {"stale", -1}
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua
--@include dedup.lua
--@include dead.lua

local id, token, backoff, reason = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local max_attempts, permanent = tonumber(ARGV[5]), ARGV[6] == '1'
local now = server_now()

local score = redis.call('ZSCORE', INFLIGHT, id)
if not score or tonumber(score) ~= token then
  return { 'stale', -1 }
end
-- read before the first write: a script's writes stay when a later call fails (a key of the wrong type)
local attempts = (tonumber(redis.call('HGET', ATTEMPTS, id)) or 0) + 1
redis.call('ZREM', INFLIGHT, id)
redis.call('HSET', ATTEMPTS, id, attempts)
if ARGV[9] == '1' then redis.call('HDEL', PROGRESS, id) end
if permanent or (max_attempts > 0 and attempts >= max_attempts) then
  kill(id, now, reason)
  trim_dead(now, tonumber(ARGV[7]), tonumber(ARGV[8]))
  return { 'dead', now }
end
redis.call('HSET', ERRORS, id, reason)
local due = now + backoff
requeue(id, due, now)
mark(due)
return { 'retried', due }
