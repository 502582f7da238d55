-- enqueue: schedule one task or a batch of tasks on one shard.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1]: duplicate mode: "reject" (default) | "replace" | "keep-earlier"
-- ARGV[2]: n, the number of tasks that follow
-- ARGV[3 + 5k ..]: per task: id, timing ("at" = epoch ms | "in" = delay ms from server now),
--                  ms, record (JSON text), priority level (0..2)
-- Returns: {now, result_1, due_1, ..., result_n, due_n}; result is one of
--   "added", "duplicate" (reject mode), "replaced", "earlier" / "kept" (keep-earlier mode),
--   "inflight" (replace or keep-earlier of a task that is running: refused),
--   "dead" (keep-earlier of a dead task: left alone)
--@include shard_keys.lua
--@include common.lua

local mode = ARGV[1]
local n = tonumber(ARGV[2])
local now = server_now()
local known_earliest = earliest_due()
local soonest
local out = { now }

local function schedule(id, due, record, level)
  redis.call('HSET', TASKS, id, record)
  redis.call('ZADD', DUE[level + 1], due, id)
  if soonest == nil or due < soonest then soonest = due end
end

for k = 0, n - 1 do
  local base = 3 + k * 5
  local id, timing, ms, record, level = ARGV[base], ARGV[base + 1], tonumber(ARGV[base + 2]), ARGV[base + 3], tonumber(ARGV[base + 4])
  local due = ms
  if timing == 'in' then due = now + ms end
  local state, at_level, score = locate(id)
  local result
  if state == nil then
    schedule(id, due, record, level)
    result = 'added'
  elseif mode == 'replace' then
    if state == 'inflight' then
      result, due = 'inflight', score
    else
      if state == 'due' then redis.call('ZREM', DUE[at_level + 1], id) else redis.call('ZREM', DEAD, id) end
      redis.call('HDEL', ATTEMPTS, id)
      redis.call('HDEL', ERRORS, id)
      schedule(id, due, record, level)
      result = 'replaced'
    end
  elseif mode == 'keep-earlier' then
    if state == 'due' then
      if due < score then
        redis.call('ZADD', DUE[at_level + 1], due, id)
        if soonest == nil or due < soonest then soonest = due end
        result = 'earlier'
      else
        result, due = 'kept', score
      end
    else
      result, due = state, score
    end
  else
    result, due = 'duplicate', score
  end
  out[#out + 1] = result
  out[#out + 1] = due
end

if soonest ~= nil and (known_earliest == nil or soonest < known_earliest) then
  mark(soonest)
end
return out
