-- stats: the backlog of one shard, read atomically against the server clock.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- KEYS[11]: dq:{queue:shard}:paused, optional (older callers pass ten keys and get paused 0)
-- ARGV: none
-- Returns: {now, scheduled (due in the future), due (due now, not claimed), in flight, dead,
--           due time of the oldest overdue task (-1 when none), paused (1 while the shard's flag is set)}
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua

local now = server_now()
-- An empty set costs one ZCARD and nothing else: most shards of an idle queue hold nothing, and the worker's
-- backlog gauges and the operator read every shard's stats on a schedule.
local waiting, due_now = 0, 0
local function count(set)
  local n = redis.call('ZCARD', set)
  if n > 0 then
    waiting = waiting + n
    due_now = due_now + redis.call('ZCOUNT', set, '-inf', now)
  end
end
for level = 1, 3 do count(DUE[level]) end
count(GROUP_ALL)  -- grouped tasks (include/groups.lua): GROUP_ALL holds every one of them, its head the oldest
local oldest = -1
if due_now > 0 then  -- nothing due now: nothing is overdue, and no head needs reading
  local best = earliest_due(nil, true)
  local grouped_head = redis.call('ZRANGE', GROUP_ALL, 0, 0, 'WITHSCORES')
  if grouped_head[2] and (best == nil or tonumber(grouped_head[2]) < best) then best = tonumber(grouped_head[2]) end
  if best ~= nil and best <= now then oldest = best end
end
local paused = 0
if KEYS[11] and redis.call('HGET', KEYS[11], 'at') then paused = 1 end
return { now, waiting - due_now, due_now, redis.call('ZCARD', INFLIGHT), redis.call('ZCARD', DEAD), oldest, paused }
