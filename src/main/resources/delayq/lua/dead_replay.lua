-- dead_replay: give dead tasks a fresh start: due now, attempts reset, record kept.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1..n]: ids
-- Returns: the number replayed (ids not in the dead-letter set are skipped)
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua

local now = server_now()
local replayed = 0
for _, id in ipairs(ARGV) do
  if redis.call('ZREM', DEAD, id) == 1 then
    redis.call('HDEL', ATTEMPTS, id)
    redis.call('HDEL', ERRORS, id)
    requeue(id, now, now)
    replayed = replayed + 1
  end
end
if replayed > 0 then mark(now) end
return replayed
