-- cancel (protocol 3): remove a waiting task or a dead letter by id; a task in flight is refused (its handler runs).
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: id, ARGV[2]: its ix bucket h, ARGV[3]: the caller's layout epoch (absent: 0; include/layout.lua)
-- Returns: 'cancelled' | 'inflight' | 'absent' | 'moving' (the mover is taking it to its new shard: retry), or an
--          error 'LAYOUT ...' (nothing done)
--@include buckets.lua
--@include crc32.lua
--@include dedup.lua
--@include dead.lua
--@include malformed.lua
--@include record_hash.lua
--@include layout.lua
--@include group_name.lua
--@include shard_flags.lua
--@include legacy.lua

local wrong_layout = layout_problem(ARGV[3])
if wrong_layout then return wrong_layout end
local P = KEYS[1]
local id, ix = ARGV[1], P .. 'ix:' .. ARGV[2]
adopt_id(P, id, ARGV[2], server_now())
local held = redis.call('HGET', ix, id)
if not held then return legacy_running(P, id) and 'inflight' or (is_moving(id) and 'moving' or 'absent') end
if held == '~' then
  redis.call('ZREM', P .. 'dead', id)
  redis.call('HDEL', P .. 'dv', id)
else
  local name = find_waiting(P, id, tonumber(held, 36))
  if not name then return 'inflight' end
  unwait(P, name, id)
  write_placed(P)
end
redis.call('HDEL', ix, id)
redis.call('HDEL', P .. 'err', id)
dedup_settle({ id }) -- a cancel starts the id's dedup window, as protocol 2's
return 'cancelled'
