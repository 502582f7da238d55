-- ack: finish tasks that were handled, many in one call. A task is acked only when its fencing
-- token still matches: a worker whose lease expired (and whose task was re-delivered) is refused.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1]: n; ARGV[2 + 3k], ARGV[3 + 3k], ARGV[4 + 3k]: id, token, record bucket of the id
--          (RecordBuckets: the caller computes it, and orders the tasks by bucket so that one HDEL
--          covers tasks sharing one; a wrong or empty bucket costs a lookup, never a record)
-- ARGV[2 + 3n]: m (absent = 0), ARGV[3 + 3n .. 2 + 3n + m]: the positions (1..n, in the order above) of the
--          tasks claimed with an attempt > 1: only they have ATTEMPTS and ERRORS entries (a claim reads them,
--          retry.lua, reclaim.lua and the dead paths write them), which their ack deletes. An entry written
--          after a task's claim came with a new token, so that ack is stale anyway.
-- ARGV[3 + 3n + m]: p (absent = 0), then p positions (as above) of the tasks whose handler reported progress:
--          their PROGRESS entries are deleted; a task that never reported one costs nothing here.
-- ARGV[4 + 3n + m + p]: keep ms (absent or 0 = keep no completion records: nothing below is read), then
--          max records per shard, worker id (no '|'), then per task (in the order above) two arguments: "<attempts>|
--          <handler ms>|<truncated 0/1>" ("" = keep no record of this task, e.g. an expired task discarded) and the
--          result (at most 1024 bytes are kept: a longer one is cut there, truncated = 1). Each acked task with a
--          record gets DONE id -> "<finished ms>|<attempts>|<handler ms>|<truncated>|<worker>|<result>" and DONE_AT
--          id -> finished ms (the server clock); then the oldest records beyond the count or older than keep are
--          trimmed, at most (acked + 8) per call, and both keys expire keep ms after this ack.
-- Returns: array of n integers, 1 = acked, 0 = stale (not in flight under that token)
--@include shard_keys.lua
--@include groups.lua
--@include common.lua
--@include dedup.lua

-- the longest result a completion record keeps, in bytes (io.delayq.completion.CompletionRecord.RESULT_MAX_BYTES)
local RESULT_MAX_BYTES = 1024

local n = tonumber(ARGV[1])
local done, hints, out, acked = {}, {}, {}, {}
if n == 0 then return out end
local ids = {}
for k = 0, n - 1 do ids[k + 1] = ARGV[2 + 3 * k] end
-- one ZMSCORE for the whole batch instead of a ZSCORE per task (Redis >= 6.2)
local scores = redis.call('ZMSCORE', INFLIGHT, unpack(ids))
for k = 0, n - 1 do
  local id, token = ids[k + 1], tonumber(ARGV[3 + 3 * k])
  local score = scores[k + 1]
  if score and tonumber(score) == token then
    done[#done + 1] = id
    hints[#done] = ARGV[4 + 3 * k]
    acked[k + 1] = true
    out[#out + 1] = 1
  else
    out[#out + 1] = 0
  end
end
if #done == 0 then return out end
redis.call('ZREM', INFLIGHT, unpack(done))
-- the records: the bucket comes with each id, so this script hashes no id (hashing in Lua costs ~0.7 µs a
-- task, a third of the ack). One HDEL per run of ids in one bucket; where it deletes fewer records than
-- ids (a caller's wrong bucket), each id of the run is looked up by its own hash.
local first = 1
for i = 1, #done do
  if i == #done or hints[i + 1] ~= hints[i] then
    local b = tonumber(hints[i])
    local deleted = -1
    if b and b >= 0 and b < TASK_BUCKETS and b == math.floor(b) then
      -- pcall: a key a producer overwrote with another type holds nothing of these tasks to delete
      deleted = redis.pcall('HDEL', TASKS .. ':' .. b, unpack(done, first, i))
    end
    if deleted ~= i - first + 1 then
      for j = first, i do redis.pcall('HDEL', record_key(done[j]), done[j]) end
    end
    first = i + 1
  end
end
local counted = {}
for j = 1, tonumber(ARGV[2 + 3 * n]) or 0 do
  local k = tonumber(ARGV[2 + 3 * n + j])
  if acked[k] then counted[#counted + 1] = ids[k] end
end
if #counted > 0 then forget_counts(counted) end
local m = tonumber(ARGV[2 + 3 * n]) or 0
local p = tonumber(ARGV[3 + 3 * n + m]) or 0
if p > 0 then
  local reported = {}
  for j = 1, p do
    local k = tonumber(ARGV[3 + 3 * n + m + j])
    if acked[k] then reported[#reported + 1] = ids[k] end
  end
  if #reported > 0 then redis.call('HDEL', PROGRESS, unpack(reported)) end
end
-- dedup windows of the acked tasks start now (include/dedup.lua; a queue without windows pays a ZCARD)
dedup_settle(done)
local at = 4 + 3 * n + m + p
local keep = tonumber(ARGV[at])
if not keep or keep <= 0 then return out end
-- completion records (protocol.md, "Completion records"): the ack's only extra work while results are kept
local cap, worker, now = tonumber(ARGV[at + 1]), ARGV[at + 2], server_now()
local fields, members, written = {}, {}, 0
for k = 0, n - 1 do
  local meta, result = ARGV[at + 3 + 2 * k], ARGV[at + 4 + 2 * k]
  if acked[k + 1] and meta and meta ~= '' then
    if #result > RESULT_MAX_BYTES then
      result = string.sub(result, 1, RESULT_MAX_BYTES)
      meta = string.sub(meta, 1, -2) .. '1'
    end
    fields[#fields + 1] = ids[k + 1]
    fields[#fields + 1] = now .. '|' .. meta .. '|' .. worker .. '|' .. result
    members[#members + 1] = now
    members[#members + 1] = ids[k + 1]
    written = written + 1
  end
end
if written == 0 then return out end
redis.call('HSET', DONE, unpack(fields))
redis.call('ZADD', DONE_AT, unpack(members))
-- trim in a bounded step: the oldest records beyond the count or past keep, at most written + 8 of them, so
-- each ack removes more than it adds while anything is over (a lowered bound is reached over a few acks)
local over = redis.call('ZCARD', DONE_AT) - cap
local horizon = now - keep
local oldest = redis.call('ZRANGE', DONE_AT, 0, 0, 'WITHSCORES')
if over > 0 or tonumber(oldest[2]) <= horizon then
  local look = redis.call('ZRANGE', DONE_AT, 0, written + 7, 'WITHSCORES')
  local gone = {}
  for i = 1, #look, 2 do
    if #gone < over or tonumber(look[i + 1]) <= horizon then gone[#gone + 1] = look[i] else break end
  end
  if #gone > 0 then
    redis.call('ZREM', DONE_AT, unpack(gone))
    redis.call('HDEL', DONE, unpack(gone))
  end
end
-- a queue that stops acking (or stops keeping results) leaves nothing behind once its records are all past keep
redis.call('PEXPIRE', DONE, keep)
redis.call('PEXPIRE', DONE_AT, keep)
return out
