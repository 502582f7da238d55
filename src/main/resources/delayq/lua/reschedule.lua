-- reschedule: move a scheduled task to a new due time (keeping its record and priority).
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1]: id, ARGV[2]: timing ("at" = epoch ms | "in" = delay ms from server now), ARGV[3]: ms
-- ARGV[4]: the caller's layout epoch (absent: 0; include/layout.lua)
-- Returns: {status, due}; status "rescheduled" | "inflight" | "dead" | "unknown" | "moving" (retry)
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua
--@include layout.lua

local wrong_layout = layout_problem(ARGV[4])
if wrong_layout then return wrong_layout end

local id, timing, ms = ARGV[1], ARGV[2], tonumber(ARGV[3])
local now = server_now()
local due = ms
if timing == 'in' then due = now + ms end
local state, level, score, group = locate(id)
if state == nil then return { is_moving(id) and 'moving' or 'unknown', -1 } end
if state ~= 'due' then return { state, score } end
local known_earliest = earliest_due()
if group then
  redis.call('ZADD', group_due(group), due, id)
  redis.call('ZADD', GROUP_ALL, due, id)
  group_settle(group, now)
else
  redis.call('ZADD', DUE[level + 1], due, id)
end
if known_earliest == nil or due < known_earliest then mark(due) end
return { 'rescheduled', due }
