-- dead_purge: delete dead tasks and their records for good.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1..n]: ids
-- Returns: the number purged (ids not in the dead-letter set are skipped)
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua

local purged = {}
for _, id in ipairs(ARGV) do
  if redis.call('ZREM', DEAD, id) == 1 then purged[#purged + 1] = id end
end
forget(purged)
return #purged
