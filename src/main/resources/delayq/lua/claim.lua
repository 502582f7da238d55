-- claim: move up to `batch` due tasks, highest priority level first, into the in-flight set
-- under a lease, counting one attempt each. Nothing that is not yet due is ever handed out.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- KEYS[11]: this claim's request key, dq:{queue:shard}:claim:<request id>. A claim that Lettuce
--           re-sends after a reconnect finds it and answers the same tasks again instead of
--           stranding the first batch in flight until its lease expires.
-- KEYS[12]: dq:{queue:shard}:paused, optional: while its field `at` is set the claim hands out nothing and
--           answers next due -1, so that workers sleep until resumed (shard_pause.lua wakes them)
-- ARGV[1]: batch (maximum tasks), ARGV[2]: lease ms,
-- ARGV[3]: rate limit for this shard in tasks per second (0 = none), ARGV[4]: burst
-- Returns: {now, next_due (-1 when nothing waits), token, n, then per task:
--           id, due time, attempt, record (nil for a task written by a bare ZADD)}
--@include shard_keys.lua
--@include common.lua

local batch = tonumber(ARGV[1])
local lease = tonumber(ARGV[2])
local rate = tonumber(ARGV[3])
local burst = tonumber(ARGV[4])
local now = server_now()

local function answer(token, ids, dues)
  local out = { now, earliest_due() or -1, token, 0 }
  if #ids == 0 then return out end
  -- batched reads: one ZMSCORE and one HMGET for the batch, then the record of each task
  local scores = redis.call('ZMSCORE', INFLIGHT, unpack(ids))
  local attempts = redis.call('HMGET', ATTEMPTS, unpack(ids))
  local n = 0
  for i = 1, #ids do
    local id = ids[i]
    local score = scores[i]
    if score and tonumber(score) == token then
      n = n + 1
      out[#out + 1] = id
      out[#out + 1] = dues[i]
      out[#out + 1] = tonumber(attempts[i])
      out[#out + 1] = redis.call('HGET', record_key(id), id)
    end
  end
  out[4] = n
  return out
end

local replay = redis.call('GET', KEYS[11])
if replay then
  local saved = cjson.decode(replay)
  return answer(saved[1], saved[2], saved[3])
end

if KEYS[12] and redis.call('HGET', KEYS[12], 'at') then
  return { now, -1, 0, 0 }
end

local allowed = batch
local tokens, bucket_at
if rate > 0 then
  local bucket = redis.call('HMGET', RATE, 'tokens', 'at')
  tokens = tonumber(bucket[1]) or burst
  bucket_at = tonumber(bucket[2]) or now
  tokens = math.min(burst, tokens + math.max(0, now - bucket_at) * rate / 1000)
  allowed = math.min(batch, math.floor(tokens))
end

local token = now + lease
local ids, dues = {}, {}
local levels = active_levels()
for _, level in ipairs(levels) do
  local room = allowed - #ids
  if room <= 0 then break end
  local found = redis.call('ZRANGEBYSCORE', DUE[level], '-inf', now, 'WITHSCORES', 'LIMIT', 0, room)
  if #found > 0 then
    local members, pairs_ = {}, {}
    for i = 1, #found, 2 do
      members[#members + 1] = found[i]
      ids[#ids + 1] = found[i]
      dues[#dues + 1] = tonumber(found[i + 1])
      pairs_[#pairs_ + 1] = token
      pairs_[#pairs_ + 1] = found[i]
    end
    redis.call('ZREM', DUE[level], unpack(members))
    redis.call('ZADD', INFLIGHT, unpack(pairs_))
  end
end

local out = { now, -1, token, #ids }
if #ids > 0 then
  -- attempts of the whole batch: one HMGET and one HSET instead of a HINCRBY per task (a lone
  -- task, the usual claim at a trickle, takes one HINCRBY: one call less)
  local lone = #ids == 1
  local before = lone and {} or redis.call('HMGET', ATTEMPTS, unpack(ids))
  local counted = {}
  for i = 1, #ids do
    local id = ids[i]
    local key = record_key(id)
    local record = redis.call('HGET', key, id)
    if not record then
      -- a bare ZADD task: give it an empty record so that every task in flight or dead has one
      redis.call('HSET', key, id, '{}')
    end
    local attempt
    if lone then
      attempt = redis.call('HINCRBY', ATTEMPTS, id, 1)
    else
      attempt = (tonumber(before[i]) or 0) + 1
      counted[#counted + 1] = id
      counted[#counted + 1] = attempt
    end
    out[#out + 1] = id
    out[#out + 1] = dues[i]
    out[#out + 1] = attempt
    out[#out + 1] = record
  end
  if not lone then
    redis.call('HSET', ATTEMPTS, unpack(counted))
  end
end

if rate > 0 then
  tokens = tokens - #ids
  redis.call('HSET', RATE, 'tokens', tokens, 'at', now)
end
if #ids > 0 then
  redis.call('SET', KEYS[11], cjson.encode({ token, ids, dues }), 'PX', lease)
end

local next_due = earliest_due(levels)
if next_due and rate > 0 and #ids >= allowed and allowed < batch and next_due <= now then
  -- rate limited: the next claim can succeed once a whole token has refilled
  next_due = now + math.ceil((1 - (tokens - math.floor(tokens))) * 1000 / rate)
end
out[2] = next_due or -1
return out
