-- "Now" is always the Redis server clock, never a client's, so clock skew cannot fire tasks early.
local function server_now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Where a task is: 'due' (with its priority level), 'inflight', 'dead', or nil.
-- Every task except one written by a bare ZADD into DUE[1] has a record, so the common
-- "new id" case costs two lookups instead of five.
local function locate(id)
  local score
  if redis.call('HEXISTS', TASKS, id) == 0 then
    score = redis.call('ZSCORE', DUE[1], id)
    if score then return 'due', 0, tonumber(score) end
    return nil
  end
  for level = 3, 1, -1 do
    score = redis.call('ZSCORE', DUE[level], id)
    if score then return 'due', level - 1, tonumber(score) end
  end
  score = redis.call('ZSCORE', INFLIGHT, id)
  if score then return 'inflight', nil, tonumber(score) end
  score = redis.call('ZSCORE', DEAD, id)
  if score then return 'dead', nil, tonumber(score) end
  return nil
end

-- Earliest due time over all priority levels, or nil when nothing waits.
local function earliest_due()
  local best
  for level = 1, 3 do
    local first = redis.call('ZRANGE', DUE[level], 0, 0, 'WITHSCORES')
    if first[2] then
      local s = tonumber(first[2])
      if best == nil or s < best then best = s end
    end
  end
  return best
end

-- Wake a sleeping worker when a task becomes due earlier than anything it already knows of.
local function mark(due)
  redis.call('ZADD', MARKER, 'LT', due, 'next')
end

-- Priority level stored in the record; records that are absent or not JSON count as level 0.
local function priority_of(record)
  if not record or record == '' then return 0 end
  local ok, decoded = pcall(cjson.decode, record)
  if not ok or type(decoded) ~= 'table' then return 0 end
  local p = tonumber(decoded['priority'])
  if p == nil or p < 0 then return 0 end
  if p > 2 then return 2 end
  return math.floor(p)
end

local function forget(ids)
  if #ids == 0 then return end
  redis.call('HDEL', TASKS, unpack(ids))
  redis.call('HDEL', ATTEMPTS, unpack(ids))
  redis.call('HDEL', ERRORS, unpack(ids))
end
