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
-- ARGV[4 + 3n + m + p]: keep ms (absent or 0 = keep no completion records), then the completion records'
--          arguments per task in the order above (include/completion.lua): DONE and DONE_AT
-- Returns: array of n integers, 1 = acked, 0 = stale (not in flight under that token)
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua
--@include dedup.lua
--@include completion.lua

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
-- completion records (protocol.md, "Completion records"): the ack's only extra work while results are kept
keep_completions(DONE, DONE_AT, ids, acked, 4 + 3 * n + m + p)
return out
