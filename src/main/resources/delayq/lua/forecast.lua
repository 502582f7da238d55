-- forecast: how many waiting tasks of one shard fall due within each coming window, and when the next one is
-- due, read atomically against the server clock. A delay queue knows its future load: this is what lets a fleet
-- scale before a wave instead of after it (docs/autoscaling.md).
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1..n]: the windows' lengths in ms, ascending (checked by the caller, io.delayq.backlog.ForecastReader)
-- Returns: {now, due time of the next task not yet due (-1 when none), tasks due within ARGV[1], ..., within ARGV[n]}
--   A window counts the tasks due in (now, now + length]: what is due already is the backlog (stats.lua), and is
--   not counted again. All due levels and the grouped tasks (include/groups.lua: GROUP_ALL holds every one) count.
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua

local now = server_now()
local after_now = '(' .. now
local within = {}
for i = 1, #ARGV do within[i] = 0 end
local next_due = -1

local function look(set)
  -- most sets of an idle queue are empty: one ZCARD each, nothing more
  if redis.call('ZCARD', set) == 0 then return end
  local head = redis.call('ZRANGE', set, after_now, '+inf', 'BYSCORE', 'LIMIT', 0, 1, 'WITHSCORES')
  if head[2] == nil then return end  -- everything in it is due already
  local first = tonumber(head[2])
  if next_due < 0 or first < next_due then next_due = first end
  for i = 1, #ARGV do
    local upto = now + tonumber(ARGV[i])
    -- windows are ascending: once the set's first future task lies beyond one, the shorter ones stay 0
    if first <= upto then within[i] = within[i] + redis.call('ZCOUNT', set, after_now, upto) end
  end
end

for level = 1, 3 do look(DUE[level]) end
look(GROUP_ALL)

local reply = { now, next_due }
for i = 1, #ARGV do reply[#reply + 1] = within[i] end
return reply
