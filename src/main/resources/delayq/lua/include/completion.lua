-- Completion records (protocol.md, "Completion records"): what an ack keeps of each acked task while results are
-- kept, for protocol 2's ack.lua and protocol 3's p3/ack.lua alike. Needs server_now.
-- The arguments from ARGV[at]: keep ms (absent or 0 = keep no completion records: nothing below is read), then max
-- records per shard, worker id (no '|'), then per task (in the order of `ids`) two arguments: "<attempts>|<handler
-- ms>|<truncated 0/1>" ("" = keep no record of this task, e.g. an expired task discarded) and the result (at most
-- RESULT_MAX_BYTES are kept: a longer one is cut there, truncated = 1). Each acked task (acked[k]) with a record
-- gets done[id] = "<finished ms>|<attempts>|<handler ms>|<truncated>|<worker>|<result>" and done_at[id] = finished
-- ms (the server clock); then the oldest records beyond the count or older than keep are trimmed, at most (acked +
-- 8) a call, and both keys expire keep ms after this ack.

-- the longest result a completion record keeps, in bytes (io.delayq.completion.CompletionRecord.RESULT_MAX_BYTES)
local RESULT_MAX_BYTES = 1024

local function keep_completions(done, done_at, ids, acked, at)
  local keep = tonumber(ARGV[at])
  if not keep or keep <= 0 then return end
  local cap, worker, now = tonumber(ARGV[at + 1]), ARGV[at + 2], server_now()
  local fields, members, written = {}, {}, 0
  for k = 1, #ids do
    local meta, result = ARGV[at + 1 + 2 * k], ARGV[at + 2 + 2 * k]
    if acked[k] and meta and meta ~= '' then
      if #result > RESULT_MAX_BYTES then
        result = string.sub(result, 1, RESULT_MAX_BYTES)
        meta = string.sub(meta, 1, -2) .. '1'
      end
      fields[#fields + 1] = ids[k]
      fields[#fields + 1] = now .. '|' .. meta .. '|' .. worker .. '|' .. result
      members[#members + 1] = now
      members[#members + 1] = ids[k]
      written = written + 1
    end
  end
  if written == 0 then return end
  redis.call('HSET', done, unpack(fields))
  redis.call('ZADD', done_at, unpack(members))
  -- trim in a bounded step: the oldest records beyond the count or past keep, at most written + 8 of them, so
  -- each ack removes more than it adds while anything is over (a lowered bound is reached over a few acks)
  local over = redis.call('ZCARD', done_at) - cap
  local horizon = now - keep
  local oldest = redis.call('ZRANGE', done_at, 0, 0, 'WITHSCORES')
  if over > 0 or tonumber(oldest[2]) <= horizon then
    local look = redis.call('ZRANGE', done_at, 0, written + 7, 'WITHSCORES')
    local gone = {}
    for i = 1, #look, 2 do
      if #gone < over or tonumber(look[i + 1]) <= horizon then gone[#gone + 1] = look[i] else break end
    end
    if #gone > 0 then
      redis.call('ZREM', done_at, unpack(gone))
      redis.call('HDEL', done, unpack(gone))
    end
  end
  -- a queue that stops acking (or stops keeping results) leaves nothing behind once its records are all past keep
  redis.call('PEXPIRE', done, keep)
  redis.call('PEXPIRE', done_at, keep)
end
