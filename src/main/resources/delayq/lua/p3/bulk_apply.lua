-- bulk_apply (protocol 3): one bounded batch of a bulk action on one shard's waiting tasks, protocol 2's arguments
-- and answer (bulk_apply.lua). The walk and the action run in one script call, so every task acted on is, at that
-- moment, waiting in the bucket the walk read it from: a task a worker claimed is no longer there and is left alone.
-- The shard's cursor for the job is kept in P..'bulk:'..job (HASH cursor, done, skipped, at), written by this same
-- call. A bucket is the walk's unit, and a task moved by the job may land in a bucket the walk reaches later (or in
-- the one a full batch left half done): the ids the job handled on this shard are kept in P..'bulk:'..job..':handled'
-- (SET, deleted once the shard is walked through), so no task is acted on, or counted, twice.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1..9]: the filter and the walk (p3/include/bulk_walk.lua)
-- ARGV[10]: job id (1..64 of [A-Za-z0-9-])
-- ARGV[11]: action: 'cancel' | 'reschedule' (due = ARGV[12]) | 'shift' (due += ARGV[12], signed) |
--           'run-now' (due = server now; a task already due is left as it is) | 'dead' (dead-letter, reason ARGV[13])
-- ARGV[12]: ms (reschedule: epoch ms; shift: signed ms); ARGV[13]: dead-letter reason
-- ARGV[14]: most tasks acted on in this call
-- ARGV[15]: '1' to answer the ids acted on (after the counts), else nothing more
-- Returns: {cursor ("end": the shard is done), tasks read, acted on now, skipped now (run-now: already due; a shift
--           past 9999-12-31 or before 1970), acted on in all, skipped in all}
--  or an error "LAYOUT ..." (the caller's epoch is not the shard's) or "MIGRATING ..." (a reshard is running)
--@include buckets.lua
--@include browse_order.lua
--@include bulk_cursor.lua
--@include bulk_walk.lua
--@include layout.lua
--@include wake.lua
--@include crc32.lua
--@include dedup.lua
--@include dead.lua

local wrong_layout = layout_problem(ARGV[1])
if wrong_layout then return wrong_layout end
if MIGRATING then return redis.error_reply('MIGRATING the queue is being resharded: bulk actions wait until it finishes') end

local P = KEYS[1]
local job, action, ms, reason = ARGV[10], ARGV[11], tonumber(ARGV[12]), ARGV[13]
local batch = tonumber(ARGV[14])
if not string.match(job, '^[%w%-]+$') or #job > 64 then return redis.error_reply('ERR bulk_apply: bad job id') end
local MAX_DUE = 253402300799999
local JOB_KEY = P .. 'bulk:' .. job
local HANDLED = JOB_KEY .. ':handled'
local state = redis.call('HMGET', JOB_KEY, 'cursor', 'done', 'skipped')
local done_before, skipped_before = tonumber(state[2]) or 0, tonumber(state[3]) or 0
if state[1] == 'end' then return { 'end', 0, 0, 0, done_before, skipped_before } end

local acted, skipped = 0, 0
local report = ARGV[15] == '1'
local acted_ids = {}

-- the due time the action gives a task, or nil when it leaves the task as it is (skipped: `true` as second value)
local function target(task)
  local due = ms
  if action == 'run-now' then due = bulk_now elseif action == 'shift' then due = task.due + ms end
  if action == 'run-now' and task.due <= bulk_now then return nil, true end
  if due < 0 or due > MAX_DUE then return nil, true end
  return due, false
end

local cursor, read = bulk_walk(state[1] or '', function(task)
  local id = task.id
  if redis.call('SISMEMBER', HANDLED, id) == 1 then return true end
  if acted >= batch then return false end
  local h = crc32(id) % IXB
  if action == 'cancel' then
    unwait(P, task.name, id)
    redis.call('HDEL', P .. 'ix:' .. h, id)
    redis.call('HDEL', P .. 'err', id)
    dedup_settle({ id }, bulk_now)
  elseif action == 'dead' then
    unwait(P, task.name, id)
    dead_letter(P, id, h, task.record, reason, bulk_now, task.attempt - 1)
  else
    local due, skip = target(task)
    -- already at the target (an absolute time the walk reaches again): neither acted nor skipped
    if due == task.due then
      redis.call('SADD', HANDLED, id)
      return true
    end
    if skip then
      skipped = skipped + 1
      redis.call('SADD', HANDLED, id)
      return true
    end
    unwait(P, task.name, id)
    consider_wake(due, bulk_now, task.level, task.group)
    place(P, id, due, bulk_now, task.attempt, task.record, task.level, task.group)
    redis.call('HSET', P .. 'ix:' .. h, id, b36(due))
    redis.call('SADD', HANDLED, id)
  end
  acted = acted + 1
  if report then acted_ids[acted] = id end
  return true
end)
write_placed(P)
wake(P)
if cursor == 'end' then redis.call('DEL', HANDLED) end
redis.call('HSET', JOB_KEY, 'cursor', cursor, 'done', done_before + acted, 'skipped', skipped_before + skipped, 'at', bulk_now)
local out = { cursor, read, acted, skipped, done_before + acted, skipped_before + skipped }
for i = 1, #acted_ids do out[6 + i] = acted_ids[i] end
return out
