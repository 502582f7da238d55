-- retry (protocol 3): one failed task leaves its in-flight bucket for the window of now + backoff, waiting as the
-- next attempt (the bucket's name carries the attempt), or becomes a dead letter when that attempt would be beyond
-- the most allowed or the failure is permanent. A task not in that bucket any more (reclaimed) is left alone.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: in-flight name, ARGV[2]: id, ARGV[3]: its ix bucket h, ARGV[4]: backoff ms, ARGV[5]: error,
-- ARGV[6]: most attempts (0 = unlimited), ARGV[7]: '1' when the failure is permanent, ARGV[8], ARGV[9]: the dead letters' bounds,
-- most kept and oldest kept (ms; 0 = none), ARGV[10]: '1' when the handler reported progress: its P..'progress'
-- entry goes (absent = none)
-- Returns: { 'retried', due time } | { 'dead', time of death } | { 'stale', -1 }
--@include buckets.lua
--@include crc32.lua
--@include dedup.lua
--@include dead.lua

local P = KEYS[1]
local fname, id, h = ARGV[1], ARGV[2], ARGV[3]
local fkey = P .. 'f:' .. fname
local value = redis.call('HGET', fkey, id)
if not value then return { 'stale', -1 } end
redis.call('HDEL', fkey, id)
if redis.call('EXISTS', fkey) == 0 then redis.call('ZREM', P .. 'lease', fname) end
if ARGV[10] == '1' then redis.call('HDEL', P .. 'progress', id) end
local now = server_now()
local _, record = decode(fname, value)
local _, attempt, _, level, group = parse_name(fname)
local most = tonumber(ARGV[6])
if ARGV[7] == '1' or (most > 0 and attempt >= most) then
  dead_letter(P, id, h, record, ARGV[5], now, attempt)
  trim_dead(P, now, tonumber(ARGV[8]) or 0, tonumber(ARGV[9]) or 0)
  return { 'dead', now }
end
local due = now + tonumber(ARGV[4])
place(P, id, due, now, attempt + 1, record, level, group)
write_placed(P)
redis.call('HSET', P .. 'ix:' .. h, id, b36(due))
redis.call('HSET', P .. 'err', id, ARGV[5])
redis.call('ZADD', P .. 'marker', 'LT', due, 'next')
return { 'retried', due }
