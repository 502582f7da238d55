-- Protocol 3's dead letters: P..'dead' ZSET id -> time of death (ms), P..'dv' HASH id -> '<attempts>|<record>' (the
-- attempts it used, then its record), P..'err' HASH id -> the last error. The id index keeps '~' for a dead id: it stays a duplicate until cancelled or
-- trimmed. Needs crc32.lua (the id index bucket of a trimmed id), buckets.lua (IXB) and include/dedup.lua.
local function dead_letter(P, id, h, record, error, now, attempts)
  redis.call('ZADD', P .. 'dead', now, id)
  redis.call('HSET', P .. 'dv', id, attempts .. '|' .. record)
  redis.call('HSET', P .. 'err', id, error)
  redis.call('HSET', P .. 'ix:' .. h, id, '~')
  dedup_settle({ id }, now) -- a dead letter starts its id's dedup window, as protocol 2's
end

local function forget_dead(P, ids)
  redis.call('ZREM', P .. 'dead', unpack(ids))
  redis.call('HDEL', P .. 'dv', unpack(ids))
  redis.call('HDEL', P .. 'err', unpack(ids))
  for _, id in ipairs(ids) do redis.call('HDEL', P .. 'ix:' .. (crc32(id) % IXB), id) end
end

-- bounded by age and count as protocol 2's (0 = no bound); at most 100 entries a call, so no script runs unbounded
local function trim_dead(P, now, max_count, max_age)
  if max_age > 0 then
    local old = redis.call('ZRANGEBYSCORE', P .. 'dead', '-inf', now - max_age, 'LIMIT', 0, 100)
    if #old > 0 then forget_dead(P, old) end
  end
  if max_count > 0 then
    local excess = redis.call('ZCARD', P .. 'dead') - max_count
    if excess > 0 then forget_dead(P, redis.call('ZRANGE', P .. 'dead', 0, math.min(excess, 100) - 1)) end
  end
end
