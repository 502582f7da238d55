-- enqueue (protocol 3): put tasks in the bucket of their due window and priority level (or group: a record naming
-- one, JSON "group", include/group_name.lua; level 0 then), rejecting ids the shard already holds.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: n; then per task (6 each, from ARGV[2 + 6k]): id, its ix bucket h, timing ('at': millis is the due time;
--          'in': a delay counted from the server clock), millis, record, priority level (0..2)
-- ARGV[2 + 6n]: the caller's layout epoch (absent: 0); ARGV[3 + 6n]: where, 'present' to act only on ids this shard
--          holds (the old shard during a migration), else normal (include/layout.lua, docs/protocol.md "Layouts and
--          resharding")
-- Returns: { now, then per task: status ('added', 'duplicate', 'window': the id's dedup window runs until the due
--          answered, 'absent': where = 'present' and the shard does not hold the id, nothing written, 'moving': the
--          mover is taking the id to its new shard, retry), due time (ms; a duplicate: the holding task's due time,
--          its lease expiry while in flight, or its time of death when it is a dead letter) }
--          or an error 'LAYOUT ...' (the caller's epoch is not the shard's; nothing written)
--@include buckets.lua
--@include wake.lua
--@include dedup.lua
--@include layout.lua
--@include group_name.lua
--@include shard_flags.lua

local P = KEYS[1]
local n = tonumber(ARGV[1])

-- the time a duplicate answers, as protocol 2's: the holding task's due time while it waits, its lease expiry while
-- it runs, its time of death when it is a dead letter (looked up only on this rare path)
local function held_time(P, id, held)
  if held == '~' then return tonumber(redis.call('ZSCORE', P .. 'dead', id)) or -1 end
  local due = tonumber(held, 36)
  if find_waiting(P, id, due) then return due end
  local _, expiry = find_flight(P, id, due)
  return expiry or due
end
local now = server_now()
local out = { now }
-- dedup windows, protocol 2's keys, a layout stamp (include/shard_flags.lua): one EXISTS on a shard with none
local windows = read_shard_flags(P)
local wrong_layout = epoch_problem(ARGV[2 + 6 * n])
if wrong_layout then return wrong_layout end
local present_only = ARGV[3 + 6 * n] == 'present'
-- An id protocol 2 may hold is adopted before it is looked up (include/legacy.lua). The adoption chain is defined only
-- on a shard that holds protocol 2's keys: a definition costs every call that runs it (defining the chain was a tenth
-- of a single enqueue's Redis time), and almost no shard holds them.
local adopt = function() end
if legacy_seen then
--@include crc32.lua
--@include dead.lua
--@include malformed.lua
--@include record_hash.lua
--@include legacy.lua
  adopt = adopt_id
end
for k = 0, n - 1 do
  local a = 2 + 6 * k
  local id, h, millis, record, level = ARGV[a], ARGV[a + 1], tonumber(ARGV[a + 3]), ARGV[a + 4], tonumber(ARGV[a + 5])
  local due = ARGV[a + 2] == 'in' and now + millis or millis
  local ix = P .. 'ix:' .. h
  adopt(P, id, h, now)
  local window_ends = windows and tonumber(redis.call('ZSCORE', DEDUP, id))
  local running = legacy_running(P, id)
  if window_ends and window_ends > now then
    out[#out + 1] = 'window'
    out[#out + 1] = window_ends
  elseif running then
    out[#out + 1] = 'duplicate'
    out[#out + 1] = running
  elseif (present_only or MIGRATING) and redis.call('HEXISTS', ix, id) == 0 and (present_only or is_moving(id)) then
    out[#out + 1] = is_moving(id) and 'moving' or 'absent'
    out[#out + 1] = due
  elseif redis.call('HSETNX', ix, id, b36(due)) == 1 then
    local group = group_of(record)
    if group then level = 0 end
    consider_wake(due, now, level, group)
    place(P, id, due, now, 1, record, level, group)
    if string.find(record, '"dedupWindowMs"', 1, true) then note_window(id, record, false) end
    out[#out + 1] = 'added'
    out[#out + 1] = due
  else
    out[#out + 1] = 'duplicate'
    out[#out + 1] = held_time(P, id, redis.call('HGET', ix, id))
  end
end
write_placed(P)
wake(P)
return out
