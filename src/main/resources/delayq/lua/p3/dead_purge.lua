-- dead_purge (protocol 3): delete dead letters for good; their ids are free again.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1..n]: ids
-- Returns: the number purged (ids not among the dead letters are skipped)
--@include buckets.lua
--@include crc32.lua
--@include dedup.lua
--@include dead.lua

local P = KEYS[1]
local dead = {}
for _, id in ipairs(ARGV) do
  if redis.call('ZSCORE', P .. 'dead', id) then dead[#dead + 1] = id end
end
if #dead > 0 then forget_dead(P, dead) end
return #dead
