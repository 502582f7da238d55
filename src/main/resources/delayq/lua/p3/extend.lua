-- extend (protocol 3): move an in-flight bucket's lease on. The in-flight name stays, so acks and retries already
-- on their way still find their bucket; a lease is never shortened (GT), and a bucket no longer held (acked,
-- reclaimed) is not revived (XX).
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: the in-flight name, ARGV[2]: the new expiry (ms)
-- Returns: the lease's expiry after the call, or -1 when the bucket is no longer held
local P = KEYS[1]
redis.call('ZADD', P .. 'lease', 'XX', 'GT', tonumber(ARGV[2]), ARGV[1])
local score = redis.call('ZSCORE', P .. 'lease', ARGV[1])
if not score then return -1 end
return tonumber(score)
