-- What a call by id reads first about its shard: whether it may hold protocol 2's tasks (include/legacy.lua), dedup
-- windows (include/dedup.lua) or a layout stamp (include/layout.lua). Almost every shard holds none of them, and its
-- calls skip what each would cost: the enqueues define the legacy adoption chain only where legacy_seen is true.
-- Needs buckets.lua and include/dedup.lua before it (and include/layout.lua, in a script that calls epoch_problem).

-- whether the shard holds any of protocol 2's keys (nil: not read yet; include/legacy.lua's adopt_id reads it then)
local legacy_seen
local shard_plain = false

-- protocol 2's keys a protocol-3 shard may hold (its waiting sets, and P..'legacy' while an upgrade in place has not
-- finished), then the caller's keys in `...`
local function legacy_keys(P, ...)
  local keys = { P .. 'legacy', ... }
  for _, k in ipairs(LEGACY_WAITING) do keys[#keys + 1] = P .. k end
  return keys
end

-- An enqueue's first read: whether the shard holds dedup windows (returned), anything of protocol 2 (legacy_seen) or
-- a layout stamp (shard_plain false: the caller's epoch is checked). One EXISTS on a shard with none of them.
local function read_shard_flags(P)
  if redis.call('EXISTS', unpack(legacy_keys(P, DEDUP, P .. 'layout'))) == 0 then
    legacy_seen = false
    shard_plain = true
    return false
  end
  legacy_seen = redis.call('EXISTS', unpack(legacy_keys(P))) > 0
  return redis.call('ZCARD', DEDUP) > 0
end

-- the error reply of a call by a caller of another layout epoch, or nil (a shard never resharded has no stamp:
-- epoch 0, which a plain shard proves without reading it)
local function epoch_problem(caller_epoch)
  if shard_plain and (tonumber(caller_epoch) or 0) == 0 then return nil end
  return layout_problem(caller_epoch)
end

-- a task protocol 2 holds in flight on a shard upgraded in place: its lease expiry, or nil (nil too once the shard
-- holds nothing of protocol 2: asked after read_shard_flags or adopt_id, which looked)
local function legacy_running(P, id)
  if not legacy_seen then return nil end
  return tonumber(redis.call('ZSCORE', P .. 'inflight', id))
end
