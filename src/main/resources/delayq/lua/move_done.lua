-- move_done: forget the batch move_out answered once move_in wrote it to its new shards.
-- KEYS[1]: dq:{queue:shard}:moving, KEYS[2]: dq:{queue:shard}:moveseq
-- ARGV[1]: the batch's seq
-- Returns: 1 when the batch was forgotten, 0 when `moving` holds another batch (or none)
-- The batch's fields are deleted with HDEL (the hash vanishes with its last field), not the key with DEL:
-- the worker's ACL user, which runs the stray sweep, has no DEL (docs/security.md). A batch holds at most
-- move_out's budget (1000) ids, so one HDEL takes them all.
if tonumber(redis.call('GET', KEYS[2])) ~= tonumber(ARGV[1]) then return 0 end
local held = redis.call('HGETALL', KEYS[1])
if #held == 0 then return 0 end
local ids = {}
for k = 1, #held, 2 do ids[#ids + 1] = held[k] end
redis.call('HDEL', KEYS[1], unpack(ids))
return 1
