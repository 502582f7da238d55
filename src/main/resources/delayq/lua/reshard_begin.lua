-- reshard_begin: start growing a queue from its current shard count to a larger one, or answer the
-- migration already running to that count (a mover resuming after a crash). Only the meta hash changes
-- here; the mover then stamps every shard of the new layout (include/layout.lua) before moving a task.
-- KEYS[1]: dq:{queue}:meta
-- ARGV[1]: the new shard count
-- Returns: {"started" | "resumed" | "current", epoch, from, to} ("current": the queue already has that count and
--   no migration runs; the mover only rewrites the stamps, in case a crash came between the end and them), or an
--   error naming the rule: a shrink, a queue with no meta, a second migration to another count.
local to = tonumber(ARGV[1])
local m = redis.call('HMGET', KEYS[1], 'shards', 'layout', 'layouts', 'migration')
local shards, epoch = tonumber(m[1]), tonumber(m[2]) or 0
if shards == nil then
  return redis.error_reply('RESHARD the queue has no meta hash ' .. KEYS[1] .. ': nothing to reshard (a queue is created by its first client or worker)')
end
if m[4] then
  local from, target = string.match(m[4], '^(%d+) (%d+)$')
  if tonumber(target) == to then return { 'resumed', epoch, tonumber(from), to } end
  return redis.error_reply('RESHARD a migration from ' .. from .. ' to ' .. target .. ' shards is running: ' ..
    'finish it first (delayq reshard <queue> --to ' .. target .. ' resumes it), then grow again')
end
if to == shards then
  return { 'current', epoch, shards, to }
end
if to < shards then
  return redis.error_reply('RESHARD shards: shrinking is not supported (' .. shards .. ' -> ' .. to ..
    '): keys of the dropped shards would be outside every worker range; create a new queue and drain the old one')
end
local history = m[3] or tostring(shards)
epoch = epoch + 1
redis.call('HSET', KEYS[1], 'shards', to, 'layout', epoch, 'layouts', history .. ',' .. to,
  'migration', shards .. ' ' .. to, 'moved', 0, 'left', -1)
return { 'started', epoch, shards, to }
