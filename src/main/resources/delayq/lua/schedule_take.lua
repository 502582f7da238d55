-- schedule_take: the schedules due for planning, taken for one planning turn. Each name handed out
-- moves to the lease's end, so that concurrent planners share the work instead of repeating it; the
-- planner's schedule_advance then sets its real next planning time. A planner that dies mid-turn
-- leaves its names to be taken again when the lease ends.
-- KEYS[1]: dq:{q}:schedules:due  ZSET name -> next planning time (ms)
-- ARGV[1]: now (ms; the planner's notion of it, normally Redis' TIME)
-- ARGV[2]: at most this many names (bounded: callers page with repeated calls)
-- ARGV[3]: lease end (ms): the score the names taken get
-- Returns: the names, earliest due first
local names = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local lease = tonumber(ARGV[3])
for i = 1, #names do
  redis.call('ZADD', KEYS[1], lease, names[i])
end
return names
