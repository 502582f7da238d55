-- move_out (protocol 3): take up to a budget of tasks that belong to another shard in the new layout out of one set
-- of this (old) shard, with their whole state, into this shard's `moving` hash, and answer them; the mover delivers
-- them with move_in and then calls move_done (protocol 2's, docs/protocol.md "Moving a task"). The states are
-- protocol 2's JSON ({s = level "0".."2" | "g" (a grouped task) | "dead" | "done", z = due time or time of death, r = record, a = attempts
-- used, e = last error, t}), so one batch format serves both protocols. While `moving` holds a batch, that batch is
-- answered again and nothing else is taken. Buckets in flight are never moved (their ack, retry or lease expiry
-- happens here; a retry or a reclaim puts their tasks back into a window, where a later pass finds them): only their
-- tasks of another shard are counted. Tasks due before now + window stay (they fire from here), and so do ids, records
-- or errors that are not UTF-8.
-- Waiting tasks are walked bucket by bucket, one index a set: the minutes first ('c': a minute promoted between two
-- calls lands in windows not walked yet), then the windows of levels 0, 1, 2 ('w0'..'w2') and the grouped windows ('wg'). `offset` counts the
-- buckets of the index already walked that still hold something; a bucket emptied by this call leaves the index, so
-- the next one takes its rank. A bucket is read whole (at most CAP tasks), so the budget ends a call only between
-- buckets, and at most `budget` tasks move a call (a bucket left half done is read again by the next). Sets 'dead' and 'done' are walked by entry as protocol 2's, 'inflight' by in-flight bucket (and protocol
-- 2's in-flight set, on a shard upgraded in place). What an upgrade in place has not adopted yet moves too: protocol 2's
-- waiting tasks are adopted before the minutes are walked, its dead letters as the walk meets them.
-- KEYS[1]: the shard's prefix (include/buckets.lua); its `moving` and `moveseq` are protocol 2's keys
-- ARGV[1]: the new shard count, ARGV[2]: this shard's index, ARGV[3]: set: 'c' | 'w0' | 'w1' | 'w2' | 'wg' | 'dead' | 'done' |
--          'inflight', ARGV[4]: offset, ARGV[5]: budget (entries looked at), ARGV[6]: window ms
-- Returns: protocol 2's answer (move_out.lua): {pending, next offset (-1: end of the set), skipped (due too soon),
--          misplaced in flight, seq, entries looked at, n, id_1, state_1, ..., id_n, state_n, to}
--@include buckets.lua
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
local MOVING, SEQ = P .. 'moving', P .. 'moveseq'
local to, me, set, offset, budget, window = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])

local pending = held_batch(MOVING, SEQ, offset)
if pending then return pending end

local now = server_now()
local soon = now + window
local skipped, misplaced, looked = 0, 0, 0
local moved = {}
local function take(id, state)
  take_move_seq(SEQ)
  redis.call('HSET', MOVING, id, state)
  moved[#moved + 1] = id
  moved[#moved + 1] = state
end
local function elsewhere(id)
  return crc32(id) % to ~= me
end

local WALKED = { c = 'cidx', w0 = 'idx', w1 = 'idx1', w2 = 'idx2', wg = 'gidx' }
if not (WALKED[set] or set == 'inflight' or set == 'dead' or set == 'done') then
  return redis.error_reply("ERR move_out: set must be 'c', 'w0', 'w1', 'w2', 'wg', 'dead', 'done' or 'inflight' (protocol 3's), got '" .. set .. "'")
end
-- the most tasks one batch takes: the budget, as protocol 2's (a call of a whole bucket's moves holds Redis about a
-- millisecond, and a claim that arrives meanwhile waits for it), and at most what move_done forgets with one HDEL
local MOST_MOVED = math.min(budget, 1000)
local next_offset
if WALKED[set] then
  local index = P .. WALKED[set]
  -- what a bare ZADD left in protocol 2's due sets is adopted into buckets first, so that it moves too
  if set == 'c' then adopt_waiting_tasks(P, now) end
  local full, ended = false, false
  while looked < budget and not full do
    local name = redis.call('ZRANGE', index, offset, offset)[1]
    if not name then
      ended = true
      break
    end
    local _, attempt, _, level, group = parse_name(name)
    local flat = redis.call('HGETALL', P .. 'b:' .. name)
    looked = looked + #flat / 2
    for j = 1, #flat, 2 do
      local id = flat[j]
      if #moved / 2 >= MOST_MOVED then
        full = true
        break
      end
      if elsewhere(id) then
        local due, record = decode(name, flat[j + 1])
        local err = due > soon and redis.call('HGET', P .. 'err', id)
        if due <= soon then
          skipped = skipped + 1
        elseif not (utf8_problem(id) or utf8_problem(record) or (err and utf8_problem(err))) then
          unwait(P, name, id)
          redis.call('HDEL', P .. 'ix:' .. (crc32(id) % IXB), id)
          if err then redis.call('HDEL', P .. 'err', id) end
          -- the due time as digits: cjson writes a number with 14 significant digits
          take(id, cjson.encode({ s = group and 'g' or tostring(level), z = string.format('%d', due), r = record ~= '' and record or nil,
            a = attempt > 1 and attempt - 1 or nil, e = err or nil, t = to }))
        end
      end
    end
    -- a bucket this call emptied left the index: the next bucket has its rank now; one a full batch left half done
    -- is read again by the next call
    if not full and (#flat == 0 or redis.call('EXISTS', P .. 'b:' .. name) == 1) then offset = offset + 1 end
  end
  next_offset = ended and -1 or offset
  write_placed(P)
elseif set == 'inflight' then
  local leases = redis.call('ZRANGE', P .. 'lease', offset, offset + budget - 1)
  for _, name in ipairs(leases) do
    for _, id in ipairs(redis.call('HKEYS', P .. 'f:' .. name)) do
      if elsewhere(id) then misplaced = misplaced + 1 end
    end
  end
  -- a shard upgraded in place (marked `legacy` until nothing of protocol 2 is left) may still hold tasks protocol 2
  -- handed out (include/legacy.lua): they finish here, or the reclaim sweep adopts them into a window, where a later
  -- pass finds them; counted like the buckets in flight
  if offset == 0 and redis.call('EXISTS', P .. 'legacy') == 1 then
    for _, id in ipairs(redis.call('ZRANGE', P .. 'inflight', 0, -1)) do
      if elsewhere(id) then misplaced = misplaced + 1 end
    end
  end
  looked = #leases
  next_offset = #leases < budget and -1 or offset + #leases
else
  local key = set == 'dead' and P .. 'dead' or P .. 'done:at'
  local entries = redis.call('ZRANGE', key, offset, offset + budget - 1, 'WITHSCORES')
  for k = 1, #entries, 2 do
    local id, score = entries[k], entries[k + 1]
    local state = nil
    if elsewhere(id) and set == 'done' then
      state = take_completion(P .. 'done', P .. 'done:at', id, score, to)
    elseif elsewhere(id) then
      local h = crc32(id) % IXB
      adopt_dead(P, id, h) -- a dead letter protocol 2 left (no `dv` entry yet)
      local attempts, record = string.match(redis.call('HGET', P .. 'dv', id) or '0|', '^(%d*)|(.*)$')
      local err = redis.call('HGET', P .. 'err', id)
      if not (utf8_problem(id) or utf8_problem(record) or (err and utf8_problem(err))) then
        redis.call('ZREM', P .. 'dead', id)
        redis.call('HDEL', P .. 'dv', id)
        if err then redis.call('HDEL', P .. 'err', id) end
        redis.call('HDEL', P .. 'ix:' .. h, id)
        state = cjson.encode({ s = 'dead', z = score, r = record ~= '' and record or nil,
          a = (tonumber(attempts) or 0) > 0 and attempts or nil, e = err or nil, t = to })
      end
    end
    if state then take(id, state) else offset = offset + 1 end
  end
  looked = #entries / 2
  next_offset = #entries < budget * 2 and -1 or offset
end
return move_answer(0, next_offset, skipped, misplaced, move_seq, looked, moved, to)
