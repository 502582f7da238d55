-- cancel: remove a scheduled or dead task with its record. A task in flight is refused: its
-- handler is already running and cancelling would only hide the outcome.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1]: id, ARGV[2]: the caller's layout epoch (absent: 0; include/layout.lua)
-- A dedup window the task carries starts now (include/dedup.lua).
-- Returns: "cancelled" | "inflight" | "unknown" | "moving" (being moved to another shard: retry)
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua
--@include layout.lua
--@include dedup.lua

local wrong_layout = layout_problem(ARGV[2])
if wrong_layout then return wrong_layout end
local id = ARGV[1]
local state, level, _, group = locate(id)
if state == nil then return is_moving(id) and 'moving' or 'unknown' end
if state == 'inflight' then return 'inflight' end
if state == 'due' then due_remove(id, level, group, group and server_now()) else redis.call('ZREM', DEAD, id) end
forget({ id })
dedup_settle({ id }, server_now())
return 'cancelled'
