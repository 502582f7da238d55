-- inspect: everything known about one task, read atomically.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1]: id, ARGV[2]: the caller's layout epoch (absent: 0; include/layout.lua)
-- Returns: {now, state ("scheduled" | "inflight" | "dead" | "succeeded" | "unknown" | "moving": retry), score (due
--           time, lease expiry, time of death or, succeeded, time it finished; -1 when unknown), priority level,
--           attempts (in flight: the attempt it is on, ATTEMPTS + 1; otherwise the attempts made; succeeded: those of
--           its completion record), last error, record, progress ("<at ms>|<percent>|<note>" as its handler last
--           reported it, in flight only; false when none), completion record ("<finished ms>|<attempts>|<handler ms>|
--           <truncated 0/1>|<worker>|<result>", kept after an ack while the worker keeps results; false when none).
--           "succeeded": no task of this id waits, runs or is dead, but a completion record is kept; a task that
--           does (the id was enqueued again) answers its own state, with the earlier run's completion record beside it}
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua
--@include layout.lua

local wrong_layout = layout_problem(ARGV[2])
if wrong_layout then return wrong_layout end

local id = ARGV[1]
local now = server_now()
local key = record_key(id)
local state, level, score = locate(id, key)
local completion = redis.call('HGET', DONE, id)
if state == nil then
  if is_moving(id) then return { now, 'moving', -1, 0, 0, false, false, false, false } end
  if completion then
    local finished, attempts = string.match(completion, '^(%d+)|(%d+)|')
    return { now, 'succeeded', tonumber(finished) or -1, 0, tonumber(attempts) or 0, false, false, false, completion }
  end
  return { now, 'unknown', -1, 0, 0, false, false, false, false }
end
local record = redis.call('HGET', key, id)
if state == 'due' then state = 'scheduled' else level = priority_of(record) end
local attempts = tonumber(redis.call('HGET', ATTEMPTS, id)) or 0
local progress = false
if state == 'inflight' then
  attempts = attempts + 1 -- ATTEMPTS holds the attempts that ended
  progress = redis.call('HGET', PROGRESS, id)
end
return { now, state, score, level, attempts,
         redis.call('HGET', ERRORS, id), record, progress, completion }
