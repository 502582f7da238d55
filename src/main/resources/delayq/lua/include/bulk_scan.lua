-- The bounded walk of bulk_preview.lua and bulk_apply.lua over one shard's waiting tasks (docs/protocol.md,
-- "Bulk actions"): the due sets of the three priority levels, every grouped task (or one group's set), in
-- (score, id) order from a cursor, reading at most `budget` entries per call. Include after shard_keys.lua,
-- groups.lua, common.lua and bulk_cursor.lua. The filter arrives in the same ARGV slots in both scripts:
--   ARGV[1]: the caller's layout epoch        ARGV[2]: state: 'all' | 'scheduled' (due later) | 'due' (due now)
--   ARGV[3]: id prefix ('' = any)             ARGV[4]: window start ms, inclusive ('' = none)
--   ARGV[5]: window end ms, exclusive ('' = none)
--   ARGV[6]: group ('' = any task, grouped or not)   ARGV[7]: priority level 0..2 ('' = any)
--   ARGV[8]: 'asc' | 'desc' (the order a shift later in time needs, so that a moved task lands behind the cursor)
--   ARGV[9]: most entries read in this call (capped at BULK_MAX_READ)
-- A cursor is "<set> <score> <id>": the last entry handled in set number <set> (1..3 the priority levels'
-- due sets, 4 every grouped task, 5 the one group asked for); "<set>" alone: that set from its start; "end" once
-- the shard was walked through; '' (none yet): from the start.
local BULK_MAX_READ = 500
local BULK_CHUNK = 100
local bulk_now = server_now()
local bulk_state, bulk_prefix = ARGV[2], ARGV[3]
local bulk_plen = #bulk_prefix
local bulk_lo = tonumber(ARGV[4]) or -math.huge
local bulk_hi = tonumber(ARGV[5]) or math.huge   -- exclusive
if bulk_state == 'scheduled' then bulk_lo = math.max(bulk_lo, bulk_now + 1)
elseif bulk_state == 'due' then bulk_hi = math.min(bulk_hi, bulk_now + 1) end
local bulk_group = ARGV[6] ~= '' and ARGV[6] or nil
local bulk_level = tonumber(ARGV[7])
local bulk_desc = ARGV[8] == 'desc'
local bulk_budget = math.min(tonumber(ARGV[9]) or BULK_MAX_READ, BULK_MAX_READ)

-- The sets to walk, by set number: {number, key, level, group}.
local bulk_sets = {}
if bulk_group then
  if bulk_level == nil or bulk_level == 0 then bulk_sets[1] = { 5, group_due(bulk_group), 0, bulk_group } end
else
  for level = 0, 2 do
    if bulk_level == nil or bulk_level == level then bulk_sets[#bulk_sets + 1] = { level + 1, DUE[level + 1], level } end
  end
  if bulk_level == nil or bulk_level == 0 then bulk_sets[#bulk_sets + 1] = { 4, GROUP_ALL, 0 } end
end

-- Byte order of two ids, as Redis sorts equal scores (Lua's < on strings follows the locale).
local function bulk_id_less(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = byte(a, i), byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

-- How many entries of `key` sort before (score, id), or at or before it when `inclusive`: O(log n) calls, a
-- binary search over the ids sharing the score (a million tasks due in one millisecond cost ~20 ZRANGEs).
local function bulk_rank(key, score, id, inclusive)
  local before = redis.call('ZCOUNT', key, '-inf', '(' .. score)
  local same = redis.call('ZCOUNT', key, score, score)
  if same == 0 then return before end
  local s = redis.call('ZSCORE', key, id)
  if s and tonumber(s) == score then return redis.call('ZRANK', key, id) + (inclusive and 1 or 0) end
  local a, b = before, before + same
  while a < b do
    local mid = math.floor((a + b) / 2)
    local m = redis.call('ZRANGE', key, mid, mid)[1]
    if bulk_id_less(id, m) then b = mid else a = mid + 1 end
  end
  return a
end

-- Walks from `cursor` ('' = the start), calling visit(set, score, id) for every entry inside the window whose id has
-- the prefix, until the budget is read or visit answers false (the caller's batch is full: that entry is not
-- handled and the cursor stays before it). visit may remove or move the entry. Answers the new cursor and the
-- number of entries read.
local function bulk_walk(cursor, visit)
  local at_set, at_score, at_id = bulk_cursor_parts(cursor)
  local read = 0
  for _, set in ipairs(bulk_sets) do
    local number, key = set[1], set[2]
    if number >= at_set and bulk_lo < bulk_hi then
      local pos_score, pos_id = nil, nil
      if number == at_set then pos_score, pos_id = at_score, at_id end
      local finished = false
      while not finished do
        if read >= bulk_budget then return bulk_cursor(number, pos_score, pos_id), read end
        local chunk = math.min(BULK_CHUNK, bulk_budget - read)
        local page, from_rank
        if bulk_desc then
          local stop = redis.call('ZCOUNT', key, '-inf', '(' .. bulk_hi)
          if pos_score then stop = math.min(stop, bulk_rank(key, pos_score, pos_id, false)) end
          from_rank = math.max(0, stop - chunk)
          page = stop > 0 and redis.call('ZRANGE', key, from_rank, stop - 1, 'WITHSCORES') or {}
        else
          from_rank = bulk_lo > -math.huge and redis.call('ZCOUNT', key, '-inf', '(' .. bulk_lo) or 0
          if pos_score then from_rank = math.max(from_rank, bulk_rank(key, pos_score, pos_id, true)) end
          page = redis.call('ZRANGE', key, from_rank, from_rank + chunk - 1, 'WITHSCORES')
        end
        if #page < chunk * 2 then finished = true end
        local first, last, step = 1, #page - 1, 2
        if bulk_desc then first, last, step = #page - 1, 1, -2 end
        for i = first, last, step do
          local id, s = page[i], tonumber(page[i + 1])
          if s >= bulk_hi or s < bulk_lo then finished = true break end
          if bulk_plen == 0 or string.sub(id, 1, bulk_plen) == bulk_prefix then
            if visit(set, s, id) == false then return bulk_cursor(number, pos_score, pos_id), read end
          end
          read = read + 1
          pos_score, pos_id = s, id
        end
        if #page == 0 then finished = true end
      end
    end
  end
  return 'end', read
end
