-- Where a task is: 'due' (with its priority level, and its group when it waits in a group's set,
-- include/groups.lua), 'inflight', 'dead', or nil: state, level, score, group.
-- Every task except one written by a bare ZADD into DUE[1] has a record, so the common
-- "new id" case costs two lookups instead of five. `key` is record_key(id) when the caller has it.
local function locate(id, key)
  local score
  local record = redis.call('HGET', key or record_key(id), id)
  if not record then
    score = redis.call('ZSCORE', DUE[1], id)
    if score then return 'due', 0, tonumber(score) end
    return nil
  end
  local g = group_of(record)
  if g then
    score = redis.call('ZSCORE', group_due(g), id)
    if score then return 'due', 0, tonumber(score), g end
  end
  for level = 3, 1, -1 do
    score = redis.call('ZSCORE', DUE[level], id)
    if score then return 'due', level - 1, tonumber(score) end
  end
  score = redis.call('ZSCORE', INFLIGHT, id)
  if score then return 'inflight', nil, tonumber(score) end
  score = redis.call('ZSCORE', DEAD, id)
  if score then return 'dead', nil, tonumber(score) end
  return nil
end

-- The priority levels to read, highest first: level 0 always, 1 and 2 only while their sets exist.
-- Most queues never use priorities, and one EXISTS costs less than reading two empty sets twice
-- (each redis.call from a script costs about a microsecond beyond the command's own work).
local ALL_LEVELS = { 3, 2, 1 }
local function active_levels()
  local present = redis.call('EXISTS', DUE[2], DUE[3])
  if present == 0 then return { 1 } end
  if present == 2 then return ALL_LEVELS end
  if redis.call('EXISTS', DUE[3]) == 1 then return { 3, 1 } end
  return { 2, 1 }
end

-- Earliest due time over the given priority levels (all of them by default) and the groups' turns
-- (include/groups.lua: a group's turn is when it may next be served), or nil when nothing waits.
-- skip_groups: the caller knows that no group waits.
local function earliest_due(levels, skip_groups)
  local best
  for _, level in ipairs(levels or ALL_LEVELS) do
    local first = redis.call('ZRANGE', DUE[level], 0, 0, 'WITHSCORES')
    if first[2] then
      local s = tonumber(first[2])
      if best == nil or s < best then best = s end
    end
  end
  if not skip_groups then
    local turn = redis.call('ZRANGE', GROUPS, 0, 0, 'WITHSCORES')
    if turn[2] and (best == nil or tonumber(turn[2]) < best) then best = tonumber(turn[2]) end
  end
  return best
end

-- Priority level stored in the record. Two forms (TaskRecord): compact "<level digit><enqueuedAt
-- base 36>:<payload>" written by delayq's clients, and the v1 JSON object that hand-written producers
-- use. Absent records and anything unreadable count as level 0.
local function priority_of(record)
  if not record or record == '' then return 0 end
  local first = string.byte(record, 1)
  if first ~= 123 then -- not '{': compact form, the level is the first byte
    if first == 49 then return 1 end
    if first == 50 then return 2 end
    return 0
  end
  local ok, decoded = pcall(cjson.decode, record)
  if not ok or type(decoded) ~= 'table' then return 0 end
  local p = tonumber(decoded['priority'])
  if p == nil or p < 0 then return 0 end
  if p > 2 then return 2 end
  return math.floor(p)
end

-- Puts a task that has a record back into its group's set or the due set of its priority level
-- (retry, reclaim, replay); now: the server clock (default: due).
local function requeue(id, due, now)
  local record = redis.call('HGET', record_key(id), id)
  local g = group_of(record)
  if g then
    group_add(id, g, due, now or due)
    return
  end
  redis.call('ZADD', DUE[priority_of(record) + 1], due, id)
end

-- The attempts and last errors of finished tasks (their records are deleted by the caller); ack.lua passes
-- only the tasks that have them.
local function forget_counts(ids)
  redis.pcall('HDEL', ATTEMPTS, unpack(ids))
  redis.pcall('HDEL', ERRORS, unpack(ids))
end

-- Deletes the records, attempts and errors of finished tasks: one HDEL per record bucket touched.
local function forget(ids)
  if #ids == 0 then return end
  local by_bucket, buckets = {}, {}
  for i = 1, #ids do
    local key = record_key(ids[i])
    local group = by_bucket[key]
    if group == nil then
      group = {}
      by_bucket[key] = group
      buckets[#buckets + 1] = key
    end
    group[#group + 1] = ids[i]
  end
  for i = 1, #buckets do
    -- pcall here and below: a key a producer overwrote with another type holds nothing of these tasks to
    -- delete, and must not fail the ack of tasks already done
    redis.pcall('HDEL', buckets[i], unpack(by_bucket[buckets[i]]))
  end
  forget_counts(ids)
end
