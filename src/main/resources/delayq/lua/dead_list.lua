-- dead_list: a page of the dead-letter set, oldest first.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1]: offset, ARGV[2]: limit
-- Returns: {total, then per task: id, died at, attempts, last error, record}
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua

local page = redis.call('ZRANGE', DEAD, tonumber(ARGV[1]), tonumber(ARGV[1]) + tonumber(ARGV[2]) - 1, 'WITHSCORES')
local out = { redis.call('ZCARD', DEAD) }
for i = 1, #page, 2 do
  local id = page[i]
  out[#out + 1] = id
  out[#out + 1] = tonumber(page[i + 1])
  out[#out + 1] = tonumber(redis.call('HGET', ATTEMPTS, id)) or 0
  out[#out + 1] = redis.call('HGET', ERRORS, id)
  out[#out + 1] = redis.call('HGET', record_key(id), id)
end
return out
