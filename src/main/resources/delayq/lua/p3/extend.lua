-- extend (protocol 3): move an in-flight bucket's lease on. The in-flight name stays, so acks and retries already
-- on their way still find their bucket; a lease is never shortened (GT), and a bucket no longer held (acked,
-- reclaimed) is not revived (XX).
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: the in-flight name, ARGV[2]: the lease from now (ms, server clock)
-- Returns: the lease's expiry after the call, or -1 when the bucket is no longer held
local P = KEYS[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', P .. 'lease', 'XX', 'GT', now + tonumber(ARGV[2]), ARGV[1])
local score = redis.call('ZSCORE', P .. 'lease', ARGV[1])
if not score then return -1 end
return tonumber(score)
