-- progress: keep what a running handler reported about how far it has got, with its in-flight task. Written only
-- under the claim's current fencing token: a worker whose lease was lost (and whose task went to another claim)
-- is refused, so it never overwrites the progress of the claim that holds the task now.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1]: id, ARGV[2]: token, ARGV[3]: percent (a number from 0 to 100), ARGV[4]: note (at most 200 bytes)
-- Writes PROGRESS[id] = "<server ms>|<percent>|<note>".
-- Returns: 1 = written, 0 = stale (not in flight under that token); an error for a percent or note out of bounds
--@include shard_keys.lua

local id, token, percent, note = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4] or ''
if not percent or percent ~= percent or percent < 0 or percent > 100 then
  return redis.error_reply('ERR progress percent: must be a number from 0 to 100, was ' .. tostring(ARGV[3]))
end
if #note > 200 then
  return redis.error_reply('ERR progress note: must be at most 200 bytes of UTF-8, was ' .. #note .. ' bytes')
end
local score = redis.call('ZSCORE', INFLIGHT, id)
if not score or tonumber(score) ~= token then
  return 0
end
redis.call('HSET', PROGRESS, id, server_now() .. '|' .. ARGV[3] .. '|' .. note)
return 1
