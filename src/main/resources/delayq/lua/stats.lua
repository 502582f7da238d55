-- stats: the backlog of one shard, read atomically against the server clock.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- KEYS[11]: dq:{queue:shard}:paused, optional (older callers pass ten keys and get paused 0)
-- ARGV: none
-- Returns: {now, scheduled (due in the future), due (due now, not claimed), in flight, dead,
--           due time of the oldest overdue task (-1 when none), paused (1 while the shard's flag is set)}
--@include shard_keys.lua
--@include groups.lua
--@include common.lua

local now = server_now()
local waiting, due_now = 0, 0
for level = 1, 3 do
  waiting = waiting + redis.call('ZCARD', DUE[level])
  due_now = due_now + redis.call('ZCOUNT', DUE[level], '-inf', now)
end
-- grouped tasks (include/groups.lua): GROUP_ALL holds every one of them, its head the oldest
waiting = waiting + redis.call('ZCARD', GROUP_ALL)
due_now = due_now + redis.call('ZCOUNT', GROUP_ALL, '-inf', now)
local oldest = earliest_due(nil, true)
local grouped_head = redis.call('ZRANGE', GROUP_ALL, 0, 0, 'WITHSCORES')
if grouped_head[2] and (oldest == nil or tonumber(grouped_head[2]) < oldest) then oldest = tonumber(grouped_head[2]) end
if oldest == nil or oldest > now then oldest = -1 end
local paused = 0
if KEYS[11] and redis.call('HGET', KEYS[11], 'at') then paused = 1 end
return { now, waiting - due_now, due_now, redis.call('ZCARD', INFLIGHT), redis.call('ZCARD', DEAD), oldest, paused }
