-- enqueue (protocol 3): put tasks in the bucket of their due window, rejecting ids the shard already holds.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: n; then per task (5 each, from ARGV[2 + 5k]): id, its ix bucket h, timing ('at': millis is the due time;
--          'in': a delay counted from the server clock), millis, record
-- Returns: { now, then per task: status ('added' or 'duplicate'), due time (ms; -1 for a duplicate) }
--@include buckets.lua

local P = KEYS[1]
local n = tonumber(ARGV[1])
local now = server_now()
local out = { now }
local soonest
-- what waited before this call: a task earlier than all of it wakes a sleeping worker (the marker)
local head = redis.call('ZRANGE', P .. 'idx', 0, 0, 'WITHSCORES')
local waited = tonumber(head[2]) or math.huge
for k = 0, n - 1 do
  local a = 2 + 5 * k
  local id, h, millis, record = ARGV[a], ARGV[a + 1], tonumber(ARGV[a + 3]), ARGV[a + 4]
  local due = ARGV[a + 2] == 'in' and now + millis or millis
  local ix = P .. 'ix:' .. h
  if redis.call('HSETNX', ix, id, b36(due)) == 1 then
    place(P, id, due, now, 1, record)
    out[#out + 1] = 'added'
    out[#out + 1] = due
    if soonest == nil or due < soonest then soonest = due end
  else
    out[#out + 1] = 'duplicate'
    out[#out + 1] = -1
  end
end
index_placed(P)
if soonest and soonest - soonest % W < waited then redis.call('ZADD', P .. 'marker', 'LT', soonest, 'next') end
return out
