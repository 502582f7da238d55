-- reschedule (protocol 3): move a waiting task to a new due time, keeping its record, level and attempt.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: id, ARGV[2]: its ix bucket h, ARGV[3]: timing ('at' = epoch ms | 'in' = delay ms from the server's now),
-- ARGV[4]: ms, ARGV[5]: the caller's layout epoch (absent: 0; include/layout.lua)
-- Returns: { status, due }; status 'rescheduled' (due: the new one) | 'inflight' (its lease expiry) | 'dead' (time of
--          death) | 'unknown' (-1) | 'moving' (-1: the mover is taking it to its new shard, retry), or an error
--          'LAYOUT ...' (nothing done)
--@include buckets.lua
--@include wake.lua
--@include crc32.lua
--@include dedup.lua
--@include dead.lua
--@include malformed.lua
--@include record_hash.lua
--@include layout.lua
--@include group_name.lua
--@include shard_flags.lua
--@include legacy.lua

local wrong_layout = layout_problem(ARGV[5])
if wrong_layout then return wrong_layout end
local P = KEYS[1]
local id, ix = ARGV[1], P .. 'ix:' .. ARGV[2]
local now = server_now()
local due = ARGV[3] == 'in' and now + tonumber(ARGV[4]) or tonumber(ARGV[4])
adopt_id(P, id, ARGV[2], now)
local held = redis.call('HGET', ix, id)
if not held then
  local running = legacy_running(P, id)
  if running then return { 'inflight', running } end
  return { is_moving(id) and 'moving' or 'unknown', -1 }
end
if held == '~' then return { 'dead', tonumber(redis.call('ZSCORE', P .. 'dead', id)) or 0 } end
local name = find_waiting(P, id, tonumber(held, 36))
if not name then
  local _, expiry = find_flight(P, id, tonumber(held, 36))
  return { 'inflight', expiry or -1 }
end
local bkey = P .. 'b:' .. name
local _, record = decode(name, redis.call('HGET', bkey, id))
local _, attempt, _, level, group = parse_name(name)
unwait(P, name, id)
consider_wake(due, now, level, group)
place(P, id, due, now, attempt, record, level, group)
write_placed(P)
wake(P)
redis.call('HSET', ix, id, b36(due))
return { 'rescheduled', due }
