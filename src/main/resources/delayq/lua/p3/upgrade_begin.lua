-- upgrade_begin (protocol 3): records protocol 3 in a queue's meta, and the server time it did (upgradedAt: a bulk job
-- begun on protocol 2 before it is stopped, not resumed in buckets), unless a reshard runs. The check and the write
-- are one call, so no reshard begins between them: a grow and an upgrade in place never overlap from this side, and
-- reshard_begin answers a queue recorded as protocol 3 with protocol 3's mover (docs/protocol3.md, "Resharding").
-- KEYS[1]: dq:{queue}:meta
-- Returns: the time protocol 3 was recorded at (ms; an earlier run's when the meta records it already, 0 when a queue
--          created on protocol 3 has none), or an error 'RESHARD …' naming the migration that runs on a queue of
--          protocol 2
local m = redis.call('HMGET', KEYS[1], 'migration', 'protocol', 'upgradedAt')
-- switched already (an upgrade run again to finish its shards, during a grow too: protocol 3's mover adopts as it goes)
if m[2] == '3' then return tonumber(m[3]) or 0 end
if m[1] and m[1] ~= '' then
  return redis.error_reply('RESHARD the queue is being resharded (' .. m[1] .. ' shards): upgrade it once the reshard is done')
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], 'protocol', 3, 'upgradedAt', now)
return now
