-- move_done: forget the batch move_out answered once move_in wrote it to its new shards.
-- KEYS[1]: dq:{queue:shard}:moving, KEYS[2]: dq:{queue:shard}:moveseq
-- ARGV[1]: the batch's seq
-- Returns: 1 when the batch was forgotten, 0 when `moving` holds another batch (or none)
if tonumber(redis.call('GET', KEYS[2])) ~= tonumber(ARGV[1]) then return 0 end
return redis.call('DEL', KEYS[1])
