-- group_permits: the fleet-wide count of a capped group's running tasks (at most N running per group). A claim
-- cannot count them itself: a group's tasks are on every shard, and each shard is its own hash slot. So a worker
-- takes permits here, in the queue's slot, before a claim may hand out that group's tasks (claim.lua ARGV[11]),
-- and gives each back when its task settles. A permit expires unless extended: a worker killed while it held
-- permits frees them when they run out, as its leases do (the worker keeps each permit a margin beyond its lease).
-- KEYS[1..k]: dq:{q}:running:<group>, one per group below (ZSET permit id -> expiry, ms, Redis clock)
-- ARGV[1]: how long a permit taken here is held, ms (the lease plus the margin), then for each key, in order:
--   cap (the group's maximum running), r and r permit ids given back, e and e pairs (permit id, expiry ms)
--   extended to that expiry (never shortened; one given back or expired stays gone, so an extension that crosses
--   its task's settle on the wire cannot bring a permit back),
--   a and a fresh permit ids wanted (unique, from the caller: a re-sent call finds the ones it took and takes
--   no more)
-- Returns: per key, the ids of those wanted that the caller holds now, at most cap minus the running count
--@include record_hash.lua
--@include shard_keys.lua

local now = server_now()
local hold = tonumber(ARGV[1])
local out = {}
local at = 2
for k = 1, #KEYS do
  local key = KEYS[k]
  local cap = tonumber(ARGV[at])
  local r = tonumber(ARGV[at + 1])
  at = at + 2
  -- permits of killed workers: gone once expired (at most cap of them plus those put back by extensions)
  local expired = redis.call('ZRANGEBYSCORE', key, '-inf', now)
  if #expired > 0 then redis.call('ZREM', key, unpack(expired)) end
  if r > 0 then redis.call('ZREM', key, unpack(ARGV, at, at + r - 1)) end
  at = at + r
  local e = tonumber(ARGV[at])
  at = at + 1
  if e > 0 then
    local pairs_ = {}
    for i = 0, e - 1 do
      pairs_[#pairs_ + 1] = ARGV[at + 2 * i + 1]
      pairs_[#pairs_ + 1] = ARGV[at + 2 * i]
    end
    redis.call('ZADD', key, 'XX', 'GT', unpack(pairs_))
  end
  at = at + 2 * e
  local a = tonumber(ARGV[at])
  at = at + 1
  local granted = {}
  if a > 0 then
    local held = redis.call('ZMSCORE', key, unpack(ARGV, at, at + a - 1))
    local free = cap - redis.call('ZCARD', key)
    local add = {}
    for i = 0, a - 1 do
      local id = ARGV[at + i]
      if held[i + 1] then
        granted[#granted + 1] = id
      elseif free > 0 then
        free = free - 1
        granted[#granted + 1] = id
        add[#add + 1] = now + hold
        add[#add + 1] = id
      end
    end
    if #add > 0 then redis.call('ZADD', key, unpack(add)) end
  end
  at = at + a
  out[k] = granted
end
return out
