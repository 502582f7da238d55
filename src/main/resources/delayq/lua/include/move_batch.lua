-- The mover's batch (docs/protocol.md, "Moving a task"), shared by both protocols' move_out and move_in: the answer
-- move_out gives, the batch `moving` still holds, the batch counter, and the completion records that move with their
-- ids (set `done`). Needs malformed.lua (utf8_problem) before it.
-- MOVING: dq:{q:i}:moving (HASH id -> state JSON), MOVE_SEQ: dq:{q:i}:moveseq (the batch counter, advanced with
-- GET/SET rather than INCR so that the worker's ACL user, which runs the stray sweep, suffices).

-- {pending, next offset, skipped, misplaced in flight, seq, entries looked at, n, id_1, state_1, ..., to}
local function move_answer(pending, next_offset, skipped, misplaced, seq, looked, entries, batch_to)
  local out = { pending, next_offset, skipped, misplaced, seq, looked, #entries / 2 }
  for i = 1, #entries do out[#out + 1] = entries[i] end
  out[#out + 1] = batch_to
  return out
end

-- the batch `moving` still holds (a mover resuming after a crash, or a stray sweep's half-done delivery), answered
-- again with the shard count it was taken for; nil when there is none
local function held_batch(MOVING, MOVE_SEQ, offset)
  if redis.call('EXISTS', MOVING) == 0 then return nil end
  local held = redis.call('HGETALL', MOVING)
  local first = cjson.decode(held[2])
  return move_answer(1, offset, 0, 0, tonumber(redis.call('GET', MOVE_SEQ)) or 0, 0, held, tonumber(first.t) or 0)
end

-- the batch's number, drawn from the shard's counter when the batch takes its first task (a batch that takes none
-- uses none)
local move_seq = 0
local function take_move_seq(MOVE_SEQ)
  if move_seq == 0 then
    move_seq = (tonumber(redis.call('GET', MOVE_SEQ)) or 0) + 1
    redis.call('SET', MOVE_SEQ, move_seq)
  end
  return move_seq
end

-- move_out of one completion record (HASH done, ZSET done:at; include/completion.lua), finished at `score`: its
-- state {s = "done", z, c = record, x = the records' time to live in ms, t}, or nil when it stays (not UTF-8)
local function take_completion(DONE, DONE_AT, id, score, to)
  local completion = redis.call('HGET', DONE, id)
  if utf8_problem(id) or (completion and utf8_problem(completion)) then return nil end
  local state = cjson.encode({ s = 'done', z = score, c = completion or nil, x = redis.call('PTTL', DONE), t = to })
  redis.call('ZREM', DONE_AT, id)
  if completion then redis.call('HDEL', DONE, id) end
  return state
end

-- move_in of one completion record: kept beside whatever the shard holds of the id, unless the shard has a later
-- one; the shard's completion keys then live at least as long as the source's did. Answers whether it was written.
local completion_ttl = nil
local function put_completion(DONE, DONE_AT, id, st)
  local mine = redis.call('ZSCORE', DONE_AT, id)
  if not st.c or (mine and tonumber(mine) >= tonumber(st.z)) then return false end
  if completion_ttl == nil then completion_ttl = redis.call('PTTL', DONE) end
  redis.call('HSET', DONE, id, st.c)
  redis.call('ZADD', DONE_AT, st.z, id)
  local x = tonumber(st.x) or -1
  if x > 0 and (completion_ttl < 0 or completion_ttl < x) then
    redis.call('PEXPIRE', DONE, x)
    redis.call('PEXPIRE', DONE_AT, x)
    completion_ttl = x
  end
  return true
end
