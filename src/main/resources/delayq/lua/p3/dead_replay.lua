-- dead_replay (protocol 3): give dead tasks a fresh start: due now as attempt 1 at their level (or in their group),
-- record kept.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1..n]: ids
-- Returns: the number replayed (ids not among the dead letters are skipped)
--@include buckets.lua
--@include group_name.lua
--@include crc32.lua

local P = KEYS[1]
local now = server_now()
local replayed = 0
for _, id in ipairs(ARGV) do
  if redis.call('ZREM', P .. 'dead', id) == 1 then
    local _, record = string.match(redis.call('HGET', P .. 'dv', id) or '0|', '^(%d+)|(.*)$')
    local group = group_of(record)
    local level = group and 0 or level_of_record(record)
    redis.call('HDEL', P .. 'dv', id)
    redis.call('HDEL', P .. 'err', id)
    place(P, id, now, now, 1, record, level, group)
    redis.call('HSET', P .. 'ix:' .. (crc32(id) % IXB), id, b36(now))
    replayed = replayed + 1
  end
end
write_placed(P)
if replayed > 0 then redis.call('ZADD', P .. 'marker', 'LT', now, 'next') end
return replayed
