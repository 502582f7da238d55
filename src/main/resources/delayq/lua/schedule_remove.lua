-- schedule_remove: delete one schedule's definition. Its planner state stays until a planner has
-- cancelled the occurrences it planned and not yet fired (schedule_advance with an empty new state);
-- the schedule gets next planning time 0 (due at once), so that this happens in the next turn.
-- KEYS[1]: dq:{q}:schedules      HASH name -> stored definition
-- KEYS[2]: dq:{q}:schedules:due  ZSET name -> next planning time (ms)
-- ARGV[1]: name
-- Returns: 1 when the schedule existed, else 0
local removed = redis.call('HDEL', KEYS[1], ARGV[1])
if removed == 1 then
  redis.call('ZADD', KEYS[2], 0, ARGV[1])
end
return removed
