-- Protocol 3's dead letters: P..'dead' ZSET id -> time of death (ms), P..'dv' HASH id -> the task's record,
-- P..'err' HASH id -> the last error. The id index keeps '~' for a dead id: it stays a duplicate until cancelled.
local function dead_letter(P, id, h, record, error, now)
  redis.call('ZADD', P .. 'dead', now, id)
  redis.call('HSET', P .. 'dv', id, record)
  redis.call('HSET', P .. 'err', id, error)
  redis.call('HSET', P .. 'ix:' .. h, id, '~')
end
