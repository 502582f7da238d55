-- dead_list (protocol 3): a page of the dead letters, oldest first, in protocol 2's answer.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: offset, ARGV[2]: limit
-- Returns: { total, then per task: id, died at, attempts, last error, record }
local P = KEYS[1]
local page = redis.call('ZRANGE', P .. 'dead', tonumber(ARGV[1]), tonumber(ARGV[1]) + tonumber(ARGV[2]) - 1, 'WITHSCORES')
local out = { redis.call('ZCARD', P .. 'dead') }
for i = 1, #page, 2 do
  local id = page[i]
  local attempts, record = string.match(redis.call('HGET', P .. 'dv', id) or '0|', '^(%d+)|(.*)$')
  out[#out + 1] = id
  out[#out + 1] = tonumber(page[i + 1])
  out[#out + 1] = tonumber(attempts)
  out[#out + 1] = redis.call('HGET', P .. 'err', id) or ''
  out[#out + 1] = record ~= '' and record -- a bare task (include/legacy.lua) has none: false, as protocol 2's
end
return out
