-- progress: keep what a running handler reported about how far it has got, with its in-flight task. Written only
-- under the claim's current fencing token: a worker whose lease was lost (and whose task went to another claim)
-- is refused, so it never overwrites the progress of the claim that holds the task now.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1]: id, ARGV[2]: token, ARGV[3]: percent (a number from 0 to 100), ARGV[4]: note (at most 200 bytes)
-- Writes PROGRESS[id] = "<server ms>|<percent>|<note>".
-- Returns: 1 = written, 0 = stale (not in flight under that token); an error for a percent or note out of bounds
--@include record_hash.lua
--@include shard_keys.lua
--@include progress.lua

local id, token = ARGV[1], tonumber(ARGV[2])
local value, refused = progress_value(ARGV[3], ARGV[4] or '')
if refused then return refused end
local score = redis.call('ZSCORE', INFLIGHT, id)
if not score or tonumber(score) ~= token then
  return 0
end
redis.call('HSET', PROGRESS, id, value)
return 1
