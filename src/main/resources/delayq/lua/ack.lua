-- ack: finish tasks that were handled, many in one call. A task is acked only when its fencing
-- token still matches: a worker whose lease expired (and whose task was re-delivered) is refused.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1]: n; ARGV[2 + 2k], ARGV[3 + 2k]: id, token
-- Returns: array of n integers, 1 = acked, 0 = stale (not in flight under that token)
--@include shard_keys.lua
--@include groups.lua
--@include common.lua

local n = tonumber(ARGV[1])
local done, out = {}, {}
if n == 0 then return out end
local ids = {}
for k = 0, n - 1 do ids[k + 1] = ARGV[2 + 2 * k] end
-- one ZMSCORE for the whole batch instead of a ZSCORE per task (Redis >= 6.2)
local scores = redis.call('ZMSCORE', INFLIGHT, unpack(ids))
for k = 0, n - 1 do
  local id, token = ids[k + 1], tonumber(ARGV[3 + 2 * k])
  local score = scores[k + 1]
  if score and tonumber(score) == token then
    done[#done + 1] = id
    out[#out + 1] = 1
  else
    out[#out + 1] = 0
  end
end
if #done > 0 then
  redis.call('ZREM', INFLIGHT, unpack(done))
  forget(done)
end
return out
