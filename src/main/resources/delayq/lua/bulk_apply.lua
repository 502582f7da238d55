-- bulk_apply: one bounded batch of a bulk action on one shard's waiting tasks (docs/protocol.md, "Bulk actions").
-- The walk and the action run in one script call, so every task acted on is, at that moment, waiting in the
-- due set the walk read it from under the score it read: a task a worker claimed is no longer there and is left
-- alone; one claimed after this call was changed before it was claimed. The shard's cursor for the job is kept in
-- dq:{q:i}:bulk:<job> (HASH cursor, done, skipped), written by this same call, so a batch is never applied twice.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1..9]: the filter and the walk (see include/bulk_scan.lua)
-- ARGV[10]: job id (1..64 of [A-Za-z0-9-])
-- ARGV[11]: action: 'cancel' | 'reschedule' (due = ARGV[12]) | 'shift' (due += ARGV[12], signed) |
--           'run-now' (due = server now; a task already due is left as it is) | 'dead' (dead-letter, reason ARGV[13])
-- ARGV[12]: ms (reschedule: epoch ms; shift: signed ms); ARGV[13]: dead-letter reason
-- ARGV[14]: most tasks acted on in this call
-- ARGV[15]: '1' to answer the ids acted on (after the counts), else nothing more
-- Returns: {cursor ("end": the shard is done), entries read, acted on now, skipped now (run-now: already due;
--           a shift past 9999-12-31 or before 1970), acted on in all, skipped in all}
--  or an error "LAYOUT ..." / "MIGRATING ..." (nothing done)
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua
--@include layout.lua
--@include dedup.lua
--@include dead.lua
--@include bulk_cursor.lua
--@include bulk_scan.lua

local wrong_layout = layout_problem(ARGV[1])
if wrong_layout then return wrong_layout end
if MIGRATING then return redis.error_reply('MIGRATING the queue is being resharded: bulk actions wait until it finishes') end

local job, action, ms, reason = ARGV[10], ARGV[11], tonumber(ARGV[12]), ARGV[13]
local batch = tonumber(ARGV[14])
if not string.match(job, '^[%w%-]+$') or #job > 64 then return redis.error_reply('ERR bulk_apply: bad job id') end
local MAX_DUE = 253402300799999
local JOB_KEY = SHARD_PREFIX .. 'bulk:' .. job
local state = redis.call('HMGET', JOB_KEY, 'cursor', 'done', 'skipped')
local done_before, skipped_before = tonumber(state[2]) or 0, tonumber(state[3]) or 0
if state[1] == 'end' then return { 'end', 0, 0, 0, done_before, skipped_before } end

local acted, skipped, earliest = 0, 0, nil
local report = ARGV[15] == '1'
local acted_ids = {}
local settle = {}
local function remove(set, id)
  if set[1] <= 3 then
    redis.call('ZREM', set[2], id)
    return true
  end
  local g = set[4] or group_of(redis.call('HGET', record_key(id), id))
  if not g then return false end
  redis.call('ZREM', group_due(g), id)
  redis.call('ZREM', GROUP_ALL, id)
  settle[g] = true
  return true
end
local function move(set, id, due)
  if set[1] <= 3 then
    redis.call('ZADD', set[2], due, id)
  else
    local g = set[4] or group_of(redis.call('HGET', record_key(id), id))
    if not g then return false end
    redis.call('ZADD', group_due(g), due, id)
    redis.call('ZADD', GROUP_ALL, due, id)
    settle[g] = true
  end
  if earliest == nil or due < earliest then earliest = due end
  return true
end

local cursor, read = bulk_walk(state[1] or '', function(set, score, id)
  if acted >= batch then return false end
  local ok
  if action == 'cancel' then
    ok = remove(set, id)
    if ok then
      forget({ id })
      dedup_settle({ id }, bulk_now)
    end
  elseif action == 'dead' then
    ok = remove(set, id)
    if ok then kill(id, bulk_now, reason) end
  else
    local due = ms
    if action == 'run-now' then due = bulk_now elseif action == 'shift' then due = score + ms end
    -- already at the target (an absolute time ahead of the cursor is walked past again): neither acted nor skipped
    if due == score and action ~= 'run-now' then return true end
    if (action == 'run-now' and score <= bulk_now) or due < 0 or due > MAX_DUE then
      ok = false
    else
      ok = move(set, id, due)
    end
  end
  if ok then
    acted = acted + 1
    if report then acted_ids[acted] = id end
  else
    skipped = skipped + 1
  end
  return true
end)
for g in pairs(settle) do group_settle(g, bulk_now) end
if earliest then mark(earliest) end
redis.call('HSET', JOB_KEY, 'cursor', cursor, 'done', done_before + acted, 'skipped', skipped_before + skipped, 'at', bulk_now)
local out = { cursor, read, acted, skipped, done_before + acted, skipped_before + skipped }
for i = 1, #acted_ids do out[6 + i] = acted_ids[i] end
return out
