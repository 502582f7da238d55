-- The shard's layout stamp (docs/protocol.md, "Layouts and resharding"): "<epoch> <shards> <from>" in the
-- field `stamp` of the HASH dq:{q:i}:layout (a hash, so that reading it takes HGET, which every delayq ACL
-- user has, and not GET, which would let the console's user past the first command of a claim), written by the mover in every shard of a new layout; from = 0 outside a migration.
-- No stamp = epoch 0 (a queue never resharded). The id-addressed scripts (enqueue, cancel, reschedule,
-- inspect) take the caller's epoch and refuse with "LAYOUT ..." when it is not the shard's, so a client
-- of an older layout re-reads dq:{q}:meta instead of writing where the id no longer lives. The stamp
-- and the shard's `moving` hash share the shard's prefix 'dq:{q:i}:', read from KEYS[1]: protocol 2's first shard
-- key (include/shard_keys.lua) starts with it, protocol 3's is it (p3/include/buckets.lua); same hash tag, same slot.
local SHARD_PREFIX = string.match(KEYS[1], '^dq:{[^}]*}:')
local LAYOUT_KEY = SHARD_PREFIX .. 'layout'
local MOVING_KEY = SHARD_PREFIX .. 'moving'      -- HASH id -> state of tasks on their way to another shard
local MIGRATING = false

-- nil when the caller's epoch is the shard's, else the error reply to return.
local function layout_problem(caller_epoch)
  local stamp = redis.call('HGET', LAYOUT_KEY, 'stamp')
  local epoch, shards, from = 0, 0, 0
  if stamp then
    local e, n, f = string.match(stamp, '^(%d+) (%d+) (%d+)$')
    epoch, shards, from = tonumber(e) or 0, tonumber(n) or 0, tonumber(f) or 0
  end
  MIGRATING = from > 0
  if (tonumber(caller_epoch) or 0) == epoch then return nil end
  return redis.error_reply('LAYOUT ' .. epoch .. ' ' .. shards .. ' ' .. from ..
    ' the queue\'s shard layout is epoch ' .. epoch .. ' (' .. shards .. ' shards' ..
    (from > 0 and (', moving from ' .. from) or '') .. '), the caller\'s is ' .. (tonumber(caller_epoch) or 0) ..
    ': re-read the queue\'s meta hash and retry (docs/protocol.md, Layouts and resharding)')
end

-- An id the mover has taken out of this shard and not yet delivered: the caller retries shortly.
local function is_moving(id)
  return MIGRATING and redis.call('HEXISTS', MOVING_KEY, id) == 1
end
