-- schedule_put: create or change one recurring schedule's definition. A change bumps the revision
-- (never reused, even after a remove: it continues from the planner state's revision), so that the
-- occurrences planned for an older definition are recognisable by their id and get cancelled.
-- KEYS[1]: dq:{q}:schedules        HASH name -> "<revision>|<updatedAt ms>|<definition JSON>"
-- KEYS[2]: dq:{q}:schedules:state  HASH name -> planner state JSON (read for its "rev" only)
-- KEYS[3]: dq:{q}:schedules:due    ZSET name -> when a planner must next look at it (ms): a change
--                                  gets 0, due for planning at once whatever a planner takes as now
-- ARGV[1]: name
-- ARGV[2]: definition JSON, canonical (CronSchedule.toJson): equal definitions are equal strings
-- ARGV[3]: expected current revision, for read-modify-write callers (pause, resume); "" = any,
--          "0" = the schedule must not exist
-- Returns: {result, revision, updatedAt}; result is "added" | "changed" | "unchanged" | "conflict"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local name, json, expected = ARGV[1], ARGV[2], ARGV[3]

local old = redis.call('HGET', KEYS[1], name)
local rev, at, old_json = 0, 0, nil
if old then
  local a = string.find(old, '|', 1, true)
  local b = string.find(old, '|', a + 1, true)
  rev = tonumber(string.sub(old, 1, a - 1))
  at = tonumber(string.sub(old, a + 1, b - 1))
  old_json = string.sub(old, b + 1)
end
if expected ~= '' and tonumber(expected) ~= rev then
  return { 'conflict', rev, at }
end
if old_json == json then
  return { 'unchanged', rev, at }
end

local next_rev = rev + 1
local state = redis.call('HGET', KEYS[2], name)
if state then
  local planned = tonumber(cjson.decode(state).rev) or 0
  if planned >= next_rev then next_rev = planned + 1 end
end
redis.call('HSET', KEYS[1], name, next_rev .. '|' .. now .. '|' .. json)
redis.call('ZADD', KEYS[3], 0, name)
if old then
  return { 'changed', next_rev, now }
end
return { 'added', next_rev, now }
