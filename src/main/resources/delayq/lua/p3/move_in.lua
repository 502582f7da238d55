-- move_in (protocol 3): write tasks that move_out took from another shard into this one's buckets, dead letters and
-- completion records, with their whole state (protocol 2's batch format, p3/move_out.lua). An id this shard already
-- holds (written here by a producer meanwhile) keeps its record, level and attempt, and takes the earlier due time
-- while it waits. A batch is applied once: `arrived` remembers the last batch of each source shard, so a mover that
-- resends it after a crash changes nothing (a task already acked here must not come back). A completion record is
-- kept as protocol 2's move_in keeps it (include/move_batch.lua).
-- KEYS[1]: the shard's prefix (include/buckets.lua); its `arrived` (HASH source -> seq) is protocol 2's key
-- ARGV[1]: source shard, ARGV[2]: batch seq (move_out's answer), ARGV[3]: n, then per task: id, state
-- Returns: {added, merged, already applied}
--@include buckets.lua
--@include wake.lua
--@include crc32.lua
--@include dedup.lua
--@include dead.lua
--@include malformed.lua
--@include record_hash.lua
--@include group_name.lua
--@include shard_flags.lua
--@include legacy.lua
--@include move_batch.lua

local P = KEYS[1]
local ARRIVED = P .. 'arrived'
local source, seq, n = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
if (tonumber(redis.call('HGET', ARRIVED, source)) or 0) >= seq then return { 0, 0, n } end
local added, merged = 0, 0
local now = server_now()

-- a task that waits here already moves to the moved one's due time if that is earlier, keeping the rest
local function take_earlier(id, ix, held, due)
  if held == '~' or due >= tonumber(held, 36) then return end
  local name = find_waiting(P, id, tonumber(held, 36))
  if not name then return end
  local _, record = decode(name, redis.call('HGET', P .. 'b:' .. name, id))
  local _, attempt, _, level, group = parse_name(name)
  unwait(P, name, id)
  consider_wake(due, now, level, group)
  place(P, id, due, now, attempt, record, level, group)
  redis.call('HSET', ix, id, b36(due))
end

for k = 0, n - 1 do
  local id, st = ARGV[4 + 2 * k], cjson.decode(ARGV[5 + 2 * k])
  if st.s == 'done' then
    if put_completion(P .. 'done', P .. 'done:at', id, st) then added = added + 1 else merged = merged + 1 end
  else
    local h = crc32(id) % IXB
    local ix = P .. 'ix:' .. h
    adopt_id(P, id, h, now)
    local held = redis.call('HGET', ix, id)
    local due, attempts = math.floor(tonumber(st.z)), tonumber(st.a) or 0
    if held or legacy_running(P, id) then
      if held and st.s ~= 'dead' then take_earlier(id, ix, held, due) end
      merged = merged + 1
    else
      if st.s == 'dead' then
        redis.call('ZADD', P .. 'dead', due, id)
        redis.call('HSET', P .. 'dv', id, attempts .. '|' .. (st.r or ''))
        redis.call('HSET', ix, id, '~')
      else
        -- 'g': a grouped task (the batch format's, include/move_batch.lua), back into its group
        local group = st.s == 'g' and group_of(st.r) or nil
        local level = tonumber(st.s) or 0
        redis.call('HSET', ix, id, b36(due))
        consider_wake(due, now, level, group)
        place(P, id, due, now, attempts + 1, st.r or '', level, group)
      end
      if st.e then redis.call('HSET', P .. 'err', id, st.e) end
      added = added + 1
    end
  end
end
write_placed(P)
wake(P)
redis.call('HSET', ARRIVED, source, seq)
return { added, merged, 0 }
