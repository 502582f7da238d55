-- move_in: write tasks that move_out took from another shard into this one, with their whole state. An id
-- this shard already holds (written here by another producer meanwhile) keeps its record and state and
-- takes the earlier due time. A batch is applied once: `arrived` remembers the last batch of each source
-- shard, so a mover that resends it after a crash changes nothing (a task already acked here must not
-- come back). A completion record (state s = "done") is kept beside whatever the shard holds of the id, unless
-- the shard has a later one; the shard's completion keys then live at least as long as the source's did.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua), KEYS[11]: dq:{queue:shard}:arrived (HASH source -> seq)
-- ARGV[1]: source shard, ARGV[2]: batch seq (move_out's answer), ARGV[3]: n, then per task: id, state
-- Returns: {added, merged, already applied}
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua
--@include malformed.lua
--@include move_batch.lua

local ARRIVED = KEYS[11]
local source, seq, n = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
if (tonumber(redis.call('HGET', ARRIVED, source)) or 0) >= seq then return { 0, 0, n } end
local added, merged, soonest = 0, 0, nil
local now = server_now()
for k = 0, n - 1 do
  local id, st = ARGV[4 + 2 * k], cjson.decode(ARGV[5 + 2 * k])
  local score = tonumber(st.z)
  if st.s == 'done' then
    if put_completion(DONE, DONE_AT, id, st) then added = added + 1 else merged = merged + 1 end
  else
    local key = record_key(id)
    local state, level, existing, at_group = locate(id, key)
    if state == nil then
      local g = st.s == 'g' and group_of(st.r) -- >>> groups: back into its group's set (include/groups.lua) <<<
      if st.s == 'dead' then
        redis.call('ZADD', DEAD, st.z, id)
      elseif g then
        group_add(id, g, score, now)
        if soonest == nil or score < soonest then soonest = score end
      elseif st.s == 'g' then
        redis.call('ZADD', DUE[1], st.z, id)
        if soonest == nil or score < soonest then soonest = score end
      else
        redis.call('ZADD', DUE[tonumber(st.s) + 1], st.z, id)
        if soonest == nil or score < soonest then soonest = score end
      end
      if st.r then redis.call('HSET', key, id, st.r) end
      if st.a then redis.call('HSET', ATTEMPTS, id, st.a) end
      if st.e then redis.call('HSET', ERRORS, id, st.e) end
      added = added + 1
    else
      if state == 'due' and st.s ~= 'dead' and score < existing and at_group then
        group_add(id, at_group, score, now)
        if soonest == nil or score < soonest then soonest = score end
      elseif state == 'due' and st.s ~= 'dead' and score < existing then
        redis.call('ZADD', DUE[level + 1], st.z, id)
        if soonest == nil or score < soonest then soonest = score end
      end
      merged = merged + 1
    end
  end
end
if soonest ~= nil then mark(soonest) end
redis.call('HSET', ARRIVED, source, seq)
return { added, merged, 0 }
