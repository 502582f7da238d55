-- enqueue_policy (protocol 3): enqueue under a duplicate mode other than 'reject' (which enqueue.lua keeps on its
-- short path), with protocol 2's modes and answers.
-- KEYS[1]: the shard's prefix (include/buckets.lua); the once set is P..'once', protocol 2's key and rules
-- ARGV[1]: mode: 'replace' (a waiting or dead task gets the new time, record and level, as attempt 1; in flight:
--          'inflight') | 'keep-earlier' (a waiting task moves only to an earlier time, keeping its record; 'kept' /
--          'earlier'; dead: 'dead'; in flight: 'inflight') | 'future-only' (as reject, and a due time not after the
--          server's now is not added: 'past') | 'once' (as reject, and an id added in this mode within a week is a
--          'duplicate' even after it was acked) | 'future-once' (both: the cron planner's mode for occurrences ahead) |
--          'debounce' (include/debounce.lua: every record carries debounceMaxWaitMs; a waiting or dead task of the id
--          is replaced, due no later than its burst's deadline; in flight: 'inflight')
-- ARGV[2]: n; then per task (6 each, from ARGV[3 + 6k]): id, its ix bucket h, timing ('at' | 'in'), millis, record,
--          priority level (0..2; a record naming a group, JSON "group": that group's buckets, level 0)
-- ARGV[3 + 6n]: the caller's layout epoch (absent: 0); ARGV[4 + 6n]: where, 'present' to act only on ids this shard
--          holds (p3/enqueue.lua)
-- Returns: { now, then per task: status, due } (statuses as protocol 2's enqueue.lua, 'absent' and 'moving' too;
--          during a migration the old shard answers 'duplicate' in the once modes for an id its once set holds, even
--          when no task of it is left), or an error 'LAYOUT ...' (nothing written)
--@include buckets.lua
--@include dedup.lua
--@include debounce.lua
--@include wake.lua
--@include layout.lua
--@include group_name.lua
--@include shard_flags.lua

local P = KEYS[1]
local mode, n = ARGV[1], tonumber(ARGV[2])
local once_mode = mode == 'once' or mode == 'future-once'
local future_mode = mode == 'future-only' or mode == 'future-once'
local now = server_now()
local out = { now }
-- a week: far longer than any planner takes to come back to an occurrence it owes (protocol 2's enqueue.lua)
local ONCE_KEEP_MS = 7 * 86400000
local ONCE = P .. 'once'
if once_mode then
  local old = redis.call('ZRANGEBYSCORE', ONCE, '-inf', now - ONCE_KEEP_MS, 'LIMIT', 0, 100 + 2 * n)
  if #old > 0 then redis.call('ZREM', ONCE, unpack(old)) end
end
-- debounce: every record must carry its maximum wait; checked before anything is written
if mode == 'debounce' then
  for k = 0, n - 1 do
    if not max_wait_of(ARGV[3 + 6 * k + 4]) then
      return redis.error_reply('debounceMaxWaitMs: the debounce mode needs it in every record, 1 ms to 30 days (' .. DEDUP_MAX_MS .. ' ms)')
    end
  end
end
-- dedup windows, protocol 2's keys, a layout stamp (include/shard_flags.lua): one EXISTS on a shard with none
local windows = read_shard_flags(P)
local wrong_layout = epoch_problem(ARGV[3 + 6 * n])
if wrong_layout then return wrong_layout end
local present_only = ARGV[4 + 6 * n] == 'present'
-- An id protocol 2 may hold is adopted before it is looked up (include/legacy.lua). The adoption chain is defined only
-- on a shard that holds protocol 2's keys: a definition costs every call that runs it (defining the chain was a tenth
-- of a single enqueue's Redis time), and almost no shard holds them.
local adopt = function() end
if legacy_seen then
--@include crc32.lua
--@include dead.lua
--@include malformed.lua
--@include record_hash.lua
--@include legacy.lua
  adopt = adopt_id
end
-- a task whose record names a group waits in its group's buckets, at level 0 (include/group_name.lua)
local function put(id, ix, due, record, level, attempt, replacing)
  local group = group_of(record)
  if group then level = 0 end
  consider_wake(due, now, level, group)
  place(P, id, due, now, attempt, record, level, group)
  redis.call('HSET', ix, id, b36(due))
  note_window(id, record, windows and replacing)
end

-- what protocol 2 answers for a task in flight: its lease expiry (the due time if its bucket is not found)
local function lease_of(id, due)
  local _, expiry = find_flight(P, id, due)
  return expiry or due
end

-- a burst of one id keeps one task, due no later than the deadline its first enqueue fixed (protocol 2's answers)
local function debounce(id, ix, held, due, record, level)
  local deadline = now + max_wait_of(record)
  if held == '~' then
    redis.call('ZREM', P .. 'dead', id)
    redis.call('HDEL', P .. 'dv', id)
    redis.call('HDEL', P .. 'err', id)
  elseif held then
    local name = find_waiting(P, id, tonumber(held, 36))
    if not name then return 'inflight', lease_of(id, tonumber(held, 36)) end
    local _, stored = decode(name, redis.call('HGET', P .. 'b:' .. name, id))
    deadline = deadline_of(stored) or deadline
    unwait(P, name, id)
    redis.call('HDEL', P .. 'err', id)
  end
  if due > deadline then due = deadline end
  put(id, ix, due, with_deadline(record, deadline), level, 1, held ~= nil and held ~= false)
  return held and 'replaced' or 'added', due
end

local function settle(id, h, due, record, level)
  local ix = P .. 'ix:' .. h
  if windows then
    local ends = tonumber(redis.call('ZSCORE', DEDUP, id))
    if ends and ends > now then return 'window', ends end
  end
  adopt(P, id, h, now)
  local held = redis.call('HGET', ix, id)
  local running = not held and legacy_running(P, id)
  if not held and not running and (present_only or is_moving(id)) then
    if is_moving(id) then return 'moving', due end
    -- resharding: an occurrence this old shard recorded in the once mode stays refused, even when its task is gone
    if once_mode and redis.call('ZSCORE', ONCE, id) then return 'duplicate', due end
    return 'absent', due
  end
  if future_mode and due <= now then return 'past', due end
  if once_mode and redis.call('ZSCORE', ONCE, id) then return 'duplicate', due end
  if running then
    return (mode == 'replace' or mode == 'keep-earlier' or mode == 'debounce') and 'inflight' or 'duplicate', running
  end
  if mode == 'debounce' then return debounce(id, ix, held, due, record, level) end
  if not held then
    put(id, ix, due, record, level, 1, false)
    return 'added', due
  end
  if held == '~' then
    local died = tonumber(redis.call('ZSCORE', P .. 'dead', id)) or 0
    if mode == 'replace' then
      redis.call('ZREM', P .. 'dead', id)
      redis.call('HDEL', P .. 'dv', id)
      redis.call('HDEL', P .. 'err', id)
      put(id, ix, due, record, level, 1, true)
      return 'replaced', due
    end
    return mode == 'keep-earlier' and 'dead' or 'duplicate', died
  end
  local held_due = tonumber(held, 36)
  local name = find_waiting(P, id, held_due)
  if not name then
    return (mode == 'replace' or mode == 'keep-earlier') and 'inflight' or 'duplicate', lease_of(id, held_due)
  end
  if mode == 'replace' then
    unwait(P, name, id)
    redis.call('HDEL', P .. 'err', id)
    put(id, ix, due, record, level, 1, true)
    return 'replaced', due
  end
  if mode == 'keep-earlier' then
    if due >= held_due then return 'kept', held_due end
    local bkey = P .. 'b:' .. name
    local _, kept_record = decode(name, redis.call('HGET', bkey, id))
    local _, attempt, _, kept_level = parse_name(name)
    unwait(P, name, id)
    put(id, ix, due, kept_record, kept_level, attempt, false)
    return 'earlier', due
  end
  return 'duplicate', held_due
end

for k = 0, n - 1 do
  local a = 3 + 6 * k
  local id, h, millis, record, level = ARGV[a], ARGV[a + 1], tonumber(ARGV[a + 3]), ARGV[a + 4], tonumber(ARGV[a + 5])
  local due = ARGV[a + 2] == 'in' and now + millis or millis
  local result
  result, due = settle(id, h, due, record, level)
  -- not for 'past': not added, so an owed occurrence of that id must still fire; not for 'absent' / 'moving': nothing
  -- was decided here (the id goes on to its new shard, or comes back)
  if once_mode and result ~= 'past' and result ~= 'absent' and result ~= 'moving' then redis.call('ZADD', ONCE, 'NX', now, id) end
  out[#out + 1] = result
  out[#out + 1] = due
end
write_placed(P)
wake(P)
return out
