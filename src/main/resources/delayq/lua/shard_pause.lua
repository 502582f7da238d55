-- shard_pause: set or clear one shard's pause flag, which every claim honours (claim.lua, KEYS[12]).
-- Nothing moves: scheduled tasks keep their due times, tasks in flight finish, overdue tasks wait
-- and fire once resumed. Resuming wakes the shard's workers through the marker.
-- The flag hash also keeps the epoch (pause.lua) of the call that last decided it: a call with an
-- older epoch arriving later (two operators at once) changes nothing, so every shard ends in the
-- state of the latest call, as the meta hash does.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- KEYS[11]: dq:{queue:shard}:paused (HASH: field `at` = server ms while paused, `epoch` = the last
--           deciding call's epoch; a hash, so that every reader needs only HGET, which producers,
--           workers and the operator are all allowed)
-- ARGV[1]: '1' pause, '0' resume
-- ARGV[2]: the call's epoch (optional: without it the call always applies, as in 0.x)
-- Returns: 1 when the flag changed, 0 when it already was so or a later call had decided it
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua

if ARGV[2] and ARGV[2] ~= '' then
  local seen = tonumber(redis.call('HGET', KEYS[11], 'epoch') or '0')
  if seen > tonumber(ARGV[2]) then return 0 end
  redis.call('HSET', KEYS[11], 'epoch', ARGV[2])
end
local paused = redis.call('HGET', KEYS[11], 'at') ~= false
if ARGV[1] == '1' then
  if paused then return 0 end
  redis.call('HSET', KEYS[11], 'at', server_now())
  return 1
end
if not paused then return 0 end
redis.call('HDEL', KEYS[11], 'at')
local next_due = earliest_due()
if next_due then
  mark(next_due)
elseif redis.call('EXISTS', string.sub(KEYS[11], 1, -7) .. 'waiting') == 1 then
  -- a protocol-3 shard (docs/protocol3.md) keeps its tasks in buckets: its workers wake and claim to find the next
  mark(server_now())
end
return 1
