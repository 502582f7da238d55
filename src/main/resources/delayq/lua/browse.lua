-- browse: one bounded page of one shard's tasks in one state, in (score, id) order after a position.
-- Read-only. The Java side (io.delayq.browse.TaskBrowser) merges the pages of all shards; the
-- position is global, so one cursor serves every shard.
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1]: state: 'scheduled' (due later), 'due' (due now, not claimed), 'inflight' (score = lease
--          expiry) or 'dead' (score = time of death)
-- ARGV[2]: position score ('' = from the start); ARGV[3]: position id. Entries at or before
--          (score, id) are skipped: ids with equal scores are ordered by their bytes, as Redis orders them
-- ARGV[4]: window start, inclusive ('' = none); ARGV[5]: window end, inclusive ('' = none)
-- ARGV[6]: id prefix ('' = any id)
-- ARGV[7]: limit, most matches to answer; ARGV[8]: scan budget, most entries read in all (shared by the
--          priority sets, capped at MAX_READ so that one call never holds Redis for more than a few ms)
-- ARGV[9]: most bytes of each record to answer (a preview, cut back to a UTF-8 character boundary)
-- Returns: {now, in window (entries of the state inside the window, before the prefix filter),
--           complete (1: nothing matches after the answered ones; 0: read on from the frontier),
--           frontier score, frontier id (the position up to which this answer is complete),
--           n, then per task: id, score, priority level, attempts (in flight: the attempt it is on, as
--           inspect.lua), last error, record preview, record bytes}
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua
--@include browse_order.lua

local now = server_now()
local MAX_READ = 5000
local args = browse_args(now, MAX_READ)
local state, limit, budget, preview = args.state, args.limit, args.budget, args.preview
local prefix, after_score, after_id, lo, hi = args.prefix, args.after_score, args.after_id, args.lo, args.hi
local plen = #prefix

local sets, levels = {}, {}
if state == 'scheduled' or state == 'due' then
  for _, level in ipairs(active_levels()) do
    sets[#sets + 1] = DUE[level]
    levels[#levels + 1] = level - 1
  end
  -- grouped tasks: every group's waiting tasks, in one set (include/groups.lua)
  if redis.call('EXISTS', GROUP_ALL) == 1 then
    sets[#sets + 1] = GROUP_ALL
    levels[#levels + 1] = 0
  end
elseif state == 'inflight' then
  sets[1] = INFLIGHT
elseif state == 'dead' then
  sets[1] = DEAD
else
  return redis.error_reply('ERR browse: unknown state ' .. tostring(state))
end

local in_window = 0
local found = {}            -- {score, id, level}
local frontier_s, frontier_id = nil, nil
local set_budget = math.max(1, math.floor(budget / #sets))
for k = 1, #sets do
  local key = sets[k]
  if lo <= hi then
    in_window = in_window + redis.call('ZCOUNT', key, lo, hi)
    local rank = 0
    if lo > -math.huge then rank = redis.call('ZCOUNT', key, '-inf', '(' .. lo) end
    if after_score then rank = math.max(rank, rank_after(key, after_score, after_id)) end
    local read, matched, done = 0, 0, false
    local last_s, last_id
    while not done and read < set_budget and matched < limit do
      local chunk = math.min(set_budget - read, 256)
      local page = redis.call('ZRANGE', key, rank, rank + chunk - 1, 'WITHSCORES')
      -- a short chunk ends the set only when it was read through: stopping at the limit inside it
      -- leaves the rest of the chunk unread
      local short, broke = #page < chunk * 2, false
      for i = 1, #page, 2 do
        local s = tonumber(page[i + 1])
        if s > hi then done = true break end
        local id = page[i]
        read = read + 1
        last_s, last_id = s, id
        if plen == 0 or string.sub(id, 1, plen) == prefix then
          matched = matched + 1
          found[#found + 1] = { s, id, levels[k] }
          if matched >= limit then broke = true break end
        end
      end
      if short and not broke then done = true end
      rank = rank + chunk
    end
    -- a set not read to its end is complete only up to the last entry read
    if not done and last_s and (frontier_s == nil or pos_less(last_s, last_id, frontier_s, frontier_id)) then
      frontier_s, frontier_id = last_s, last_id
    end
  end
end

table.sort(found, function(x, y) return pos_less(x[1], x[2], y[1], y[2]) end)
-- matches beyond the limit (several sets each found up to `limit`) are not answered: the answer is
-- then complete only up to the last one answered
if #found > limit then
  local f = found[limit]
  if frontier_s == nil or pos_less(f[1], f[2], frontier_s, frontier_id) then
    frontier_s, frontier_id = f[1], f[2]
  end
end

local out = { now, in_window, frontier_s and 0 or 1, frontier_s or -1, frontier_id or '', 0 }
local n = 0
for i = 1, #found do
  local f = found[i]
  if n >= limit or (frontier_s and pos_less(frontier_s, frontier_id, f[1], f[2])) then break end
  local id = f[2]
  local record = redis.call('HGET', record_key(id), id)
  local level = f[3]
  if level == nil then level = priority_of(record) end
  n = n + 1
  out[#out + 1] = id
  out[#out + 1] = f[1]
  out[#out + 1] = level
  out[#out + 1] = (tonumber(redis.call('HGET', ATTEMPTS, id)) or 0) + (state == 'inflight' and 1 or 0)
  out[#out + 1] = redis.call('HGET', ERRORS, id)
  out[#out + 1] = record and utf8_prefix(record, preview) or false
  out[#out + 1] = record and #record or -1
end
out[6] = n
return out
