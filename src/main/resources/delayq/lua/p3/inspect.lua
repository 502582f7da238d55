-- inspect (protocol 3): what the shard holds of one id, in protocol 2's answer.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: id, ARGV[2]: its ix bucket h, ARGV[3]: the caller's layout epoch (absent: 0; include/layout.lua)
-- Returns (false reads as nil): { now, state ('scheduled' | 'inflight' | 'dead' | 'succeeded' | 'unknown'), score,
--          priority level, attempts that ended without an ack (in flight: the attempt it is on), last error, record,
--          progress, completion record }. score: the due time (scheduled), the lease expiry of its bucket (in
--          flight), the time of death (dead), the time it finished (succeeded). progress: as its handler last
--          reported it, in flight only (false when none); the completion record (P..'done', protocol 2's value;
--          false when none): 'succeeded' is an id no task of which waits, runs or is dead, with a completion record
--          kept. State 'moving' (the mover is taking it to its new shard: retry); or an error 'LAYOUT ...'.
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
local id = ARGV[1]
local now = server_now()
adopt_id(P, id, ARGV[2], now)
local held = redis.call('HGET', P .. 'ix:' .. ARGV[2], id)
local completion = redis.call('HGET', P .. 'done', id)
local running = not held and legacy_running(P, id)
if running then
  -- protocol 2's, finishing there: its record, attempt and error in protocol 2's keys
  local record = redis.call('HGET', legacy_record_key(P, id), id)
  local attempt = (tonumber(redis.call('HGET', P .. 'attempts', id)) or 0) + 1
  return { now, 'inflight', running, level_of_record(record or ''), attempt, redis.call('HGET', P .. 'errors', id),
    record or false, redis.call('HGET', P .. 'progress', id), completion }
end
if not held then
  if is_moving(id) then return { now, 'moving', -1, 0, 0, false, false, false, false } end
  if completion then
    local finished, attempts = string.match(completion, '^(%d+)|(%d+)|')
    return { now, 'succeeded', tonumber(finished) or -1, 0, tonumber(attempts) or 0, false, false, false, completion }
  end
  return { now, 'unknown', -1, 0, 0, false, false, false, false }
end
local err = redis.call('HGET', P .. 'err', id)
if held == '~' then
  local kept = redis.call('HGET', P .. 'dv', id) or '0|'
  local attempts, record = string.match(kept, '^(%d+)|(.*)$')
  local level = level_of_record(record)
  return { now, 'dead', tonumber(redis.call('ZSCORE', P .. 'dead', id)) or 0, level, tonumber(attempts), err,
    record ~= '' and record, false, completion }
end
local name = find_waiting(P, id, tonumber(held, 36))
if not name then
  local progress = redis.call('HGET', P .. 'progress', id)
  local flight, expiry = find_flight(P, id, tonumber(held, 36))
  if not flight then return { now, 'inflight', -1, 0, 0, err, false, progress, completion } end
  local _, record = decode(flight, redis.call('HGET', P .. 'f:' .. flight, id))
  local _, attempt, _, level = parse_name(flight)
  return { now, 'inflight', expiry, level, attempt, err, record ~= '' and record, progress, completion }
end
local due, record = decode(name, redis.call('HGET', P .. 'b:' .. name, id))
local _, attempt, _, level = parse_name(name)
-- a bare task (include/legacy.lua) has no record: false, as protocol 2 answers it
return { now, 'scheduled', due, level, attempt - 1, err, record ~= '' and record, false, completion }
