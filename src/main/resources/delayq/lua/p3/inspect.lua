-- inspect (protocol 3): what the shard holds of one id, in protocol 2's answer.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: id, ARGV[2]: its ix bucket h
-- Returns: { now, state ('scheduled' | 'inflight' | 'dead' | 'unknown'), score, priority level, attempts that ended
--          without an ack, last error, record }. score: the due time (scheduled), the time of death (dead), -1 in
--          flight (the lease is its bucket's, found by name only from the claim that holds it); a task in flight
--          answers its due time's level and record as unknown (0, '').
--@include buckets.lua

local P = KEYS[1]
local id = ARGV[1]
local now = server_now()
local held = redis.call('HGET', P .. 'ix:' .. ARGV[2], id)
if not held then return { now, 'unknown', 0, 0, 0, '', '' } end
local err = redis.call('HGET', P .. 'err', id) or ''
if held == '~' then
  local kept = redis.call('HGET', P .. 'dv', id) or '0|'
  local attempts, record = string.match(kept, '^(%d+)|(.*)$')
  local level = level_of_record(record)
  return { now, 'dead', tonumber(redis.call('ZSCORE', P .. 'dead', id)) or 0, level, tonumber(attempts), err, record }
end
local name = find_waiting(P, id, tonumber(held, 36))
if not name then return { now, 'inflight', -1, 0, 0, err, '' } end
local due, record = decode(name, redis.call('HGET', P .. 'b:' .. name, id))
local _, attempt, _, level = parse_name(name)
return { now, 'scheduled', due, level, attempt - 1, err, record }
