-- reshard_finish: end the migration the caller drove, once no task waits on a shard it no longer belongs
-- to. The mover then stamps every shard with the new epoch (include/layout.lua).
-- KEYS[1]: dq:{queue}:meta
-- ARGV[1]: the epoch of the migration (as reshard_begin answered), ARGV[2]: tasks moved in all
-- Returns: the new epoch, or an error when the meta hash holds another migration or none
local m = redis.call('HMGET', KEYS[1], 'layout', 'migration')
if not m[2] or tonumber(m[1]) ~= tonumber(ARGV[1]) then
  return redis.error_reply('RESHARD no migration of epoch ' .. ARGV[1] .. ' is running (meta: layout ' ..
    tostring(m[1]) .. ', migration ' .. tostring(m[2] or 'none') .. ')')
end
local epoch = tonumber(m[1]) + 1
redis.call('HDEL', KEYS[1], 'migration', 'left')
redis.call('HSET', KEYS[1], 'layout', epoch, 'moved', ARGV[2])
return epoch
