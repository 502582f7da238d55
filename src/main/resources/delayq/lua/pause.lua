-- pause: record that a queue is paused (or no longer), with when and by whom, in its meta hash, and
-- hand out the epoch that orders this call against every other pause or resume of the queue.
-- The meta hash is the queue's record of the pause (what the console, the CLI and the client
-- show); claims read the per-shard flags that shard_pause writes, because a claim touches only its
-- shard's Cluster slot and the meta hash lives in another. Each call takes a new epoch here and passes
-- it to every shard_pause call; a shard keeps the state of the highest epoch it has seen, so two
-- operators pausing and resuming at once end with every shard in the state of the later call.
-- Pausing: step 'pause' (record, epoch), then every shard. Resuming: step 'resume' (epoch; the record
-- is marked `resuming` but kept), then every shard, then step 'resumed' with that epoch, which clears
-- the record only if no later call took an epoch meanwhile. Re-running an interrupted call finishes it.
-- KEYS[1]: dq:{queue}:meta (fields paused = server ms, pausedBy, pauseEpoch, resuming = epoch of a resume under way)
-- ARGV[1]: 'pause' | 'resume' | 'resumed' ('1' and '0', the 0.x forms, are 'pause' and a one-step resume)
-- ARGV[2]: who (free text for the record, e.g. "console:alice")
-- ARGV[3]: for 'resumed': the epoch its 'resume' step answered
-- Returns: {paused before (0/1), paused at (server ms, -1 when not paused after this call), by, epoch}
--   (for 'resumed' the epoch is the queue's current one: larger than ARGV[3] when a later call came)
--@include record_hash.lua
--@include shard_keys.lua

local meta = KEYS[1]
local step = ARGV[1]
local before = redis.call('HGET', meta, 'paused')

local function record()
  local at = redis.call('HGET', meta, 'paused')
  return { before and 1 or 0, at and tonumber(at) or -1, redis.call('HGET', meta, 'pausedBy') or '',
           tonumber(redis.call('HGET', meta, 'pauseEpoch') or '0') }
end

if step == 'resumed' then
  if redis.call('HGET', meta, 'pauseEpoch') == ARGV[3] then
    redis.call('HDEL', meta, 'paused', 'pausedBy', 'resuming')
  end
  return record()
end

-- epochs grow by one per call, and never fall below the server clock: a meta hash written anew
-- (a queue deleted and re-created) still outranks the epochs its shards kept
local now = server_now()
local epoch = math.max(tonumber(redis.call('HGET', meta, 'pauseEpoch') or '0') + 1, now)
redis.call('HSET', meta, 'pauseEpoch', string.format('%d', epoch))

if step == 'pause' or step == '1' then
  -- a pause keeps the first pause's time and author, unless it overtakes a resume under way
  if not before or redis.call('HEXISTS', meta, 'resuming') == 1 then
    redis.call('HSET', meta, 'paused', now, 'pausedBy', ARGV[2])
    redis.call('HDEL', meta, 'resuming')
  end
elseif step == 'resume' then
  if before then redis.call('HSET', meta, 'resuming', string.format('%d', epoch)) end
else
  redis.call('HDEL', meta, 'paused', 'pausedBy', 'resuming')
end
return record()
