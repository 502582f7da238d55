-- reclaim (protocol 3): buckets whose lease expired go back to wait in their window as the next attempt (whole
-- buckets, renamed; each task's last error reads 'lease expired on attempt N', as protocol 2's), or to the dead
-- letters when that attempt would be beyond the most allowed ('lease expired on attempt N (worker died or
-- stalled)'); then coarse buckets within the horizon are split into due windows. Not the hot path: a lease expires
-- only where a worker died or stalled.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: now (ms; 0 = the server's clock), ARGV[2]: most buckets, ARGV[3]: most attempts, ARGV[4], ARGV[5]: the
-- dead letters' bounds, most kept and oldest kept (ms; 0 = none)
-- Returns: { tasks given back, tasks dead-lettered, tasks promoted }
--@include buckets.lua
--@include crc32.lua
--@include dead.lua
--@include promote.lua

local P = KEYS[1]
local now = tonumber(ARGV[1])
if now == 0 then now = server_now() end
local most, max_attempts = tonumber(ARGV[2]), tonumber(ARGV[3])
local expired = redis.call('ZRANGEBYSCORE', P .. 'lease', '-inf', now, 'LIMIT', 0, most)
local back, dead = 0, 0
for _, fname in ipairs(expired) do
  local fkey = P .. 'f:' .. fname
  local size = redis.call('HLEN', fkey)
  if size > 0 then
    local start, attempt, _, level = parse_name(fname)
    if attempt + 1 > max_attempts then
      local flat = redis.call('HGETALL', fkey)
      for j = 1, #flat, 2 do
        local _, record = decode(fname, flat[j + 1])
        dead_letter(P, flat[j], crc32(flat[j]) % IXB, record, 'lease expired on attempt ' .. attempt .. ' (worker died or stalled)',
          now, attempt)
      end
      redis.call('DEL', fkey)
      dead = dead + size
    else
      local errors = {}
      for _, id in ipairs(redis.call('HKEYS', fkey)) do
        errors[#errors + 1] = id
        errors[#errors + 1] = 'lease expired on attempt ' .. attempt
      end
      redis.call('HSET', P .. 'err', unpack(errors))
      move_bucket(P, fkey, size, base_of(start, false, attempt + 1, level), start, false, level)
      back = back + size
    end
  end
end
if #expired > 0 then redis.call('ZREM', P .. 'lease', unpack(expired)) end
if dead > 0 then trim_dead(P, now, tonumber(ARGV[4]) or 0, tonumber(ARGV[5]) or 0) end
write_placed(P)
if back > 0 then redis.call('ZADD', P .. 'marker', 'LT', now, 'next') end
local promoted = promote(P, now, now + HORIZON, most)
return { back, dead, promoted }
