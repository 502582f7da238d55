-- meta: record the queue's shard count and protocol version on first use, and answer what is
-- recorded, so that a producer or worker configured with another shard count fails loudly
-- instead of writing where no worker looks.
-- KEYS[1]: dq:{queue}:meta
-- ARGV[1]: shard count, ARGV[2]: protocol version (2: records in bucketed hashes, compact record form)
-- Returns: {shards, protocol, layout epoch, layouts history ("4,16"; empty: never resharded),
--          migration ("<from> <to>" while one runs, else empty), moved, left} as recorded (after this call).
--          Readers that know only the first two (older clients) ignore the rest.
if redis.call('HSETNX', KEYS[1], 'shards', ARGV[1]) == 1 then
  redis.call('HSET', KEYS[1], 'protocol', ARGV[2])
end
local m = redis.call('HMGET', KEYS[1], 'shards', 'protocol', 'layout', 'layouts', 'migration', 'moved', 'left')
return { tonumber(m[1]), tonumber(m[2]) or 0, tonumber(m[3]) or 0, m[4] or '', m[5] or '', tonumber(m[6]) or 0, tonumber(m[7]) or -1 }
