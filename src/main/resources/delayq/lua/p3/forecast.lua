-- forecast (protocol 3): how many waiting tasks of one shard fall due within each coming window, and when the next
-- one is due, in protocol 2's answer (forecast.lua). A window counts the tasks due in (now, now + length]: a bucket
-- wholly inside a window counts with one HLEN; only the buckets that now or a window's end cuts through, and an
-- index's earliest ones (for the next due time), are read task by task. At most `most` buckets are read a call;
-- past that, the buckets left unread count as many tasks as the read ones held on average.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: most buckets read; ARGV[2..n+1]: the windows' lengths in ms, ascending (checked by the caller,
--          io.delayq.backlog.ForecastReader)
-- Returns: { now, due time of the next task not yet due (-1 when none), tasks due within ARGV[2], ..., ARGV[n+1] }
--@include buckets.lua

local P = KEYS[1]
local now = server_now()
local budget = tonumber(ARGV[1])
local n = #ARGV - 1
local upto, within = {}, {}
for i = 1, n do
  upto[i] = now + tonumber(ARGV[i + 1])
  within[i] = 0
end
local next_due = -1
local read, held = 0, 0

-- nothing waits on the shard: answered after one EXISTS (an idle worker's forecast gauges visit every shard it owns)
if not holds_any(P, {}) then
  local reply = { now, -1 }
  for i = 1, n do reply[#reply + 1] = 0 end
  return reply
end

local function look(ix, width)
  -- the buckets whose span [start, start + width) reaches past now and that start by the longest window's end
  local from = now - width + 2
  local listed = budget > 0 and redis.call('ZRANGEBYSCORE', P .. ix, from, upto[n], 'WITHSCORES', 'LIMIT', 0, budget) or {}
  local read_by = {}
  for i = 1, n do read_by[i] = 0 end
  for j = 1, #listed, 2 do
    local name, start = listed[j], tonumber(listed[j + 1])
    local key = P .. 'b:' .. name
    local dues
    local function dues_of()
      if dues == nil then
        dues = {}
        for _, value in ipairs(redis.call('HVALS', key)) do dues[#dues + 1] = decode(name, value) end
      end
      return dues
    end
    if next_due < 0 or start < next_due then
      for _, at in ipairs(dues_of()) do
        if at > now and (next_due < 0 or at < next_due) then next_due = at end
      end
    end
    local size
    for i = 1, n do
      if start <= upto[i] then read_by[i] = read_by[i] + 1 end
      if start > now and start + width - 1 <= upto[i] then
        size = size or (dues and #dues) or redis.call('HLEN', key)
        within[i] = within[i] + size
      elseif start <= upto[i] then
        for _, at in ipairs(dues_of()) do
          if at > now and at <= upto[i] then within[i] = within[i] + 1 end
        end
      end
    end
    read = read + 1
    held = held + (size or (dues and #dues) or redis.call('HLEN', key))
  end
  budget = budget - #listed / 2
  if budget == 0 then
    for i = 1, n do
      local unread = redis.call('ZCOUNT', P .. ix, from, upto[i]) - read_by[i]
      if unread > 0 then
        within[i] = within[i] + (read == 0 and unread * CAP or math.floor(unread * held / read + 0.5))
      end
    end
  end
end

for _, ix in ipairs({ 'idx2', 'idx1', 'idx', 'gidx' }) do look(ix, W) end
look('cidx', COARSE)
-- nothing due within the longest window: the next due time is in the first buckets (by start) after it, in each index
if next_due < 0 then
  for _, ix in ipairs(WAITING_INDEXES) do
    local first = redis.call('ZRANGEBYSCORE', P .. ix, '(' .. upto[n], '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
    if first[2] then
      for _, name in ipairs(redis.call('ZRANGEBYSCORE', P .. ix, first[2], first[2])) do
        for _, value in ipairs(redis.call('HVALS', P .. 'b:' .. name)) do
          local at = decode(name, value)
          if next_due < 0 or at < next_due then next_due = at end
        end
      end
    end
  end
end
-- protocol 2's waiting tasks not adopted yet (include/legacy.lua): its due sets and grouped tasks, counted as they stand
for _, key in ipairs({ P .. 'due', P .. 'due:p1', P .. 'due:p2', P .. 'due:g' }) do
  if redis.call('EXISTS', key) == 1 then
    local after = '(' .. now
    local head = redis.call('ZRANGE', key, after, '+inf', 'BYSCORE', 'LIMIT', 0, 1, 'WITHSCORES')
    if head[2] then
      local at = math.floor(tonumber(head[2]))
      if next_due < 0 or at < next_due then next_due = at end
      for i = 1, n do within[i] = within[i] + redis.call('ZCOUNT', key, after, upto[i]) end
    end
  end
end

local reply = { now, next_due }
for i = 1, n do reply[#reply + 1] = within[i] end
return reply
