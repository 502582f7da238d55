-- schedule_remove: delete one schedule's definition. Its planner state stays until a planner has
-- cancelled the occurrences it planned and not yet fired (schedule_advance with an empty new state).
-- KEYS[1]: dq:{q}:schedules (HASH name -> stored definition)
-- ARGV[1]: name
-- Returns: 1 when the schedule existed, else 0
return redis.call('HDEL', KEYS[1], ARGV[1])
