-- move_out: take up to a budget of tasks that belong to another shard in the new layout out of one set of
-- this (old) shard, with their whole state (set, score, record, attempts, last error), into this shard's
-- `moving` hash, and answer them; the mover delivers them with move_in and then calls move_done. While
-- `moving` holds a batch, the same batch is answered again (a mover resuming after a crash) and nothing
-- else is taken. In-flight tasks are never moved (their ack, retry or lease expiry happens here; a retry
-- puts them back into a due set, where a later pass finds them): they are only counted. Tasks due before
-- now + window stay (they fire from here), and so do ids, records or errors that are not UTF-8 (the mover's
-- client reads replies as UTF-8 text and could not write them back byte for byte).
-- Bounded: it looks at `budget` entries of one set, by index from `offset` (entries before `offset` are
-- ones it kept, so removing moved ones does not shift them).
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- KEYS[11]: dq:{queue:shard}:moving (HASH id -> state JSON), KEYS[12]: dq:{queue:shard}:moveseq (batch counter,
--          advanced with GET/SET rather than INCR so that the worker's ACL user, which runs the stray sweep, suffices)
-- ARGV[1]: the new shard count, ARGV[2]: this shard's index, ARGV[3]: set: "0" | "1" | "2" (due levels) |
--          "g" (grouped tasks, through dq:{q:i}:due:g; include/groups.lua) | "dead" | "inflight" | "done" (completion
--          records, through DONE_AT: only the record moves, state {s = "done", z = finished ms, c = record, x = the
--          records' time to live in ms, t}; a task of the same id is moved by its own set's pass), ARGV[4]: offset, ARGV[5]: budget (entries looked at), ARGV[6]: window ms
-- Returns: {pending (1: the batch answered is one taken earlier), next offset (-1: end of the set reached),
--           skipped (due too soon), misplaced in flight, seq, entries looked at, n, id_1, state_1, ..., id_n, state_n,
--           to}: `to` is the shard count the batch was taken for (field `t` of every state), which is what its
--           ids are delivered by: a pending batch that a stray sweep took under the old count and a mover resumes
--           under a new one must still go where the sweep's half-done delivery went (0: a batch of an earlier
--           version, delivered by the caller's count)
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua
--@include malformed.lua
--@include crc32.lua
--@include move_batch.lua

local MOVING, SEQ = KEYS[11], KEYS[12]
local to, me, set, offset, budget, window = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])

local pending = held_batch(MOVING, SEQ, offset)
if pending then return pending end

local key
if set == 'dead' then key = DEAD elseif set == 'inflight' then key = INFLIGHT elseif set == 'g' then key = GROUP_ALL
elseif set == 'done' then key = DONE_AT else key = DUE[tonumber(set) + 1] end
local entries = redis.call('ZRANGE', key, offset, offset + budget - 1, 'WITHSCORES')
local soon = server_now() + window
local skipped, misplaced = 0, 0
local moved = {}
for k = 1, #entries, 2 do
  local id, score = entries[k], entries[k + 1]
  if crc32(id) % to == me then
    offset = offset + 1
  elseif set == 'inflight' then
    misplaced = misplaced + 1
    offset = offset + 1
  elseif set == 'done' then
    local state = take_completion(DONE, DONE_AT, id, score, to)
    if not state then
      offset = offset + 1
    else
      take_move_seq(SEQ)
      redis.call('HSET', MOVING, id, state)
      moved[#moved + 1] = id
      moved[#moved + 1] = state
    end
  elseif set ~= 'dead' and tonumber(score) <= soon then
    skipped = skipped + 1
    offset = offset + 1
  else
    local rkey = record_key(id)
    local record = redis.call('HGET', rkey, id)
    local err = redis.call('HGET', ERRORS, id)
    if utf8_problem(id) or (record and utf8_problem(record)) or (err and utf8_problem(err)) then
      offset = offset + 1
    else
      take_move_seq(SEQ)
      local state = cjson.encode({ s = set, z = score, r = record or nil, a = redis.call('HGET', ATTEMPTS, id) or nil, e = err or nil, t = to })
      redis.call('ZREM', key, id)
      -- >>> groups: a grouped task also leaves its group's set (the state's record names the group) <<<
      if set == 'g' then
        local g = group_of(record)
        if g then
          redis.call('ZREM', group_due(g), id)
          group_settle(g, soon - window)
        end
      end
      if record then redis.call('HDEL', rkey, id) end
      redis.call('HDEL', ATTEMPTS, id)
      if err then redis.call('HDEL', ERRORS, id) end
      redis.call('HSET', MOVING, id, state)
      moved[#moved + 1] = id
      moved[#moved + 1] = state
    end
  end
end
local next_offset = offset
if #entries < budget * 2 then next_offset = -1 end
return move_answer(0, next_offset, skipped, misplaced, move_seq, #entries / 2, moved, to)
