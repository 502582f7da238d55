-- progress (protocol 3): keep what a running handler reported about how far it has got, with its in-flight task,
-- in protocol 2's key and value (P..'progress', include/progress.lua). Written only while the task is in the
-- in-flight bucket its claim named: that name is the fence (a bucket reclaimed after its lease expired was renamed
-- away, and a task retried or acked left it), so a stale worker never overwrites a newer claim's progress.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: in-flight name, ARGV[2]: id, ARGV[3]: percent (a number from 0 to 100), ARGV[4]: note (at most 200 bytes)
-- Returns: 1 = written, 0 = stale (not in that bucket any more); an error for a percent or note out of bounds
--@include buckets.lua
--@include progress.lua

local P = KEYS[1]
local value, refused = progress_value(ARGV[3], ARGV[4] or '')
if refused then return refused end
if redis.call('HEXISTS', P .. 'f:' .. ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('HSET', P .. 'progress', ARGV[2], value)
return 1
