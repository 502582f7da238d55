-- enqueue: schedule one task or a batch of tasks on one shard.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- KEYS[11]: "once" mode only: dq:{q:i}:once, ZSET id -> ms it was added in that mode (kept ONCE_KEEP_MS)
-- ARGV[1]: duplicate mode: "reject" (default) | "replace" | "keep-earlier" | "future-only" (as reject,
--          and a task not due after the server's now is not added: result "past") | "once" (as reject,
--          and an id added in this mode before is a "duplicate" even after it was acked and is gone:
--          the recurring-task planner fires owed occurrences this way, so firing again is harmless)
-- ARGV[2]: n, the number of tasks that follow
-- ARGV[3 + 5k ..]: per task: id, timing ("at" = epoch ms | "in" = delay ms from server now),
--                  ms, record (TaskRecord.encode: compact or JSON), priority level (0..2); a JSON record with a
--                  valid "group" puts the task into that group's due set instead (include/groups.lua)
-- Returns: {now, result_1, due_1, ..., result_n, due_n}; result is one of
--   "added", "duplicate" (reject mode), "replaced", "earlier" / "kept" (keep-earlier mode),
--   "inflight" (replace or keep-earlier of a task that is running: refused),
--   "dead" (keep-earlier of a dead task: left alone), "past" (future-only mode: due time not in the future),
--   "absent" (where = "present": not on this shard, nothing written), "moving" (being moved to another shard: retry)
-- ARGV[3 + 5n]: the caller's layout epoch (absent: 0); ARGV[4 + 5n]: where, "present" to act only on ids
--   this shard holds (the old shard during a migration), else normal (include/layout.lua)
--@include shard_keys.lua
--@include groups.lua
--@include common.lua
--@include layout.lua

local mode = ARGV[1]
local n = tonumber(ARGV[2])
local wrong_layout = layout_problem(ARGV[3 + 5 * n])
if wrong_layout then return wrong_layout end
local present_only = ARGV[4 + 5 * n] == 'present'
local now = server_now()
-- a week: far longer than any planner takes to come back to an occurrence it owes (it drops older ones)
local ONCE_KEEP_MS = 7 * 86400000
local ONCE = KEYS[11]
if mode == 'once' then
  -- age out, bounded: at most twice what this call can add, so the set shrinks back after a burst
  local old = redis.call('ZRANGEBYSCORE', ONCE, '-inf', now - ONCE_KEEP_MS, 'LIMIT', 0, 100 + 2 * n)
  if #old > 0 then redis.call('ZREM', ONCE, unpack(old)) end
end
local soonest
local out = { now }

-- The marker is written when a task comes before everything its own priority level held when this
-- call began. Comparing with the level's head alone (one ZRANGE, not one per level) can mark a task
-- that another level already precedes: the worker then wakes for nothing once, it never sleeps
-- through a task.
-- (level 'g': the grouped tasks, whose head is the earliest group turn)
local heads = {}
local function consider(level, due)
  local head = heads[level]
  if head == nil then
    local first = redis.call('ZRANGE', level == 'g' and GROUPS or DUE[level + 1], 0, 0, 'WITHSCORES')
    head = tonumber(first[2]) or math.huge
    heads[level] = head
  end
  if due < head and (soonest == nil or due < soonest) then soonest = due end
end

local function schedule(id, key, due, record, level)
  -- >>> groups (issue 18): a record naming a group puts the task into that group's set (include/groups.lua)
  local g = group_of(record)
  if g then
    consider('g', due)
    redis.call('HSET', key, id, record)
    group_add(id, g, due, now)
    return
  end
  -- <<< groups
  consider(level, due)
  redis.call('HSET', key, id, record)
  redis.call('ZADD', DUE[level + 1], due, id)
end

for k = 0, n - 1 do
  local base = 3 + k * 5
  local id, timing, ms, record, level = ARGV[base], ARGV[base + 1], tonumber(ARGV[base + 2]), ARGV[base + 3], tonumber(ARGV[base + 4])
  local due = ms
  if timing == 'in' then due = now + ms end
  local key = record_key(id)
  local state, at_level, score, at_group = locate(id, key)
  local result
  if state == nil and (present_only or is_moving(id)) then
    if is_moving(id) then result = 'moving'
    -- resharding: an occurrence this old shard recorded in the once mode stays refused, even when its task is gone
    elseif mode == 'once' and redis.call('ZSCORE', ONCE, id) then result = 'duplicate'
    else result = 'absent' end
  elseif mode == 'future-only' and due <= now then
    result = 'past'
  elseif mode == 'once' and redis.call('ZSCORE', ONCE, id) then
    result, due = 'duplicate', score or due
  elseif state == nil then
    schedule(id, key, due, record, level)
    result = 'added'
  elseif mode == 'replace' then
    if state == 'inflight' then
      result, due = 'inflight', score
    else
      if state == 'due' then due_remove(id, at_level, at_group, now) else redis.call('ZREM', DEAD, id) end
      redis.call('HDEL', ATTEMPTS, id)
      redis.call('HDEL', ERRORS, id)
      schedule(id, key, due, record, level)
      result = 'replaced'
    end
  elseif mode == 'keep-earlier' then
    if state == 'due' then
      if due < score and at_group then -- >>> groups <<<
        consider('g', due)
        group_add(id, at_group, due, now)
        result = 'earlier'
      elseif due < score then
        consider(at_level, due)
        redis.call('ZADD', DUE[at_level + 1], due, id)
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
  -- not for 'absent' / 'moving' (nothing was decided here: the id goes on to its new shard, or comes back)
  if mode == 'once' and result ~= 'absent' and result ~= 'moving' then
    redis.call('ZADD', ONCE, 'NX', now, id)
  end
  out[#out + 1] = result
  out[#out + 1] = due
end

if soonest ~= nil then
  mark(soonest)
end
return out
