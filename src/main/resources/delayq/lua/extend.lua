-- extend: keep a long-running task's lease alive. Refused when the token is no longer current.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- KEYS[11]: this call's request key, dq:{queue:shard}:extend:<request id>. An extension that Lettuce
--           re-sends after a reconnect answers the tokens of its first run: otherwise it would see
--           its own renewal as a lost lease, and the worker would ack with a stale token.
-- ARGV[1]: n; ARGV[2 + 3k ..]: id, token, lease ms from server now
-- Returns: array of n new tokens (0 = stale: the lease was lost)
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua

local replay = redis.call('GET', KEYS[11])
if replay then
  return cjson.decode(replay)
end

local n = tonumber(ARGV[1])
local now = server_now()
local out = {}
local scores = {}
if n > 0 then
  local ids = {}
  for k = 0, n - 1 do ids[k + 1] = ARGV[2 + 3 * k] end
  scores = redis.call('ZMSCORE', INFLIGHT, unpack(ids))
end
for k = 0, n - 1 do
  local id, token, lease = ARGV[2 + 3 * k], tonumber(ARGV[3 + 3 * k]), tonumber(ARGV[4 + 3 * k])
  local score = scores[k + 1]
  if score and tonumber(score) == token then
    -- tokens only grow, so an old token can never become current again
    local renewed = math.max(token, now + lease)
    if renewed ~= token then redis.call('ZADD', INFLIGHT, renewed, id) end
    out[#out + 1] = renewed
  else
    out[#out + 1] = 0
  end
end
if n > 0 then
  redis.call('SET', KEYS[11], cjson.encode(out), 'PX', tonumber(ARGV[4]))
end
return out
