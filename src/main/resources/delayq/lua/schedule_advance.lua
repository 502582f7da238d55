-- schedule_advance: the planner's compare-and-set on one schedule. It writes the new planner state
-- and the schedule's next planning time only if both the definition and the state are still exactly
-- what the planner read, so of several planners working from the same point one wins and the others
-- learn that they are stale (and leave the index to the winner, or to the change that beat them).
-- KEYS[1]: dq:{q}:schedules        HASH name -> stored definition
-- KEYS[2]: dq:{q}:schedules:state  HASH name -> planner state JSON
-- KEYS[3]: dq:{q}:schedules:due    ZSET name -> next planning time (ms)
-- ARGV[1]: name
-- ARGV[2]: the stored definition the planner read ("" = absent: the schedule was removed)
-- ARGV[3]: the planner state it read ("" = absent: the schedule is new)
-- ARGV[4]: the new planner state ("" = delete it: a removed schedule, retired); may equal ARGV[3]
--          (nothing to plan yet: only the next planning time moves)
-- ARGV[5]: the next planning time in ms; "" = leave the index alone, "-" = drop the name from it
-- Returns: 1 when written, 0 when stale
local name = ARGV[1]
local def = redis.call('HGET', KEYS[1], name) or ''
local state = redis.call('HGET', KEYS[2], name) or ''
if def ~= ARGV[2] or state ~= ARGV[3] then
  return 0
end
if ARGV[4] == '' then
  if state ~= '' then redis.call('HDEL', KEYS[2], name) end
elseif ARGV[4] ~= state then
  redis.call('HSET', KEYS[2], name, ARGV[4])
end
if ARGV[5] == '-' then
  redis.call('ZREM', KEYS[3], name)
elseif ARGV[5] ~= '' then
  redis.call('ZADD', KEYS[3], tonumber(ARGV[5]), name)
end
return 1
