-- pause: record that a queue is paused (or no longer), with when and by whom, in its meta hash.
-- The meta hash is the queue's record of the pause (what the console, the CLI and the client
-- show); claims read the per-shard flags that shard_pause writes, because a claim touches only its
-- shard's Cluster slot and the meta hash lives in another. Callers write the meta first when pausing
-- and last when resuming, then every shard; re-running an interrupted pause or resume finishes it.
-- KEYS[1]: dq:{queue}:meta
-- ARGV[1]: '1' pause, '0' resume; ARGV[2]: who (free text for the record, e.g. "console:alice")
-- Returns: {paused before (0/1), paused at (server ms, -1 when not paused after this call), by}
--@include common.lua

local before = redis.call('HGET', KEYS[1], 'paused')
if ARGV[1] == '1' then
  if not before then
    redis.call('HSET', KEYS[1], 'paused', server_now(), 'pausedBy', ARGV[2])
  end
  return { before and 1 or 0, tonumber(redis.call('HGET', KEYS[1], 'paused')), redis.call('HGET', KEYS[1], 'pausedBy') or '' }
end
redis.call('HDEL', KEYS[1], 'paused', 'pausedBy')
return { before and 1 or 0, -1, '' }
