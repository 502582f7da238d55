-- A task's group as its record names it (docs/protocol.md, "Groups"), for both protocols: protocol 2 keeps a grouped
-- task in its group's due set, protocol 3 in its group's buckets (p3/include/buckets.lua). Pure: no keys.
local MAX_GROUP_BYTES = 64                       -- as io.delayq.task.TaskGroup.MAX_BYTES

-- 1 to 64 bytes of ASCII letters, digits and - _ . : @ / (as TaskGroup.problem)
local function valid_group(g)
  return type(g) == 'string' and #g >= 1 and #g <= MAX_GROUP_BYTES and not string.find(g, '[^%w_.:@/%-]')
end

-- The group a record names, or nil: no record, the compact form (it has no room for a group), no "group"
-- field, or one that breaks the rule (such a task waits ungrouped, and the worker dead-letters it naming the field).
local function group_of(record)
  if not record or string.byte(record, 1) ~= 123 or not string.find(record, '"group"', 1, true) then return nil end
  local ok, decoded = pcall(cjson.decode, record)
  if not ok or type(decoded) ~= 'table' then return nil end
  local g = decoded['group']
  if valid_group(g) then return g end
  return nil
end

