-- enqueue: schedule one task or a batch of tasks on one shard.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- KEYS[11]: "once" and "future-once" modes only: dq:{q:i}:once, ZSET id -> ms it was added in that mode (kept ONCE_KEEP_MS)
-- ARGV[1]: duplicate mode: "reject" (default) | "replace" | "keep-earlier" | "future-only" (as reject,
--          and a task not due after the server's now is not added: result "past") | "once" (as reject,
--          and an id added in this mode before is a "duplicate" even after it was acked and is gone:
--          the recurring-task planner fires owed occurrences this way, so firing again is harmless) |
--          "future-once" (future-only and once together: the recurring-task planner adds occurrences ahead this
--          way, so an occurrence a planner added ahead and then died before recording it, fired and acked, is
--          still a duplicate when the next planner finds it owed; a "past" one is not kept in the once set) |
--          "debounce" (every record carries debounceMaxWaitMs: a waiting task of the id is replaced and its due
--          time moved to the new one, but never past the deadline its burst's first enqueue fixed, now +
--          debounceMaxWaitMs, kept in the record as debounceDeadline; a task in flight is refused, "inflight")
-- ARGV[2]: n, the number of tasks that follow
-- ARGV[3 + 5k ..]: per task: id, timing ("at" = epoch ms | "in" = delay ms from server now),
--                  ms, record (TaskRecord.encode: compact or JSON), priority level (0..2); a JSON record with a
--                  valid "group" puts the task into that group's due set instead (include/groups.lua)
-- Returns: {now, result_1, due_1, ..., result_n, due_n}; result is one of
--   "added", "duplicate" (reject mode), "replaced", "earlier" / "kept" (keep-earlier mode),
--   "inflight" (replace or keep-earlier of a task that is running: refused),
--   "dead" (keep-earlier of a dead task: left alone), "past" (future-only mode: due time not in the future),
--   "absent" (where = "present": not on this shard, nothing written), "moving" (being moved to another shard: retry),
--   "window" (in every mode: the id's dedup window, include/dedup.lua, runs until the due answered; nothing written)
-- ARGV[3 + 5n]: the caller's layout epoch (absent: 0); ARGV[4 + 5n]: where, "present" to act only on ids
--   this shard holds (the old shard during a migration), else normal (include/layout.lua)
--
-- Two parts. The first settles the common case with nothing but shard_keys.lua (keys, record_key, server_now,
-- mark) and layout.lua defined: tasks with new ids, in input order, until the first that needs more (the id
-- exists, a grouped record, a mode or a migration that asks first). Most calls end there; the second part (the other helpers and the general way,
-- from that task on) is only built when needed, because defining the helpers costs a call more than the work
-- of a new task (docs/bench.md, "Redis CPU per task (W2)"; bench/profile/enqueue_cost.py measures it).
--@include record_hash.lua
--@include shard_keys.lua
--@include layout.lua

local mode = ARGV[1]
local once_mode = mode == 'once' or mode == 'future-once'
local future_mode = mode == 'future-only' or mode == 'future-once'
local n = tonumber(ARGV[2])
local wrong_layout = layout_problem(ARGV[3 + 5 * n])
if wrong_layout then return wrong_layout end
local present_only = ARGV[4 + 5 * n] == 'present'
local now = server_now()
-- dedup windows (include/dedup.lua): the only cost to a queue that never used one is this ZCARD
local windows = redis.call('ZCARD', DEDUP) > 0
local soonest
local out = { now }

-- The marker is written when a task comes before everything its own priority level held when this
-- call began. Comparing with the level's head alone (one ZRANGE, not one per level) can mark a task
-- that another level already precedes: the worker then wakes for nothing once, it never sleeps
-- through a task. (level 'g': the grouped tasks, whose head is the earliest group turn; set: that level's key)
local heads = {}
local function head_of(level, set)
  local head = heads[level]
  if head == nil then
    local first = redis.call('ZRANGE', set or DUE[level + 1], 0, 0, 'WITHSCORES')
    head = tonumber(first[2]) or math.huge
    heads[level] = head
  end
  return head
end
local function consider(level, due, set)
  if due < head_of(level, set) and (soonest == nil or due < soonest) then soonest = due end
end

-- A new id, settled by the writes themselves instead of locate()'s reads first: HSETNX writes the record only
-- where none is (every task but a bare ZADD's has one, so "no record" leaves only DUE[1] to ask), and ZADD NX
-- adds to DUE[1] only where that id is not: two calls where locate + schedule would take four. A call of one task
-- then asks ZRANK whether it went to the front of its level instead of reading the head first (an integer
-- answer costs less than a score: a tie with the old head may mark once more, never less); a batch reads each
-- level's head once (consider). False, with nothing written, when the id is there after all.
local single = n == 1
local function add_new(id, key, due, record, level)
  local set = DUE[level + 1]
  if not single then head_of(level) end -- the level's head before this task joins it
  if redis.call('HSETNX', key, id, record) == 0 then return false end
  local added
  if level == 0 then
    added = redis.call('ZADD', set, 'NX', due, id) == 1
  elseif not redis.call('ZSCORE', DUE[1], id) then
    added = redis.call('ZADD', set, due, id) == 1
  end
  if not added then
    -- a task stored by a bare ZADD (no record) holds the id: take the record back, as if never written
    redis.call('HDEL', key, id)
    return false
  end
  if not single then
    consider(level, due)
  elseif redis.call('ZRANK', set, id) == 0 then
    soonest = due
  end
  return true
end

local function task(k)
  local base = 3 + k * 5
  local id, timing, ms, record, level = ARGV[base], ARGV[base + 1], tonumber(ARGV[base + 2]), ARGV[base + 3], tonumber(ARGV[base + 4])
  local due = ms
  if timing == 'in' then due = now + ms end
  return id, due, record, level
end

-- A record that may name a group (JSON with a "group" field: group_of() of groups.lua, not defined yet, decides
-- in part two; this is its own first test) goes to its group's set, not the short way.
-- A record carrying a dedup window (include/dedup.lua) takes the general way too, which notes the window.
local function may_be_grouped(record)
  return byte(record, 1) == 123 and (string.find(record, '"group"', 1, true) ~= nil
    or string.find(record, '"dedupWindowMs"', 1, true) ~= nil)
end

-- part one: new ids while nothing else has to be asked
local may_add_directly = not present_only and not MIGRATING and not once_mode and mode ~= 'debounce' and not windows
local k, tried = 0, false -- tried: add_new already found task k's id there
if may_add_directly then
  while k < n do
    local id, due, record, level = task(k)
    if (future_mode and due <= now) or may_be_grouped(record) then break end
    if not add_new(id, record_key(id), due, record, level) then
      tried = true
      break
    end
    out[#out + 1] = 'added'
    out[#out + 1] = due
    k = k + 1
  end
end
if k == n then
  if soonest ~= nil then mark(soonest) end
  return out
end

-- part two: task k and every one after it, in order
--@include group_name.lua
--@include groups.lua
--@include common.lua
--@include dedup.lua
--@include debounce.lua

local function schedule(id, key, due, record, level)
  -- >>> groups: a record naming a group puts the task into that group's set (include/groups.lua)
  local g = group_of(record)
  if g then
    consider('g', due, GROUPS)
    redis.call('HSET', key, id, record)
    group_add(id, g, due, now)
    return
  end
  -- <<< groups
  consider(level, due)
  redis.call('HSET', key, id, record)
  redis.call('ZADD', DUE[level + 1], due, id)
end

-- a week: far longer than any planner takes to come back to an occurrence it owes (it drops older ones)
local ONCE_KEEP_MS = 7 * 86400000
local ONCE = KEYS[11]
if once_mode then
  -- age out, bounded: at most twice what this call can add, so the set shrinks back after a burst
  local old = redis.call('ZRANGEBYSCORE', ONCE, '-inf', now - ONCE_KEEP_MS, 'LIMIT', 0, 100 + 2 * n)
  if #old > 0 then redis.call('ZREM', ONCE, unpack(old)) end
end

-- debounce: every record must carry its maximum wait (include/debounce.lua); checked before anything is written
if mode == 'debounce' then
  for j = 0, n - 1 do
    local _, _, record = task(j)
    if not max_wait_of(record) then
      return redis.error_reply('debounceMaxWaitMs: the debounce mode needs it in every record, 1 ms to 30 days (' .. DEDUP_MAX_MS .. ' ms)')
    end
  end
end

-- Where the id is (locate) decides, per mode. Returns the result and the due time to answer.
local function settle(id, key, due, record, level)
  if windows then
    local ends = tonumber(redis.call('ZSCORE', DEDUP, id))
    if ends and ends > now then return 'window', ends end
  end
  local state, at_level, score, at_group = locate(id, key)
  if state == nil and (present_only or is_moving(id)) then
    if is_moving(id) then return 'moving', due end
    -- resharding: an occurrence this old shard recorded in the once mode stays refused, even when its task is gone
    if once_mode and redis.call('ZSCORE', ONCE, id) then return 'duplicate', due end
    return 'absent', due
  elseif future_mode and due <= now then
    return 'past', due
  elseif once_mode and redis.call('ZSCORE', ONCE, id) then
    return 'duplicate', score or due
  elseif mode == 'debounce' then
    if state == 'inflight' then return 'inflight', score end
    local deadline = state == 'due' and deadline_of(redis.call('HGET', key, id)) or now + max_wait_of(record)
    if due > deadline then due = deadline end
    if state == 'due' then due_remove(id, at_level, at_group, now) elseif state == 'dead' then redis.call('ZREM', DEAD, id) end
    if state then
      redis.call('HDEL', ATTEMPTS, id)
      redis.call('HDEL', ERRORS, id)
    end
    schedule(id, key, due, with_deadline(record, deadline), level)
    note_window(id, record, windows and state ~= nil)
    return state and 'replaced' or 'added', due
  elseif state == nil then
    schedule(id, key, due, record, level)
    note_window(id, record, false)
    return 'added', due
  elseif mode == 'replace' then
    if state == 'inflight' then return 'inflight', score end
    if state == 'due' then due_remove(id, at_level, at_group, now) else redis.call('ZREM', DEAD, id) end
    redis.call('HDEL', ATTEMPTS, id)
    redis.call('HDEL', ERRORS, id)
    schedule(id, key, due, record, level)
    note_window(id, record, windows)
    return 'replaced', due
  elseif mode == 'keep-earlier' then
    if state ~= 'due' then return state, score end
    if due >= score then return 'kept', score end
    if at_group then -- >>> groups <<<
      consider('g', due, GROUPS)
      group_add(id, at_group, due, now)
    else
      consider(at_level, due)
      redis.call('ZADD', DUE[at_level + 1], due, id)
    end
    return 'earlier', due
  end
  return 'duplicate', score
end

-- part one's test again, per task: a later new id still takes the short way
for j = k, n - 1 do
  local id, due, record, level = task(j)
  local key = record_key(id)
  local result
  if may_add_directly and not (j == k and tried) and not (future_mode and due <= now)
      and not group_of(record) and not (windows or window_of(record)) and add_new(id, key, due, record, level) then
    result = 'added'
  else
    result, due = settle(id, key, due, record, level)
  end
  -- not for 'absent' / 'moving' (nothing was decided here: the id goes on to its new shard, or comes back), nor
  -- for 'past' (not added: an owed occurrence of that id must still fire)
  if once_mode and result ~= 'absent' and result ~= 'moving' and result ~= 'past' then
    redis.call('ZADD', ONCE, 'NX', now, id)
  end
  out[#out + 1] = result
  out[#out + 1] = due
end

if soonest ~= nil then
  mark(soonest)
end
return out
