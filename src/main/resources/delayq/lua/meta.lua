-- meta: record the queue's shard count and protocol version on first use, and answer what is
-- recorded, so that a producer or worker configured with another shard count fails loudly
-- instead of writing where no worker looks.
-- KEYS[1]: dq:{queue}:meta
-- ARGV[1]: shard count, ARGV[2]: protocol version (2: records in bucketed hashes, compact record form)
-- Returns: {shards, protocol} as recorded (after this call)
if redis.call('HSETNX', KEYS[1], 'shards', ARGV[1]) == 1 then
  redis.call('HSET', KEYS[1], 'protocol', ARGV[2])
end
return { tonumber(redis.call('HGET', KEYS[1], 'shards')), tonumber(redis.call('HGET', KEYS[1], 'protocol')) or 0 }
