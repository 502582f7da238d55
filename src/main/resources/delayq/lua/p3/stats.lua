-- stats (protocol 3): the backlog of one shard against the server clock, in protocol 2's answer (stats.lua).
-- The waiting total is the shard's count (P..'waiting', kept by every script that places or takes a task); the due
-- part of it is counted from the buckets whose window (or minute) has begun: one HLEN a bucket, and the values of a
-- window still running, or of an index's oldest buckets (for the oldest due time), read one by one. In flight: the
-- tasks of the buckets the lease set holds. At most `most` buckets are read a call; past that (a backlog of millions
-- of tasks on one shard), the buckets left unread count as many tasks as the read ones held on average.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: most buckets read
-- Returns: { now, scheduled (due in the future), due (due now, not claimed), in flight, dead, due time of the oldest
--          overdue task (-1 when none), paused (1 while the shard's flag is set) }
--@include buckets.lua

local P = KEYS[1]
local now = server_now()
local budget = tonumber(ARGV[1])

-- an empty shard answers after one EXISTS: an idle worker's backlog gauges visit every shard it owns
if not holds_any(P, { 'waiting', 'lease', 'inflight' }) then
  return { now, 0, 0, 0, redis.call('ZCARD', P .. 'dead'), -1, redis.call('HGET', P .. 'paused', 'at') and 1 or 0 }
end
local due, oldest = 0, -1
local read, held = 0, 0

-- what `unread` buckets hold, at the read ones' average
local function as_read(unread)
  if unread <= 0 then return 0 end
  if read == 0 then return unread * CAP end
  return math.floor(unread * held / read + 0.5)
end

local function count_due(ix, width)
  local listed = budget > 0 and redis.call('ZRANGEBYSCORE', P .. ix, '-inf', now, 'WITHSCORES', 'LIMIT', 0, budget) or {}
  local first_start = tonumber(listed[2])
  for j = 1, #listed, 2 do
    local name, start = listed[j], tonumber(listed[j + 1])
    local key = P .. 'b:' .. name
    if start == first_start or start + width - 1 > now then
      -- an index's oldest buckets (the oldest due time is in one of them) and a window still running
      local values = redis.call('HVALS', key)
      held = held + #values
      for _, value in ipairs(values) do
        local at = decode(name, value)
        if at <= now then
          due = due + 1
          if oldest < 0 or at < oldest then oldest = at end
        end
      end
    else
      local size = redis.call('HLEN', key)
      held = held + size
      due = due + size
    end
  end
  read = read + #listed / 2
  budget = budget - #listed / 2
  if budget == 0 then due = due + as_read(redis.call('ZCOUNT', P .. ix, '-inf', now) - #listed / 2) end
end

for _, ix in ipairs({ 'idx2', 'idx1', 'idx', 'gidx' }) do count_due(ix, W) end
count_due('cidx', COARSE)

local waiting = tonumber(redis.call('GET', P .. 'waiting')) or 0
if due > waiting then due = waiting end
-- protocol 2's waiting tasks not adopted yet (include/legacy.lua): its due sets and grouped tasks, counted as they stand
for _, key in ipairs({ P .. 'due', P .. 'due:p1', P .. 'due:p2', P .. 'due:g' }) do
  local legacy = redis.call('ZCARD', key)
  if legacy > 0 then
    local legacy_due = redis.call('ZCOUNT', key, '-inf', now)
    waiting, due = waiting + legacy, due + legacy_due
    local head = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    local at = math.floor(tonumber(head[2]))
    if legacy_due > 0 and (oldest < 0 or at < oldest) then oldest = at end
  end
end

local inflight = 0
local most = tonumber(ARGV[1])
local leases = redis.call('ZRANGE', P .. 'lease', 0, most - 1)
for _, name in ipairs(leases) do inflight = inflight + redis.call('HLEN', P .. 'f:' .. name) end
if #leases == most then
  inflight = inflight + math.floor((redis.call('ZCARD', P .. 'lease') - most) * inflight / most + 0.5)
end

-- tasks protocol 2 holds in flight on a shard upgraded in place (include/legacy.lua)
inflight = inflight + redis.call('ZCARD', P .. 'inflight')

local paused = redis.call('HGET', P .. 'paused', 'at') and 1 or 0
return { now, waiting - due, due, inflight, redis.call('ZCARD', P .. 'dead'), oldest, paused }
