-- shard_pause: set or clear one shard's pause flag, which every claim honours (claim.lua, KEYS[12]).
-- Nothing moves: scheduled tasks keep their due times, tasks in flight finish, overdue tasks wait
-- and fire once resumed. Resuming wakes the shard's workers through the marker.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- KEYS[11]: dq:{queue:shard}:paused (HASH, field `at` = server ms when paused: a hash, so that every
--           reader needs only HGET, which producers, workers and the operator are all allowed)
-- ARGV[1]: '1' pause, '0' resume
-- Returns: 1 when the flag changed, 0 when it already was so
--@include shard_keys.lua
--@include common.lua

local paused = redis.call('HGET', KEYS[11], 'at') ~= false
if ARGV[1] == '1' then
  if paused then return 0 end
  redis.call('HSET', KEYS[11], 'at', server_now())
  return 1
end
if not paused then return 0 end
redis.call('HDEL', KEYS[11], 'at')
local next_due = earliest_due()
if next_due then mark(next_due) end
return 1
