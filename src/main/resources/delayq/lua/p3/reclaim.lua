-- reclaim (protocol 3): buckets whose lease expired go back to wait in their window as the next attempt (whole
-- buckets, renamed; each task's last error reads 'lease expired on attempt N', as protocol 2's), or to the dead
-- letters when that attempt would be beyond the most allowed ('lease expired on attempt N (worker died or
-- stalled)'); their progress reports go; on a shard upgraded in place, protocol 2's expired leases too
-- (include/legacy.lua); then coarse buckets within the horizon are split into due windows. Not the hot path: a lease
-- expires only where a worker died or stalled.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: now (ms; 0 = the server's clock), ARGV[2]: most buckets, ARGV[3]: most attempts (0 = unlimited; a
-- record's own maxAttempts wins), ARGV[4], ARGV[5]: the
-- dead letters' bounds, most kept and oldest kept (ms; 0 = none)
-- Returns: { tasks given back, tasks dead-lettered, tasks promoted }
--@include buckets.lua
--@include crc32.lua
--@include dedup.lua
--@include dead.lua
--@include promote.lua
--@include attempt_limit.lua
--@include malformed.lua
--@include record_hash.lua
--@include group_name.lua
--@include shard_flags.lua
--@include legacy.lua

local P = KEYS[1]
local now = tonumber(ARGV[1])
if now == 0 then now = server_now() end
local most, max_attempts = tonumber(ARGV[2]), tonumber(ARGV[3])
local expired = redis.call('ZRANGEBYSCORE', P .. 'lease', '-inf', now, 'LIMIT', 0, most)
local back, dead = 0, 0
-- a progress report goes with its lease (one EXISTS a call on a queue whose handlers report none)
local progress = redis.call('EXISTS', P .. 'progress') == 1
for _, fname in ipairs(expired) do
  local fkey = P .. 'f:' .. fname
  local flat = redis.call('HGETALL', fkey)
  if #flat > 0 then
    local start, attempt, _, level, group = parse_name(fname)
    local ids, errors, dying = {}, {}, {}
    for j = 1, #flat, 2 do
      local id = flat[j]
      ids[#ids + 1] = id
      local _, record = decode(fname, flat[j + 1])
      -- the task's own limit when its record names one (include/attempt_limit.lua), else the worker's (0: none)
      local limit = attempt_limit_of(record, max_attempts)
      if limit > 0 and attempt >= limit then
        dead_letter(P, id, crc32(id) % IXB, record, 'lease expired on attempt ' .. attempt .. ' (worker died or stalled)',
          now, attempt)
        dying[#dying + 1] = id
      else
        errors[#errors + 1] = id
        errors[#errors + 1] = 'lease expired on attempt ' .. attempt
      end
    end
    if progress then redis.call('HDEL', P .. 'progress', unpack(ids)) end
    dead = dead + #dying
    if #errors == 0 then
      redis.call('DEL', fkey)
    else
      if #dying > 0 then redis.call('HDEL', fkey, unpack(dying)) end
      redis.call('HSET', P .. 'err', unpack(errors))
      move_bucket(P, fkey, #errors / 2, base_of(start, false, attempt + 1, level, group), start, false, level, group)
      back = back + #errors / 2
    end
  end
end
if #expired > 0 then redis.call('ZREM', P .. 'lease', unpack(expired)) end
-- a shard upgraded in place (include/legacy.lua): leases protocol 2 handed out expire here too, as their next attempt
if redis.call('EXISTS', P .. 'legacy') == 1 then
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'inflight', '-inf', now, 'LIMIT', 0, most)) do
    redis.call('ZREM', P .. 'inflight', id)
    redis.call('HDEL', P .. 'progress', id)
    local record, attempts, err = legacy_parts(P, id)
    attempts = attempts + 1 -- the attempt whose lease expired
    local h = crc32(id) % IXB
    local limit = attempt_limit_of(record, max_attempts)
    if limit > 0 and attempts >= limit then
      dead_letter(P, id, h, record, 'lease expired on attempt ' .. attempts .. ' (worker died or stalled)', now, attempts)
      dead = dead + 1
    else
      redis.call('HSET', P .. 'ix:' .. h, id, b36(now))
      local group = group_of(record)
      place(P, id, now, now, attempts + 1, record, group and 0 or level_of_record(record), group)
      redis.call('HSET', P .. 'err', id, 'lease expired on attempt ' .. attempts)
      back = back + 1
    end
  end
end
if dead > 0 then trim_dead(P, now, tonumber(ARGV[4]) or 0, tonumber(ARGV[5]) or 0) end
write_placed(P)
if back > 0 then redis.call('ZADD', P .. 'marker', 'LT', now, 'next') end
local promoted = promote(P, now, now + HORIZON, most)
return { back, dead, promoted }
