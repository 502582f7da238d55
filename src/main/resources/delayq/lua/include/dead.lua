-- The dead-letter set is bounded by age and by count; each call trims at most 100 entries so
-- that no script runs unbounded.
local function trim_dead(now, max_count, max_age)
  if max_age > 0 then
    local old = redis.call('ZRANGEBYSCORE', DEAD, '-inf', now - max_age, 'LIMIT', 0, 100)
    if #old > 0 then
      redis.call('ZREM', DEAD, unpack(old))
      forget(old)
    end
  end
  if max_count > 0 then
    local excess = redis.call('ZCARD', DEAD) - max_count
    if excess > 0 then
      local victims = redis.call('ZRANGE', DEAD, 0, math.min(excess, 100) - 1)
      redis.call('ZREM', DEAD, unpack(victims))
      forget(victims)
    end
  end
end

-- Dead-lettering settles the task: a dedup window it carries starts now (include/dedup.lua, included before this file).
local function kill(id, now, reason)
  redis.call('ZADD', DEAD, now, id)
  redis.call('HSET', ERRORS, id, reason)
  dedup_settle({ id }, now)
end
