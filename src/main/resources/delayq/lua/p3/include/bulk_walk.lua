-- The bounded walk of protocol 3's bulk_preview.lua and bulk_apply.lua over one shard's waiting tasks: protocol 2's
-- filter in the same ARGV slots (include/bulk_scan.lua: ARGV[1] layout epoch, checked by the scripts with
-- include/layout.lua; ARGV[2] state, [3] id prefix, [4]/[5] due window [from, to), [6] group, [7] level, [8] order, [9] budget)
-- over protocol 3's buckets. Needs buckets.lua, include/browse_order.lua and include/bulk_cursor.lua.
-- The sets, walked one after another: 1 the minutes (every level and group), 2..4 the window indexes of priority
-- levels 0..2, 5 the grouped windows (gidx; with a group filter only that group's, gx:<group>, and no set 2..4).
-- The minutes come first because the reclaim sweep and claims promote a minute into windows between two calls of a
-- job: a minute the walk has not reached yet lands in windows it has not walked either (one it has walked lands
-- there again, and the job's handled ids keep those from being acted on twice). Each set is walked by (start,
-- bucket name), ascending or, for 'desc', descending; a bucket is read whole
-- (HGETALL: about CAP tasks), so the budget ends a call only between two buckets. A cursor is "<set> <start>
-- <name>": the last bucket handled in that set; "<set>": that set from its start; "end" once the shard was walked
-- through; '' (none yet): from the start.
local BULK_MAX_READ = 500
local BULK_P = KEYS[1]
local BULK_CHUNK = 50
local bulk_now = server_now()
local bulk_prefix = ARGV[3]
local bulk_plen = #bulk_prefix
local bulk_lo = tonumber(ARGV[4]) or -math.huge
local bulk_hi = tonumber(ARGV[5]) or math.huge   -- exclusive
if ARGV[2] == 'scheduled' then bulk_lo = math.max(bulk_lo, bulk_now + 1)
elseif ARGV[2] == 'due' then bulk_hi = math.min(bulk_hi, bulk_now + 1) end
local bulk_level = tonumber(ARGV[7])
local bulk_group = ARGV[6] ~= '' and ARGV[6] or nil
local bulk_desc = ARGV[8] == 'desc'
local bulk_budget = math.min(tonumber(ARGV[9]) or BULK_MAX_READ, BULK_MAX_READ)

-- {set number, index, how long a bucket of it spans}
local bulk_sets = { { 1, 'cidx', COARSE } }
if not bulk_group then
  for level = 0, 2 do
    if bulk_level == nil or bulk_level == level then bulk_sets[#bulk_sets + 1] = { level + 2, WINDOW_INDEXES[level], W } end
  end
end
-- grouped tasks have priority 0 (as protocol 2's)
if bulk_level == nil or bulk_level == 0 then bulk_sets[#bulk_sets + 1] = { 5, bulk_group and 'gx:' .. bulk_group or 'gidx', W } end

-- One page of a set's buckets from the position, in walk order: {name, start, name, start, ...}.
local function bulk_page(key, span, at_start, at_name)
  if bulk_desc then
    local stop = redis.call('ZCOUNT', key, '-inf', '(' .. bulk_hi)
    if at_start then
      local r = rank_after(key, at_start, at_name)
      if tonumber(redis.call('ZSCORE', key, at_name)) == at_start then r = r - 1 end
      stop = math.min(stop, r)
    end
    if stop <= 0 then return {} end
    local page = redis.call('ZRANGE', key, math.max(0, stop - BULK_CHUNK), stop - 1, 'WITHSCORES')
    local reversed = {}
    for i = #page - 1, 1, -2 do
      reversed[#reversed + 1] = page[i]
      reversed[#reversed + 1] = page[i + 1]
    end
    return reversed
  end
  -- a bucket starting `span` or more before the window's start holds nothing inside it
  local from = bulk_lo > -math.huge and redis.call('ZCOUNT', key, '-inf', bulk_lo - span) or 0
  if at_start then from = math.max(from, rank_after(key, at_start, at_name)) end
  return redis.call('ZRANGE', key, from, from + BULK_CHUNK - 1, 'WITHSCORES')
end

-- Walks from `cursor`, calling visit(task) for every waiting task inside the filter, task = {id, due, record, name,
-- level, attempt, coarse, group}, until the budget is read or visit answers false (the caller's batch is full: the bucket it was in
-- is not counted as handled, and the next call walks it again, so visit must be able to see a task again and leave
-- it). visit may take the task out of its bucket. Answers the new cursor and the number of tasks read.
local function bulk_walk(cursor, visit)
  local at_set, at_start, at_name = bulk_cursor_parts(cursor)
  local read = 0
  for _, set in ipairs(bulk_sets) do
    local number, key, span = set[1], BULK_P .. set[2], set[3]
    if number >= at_set and bulk_lo < bulk_hi then
      local pos_start, pos_name = nil, nil
      if number == at_set then pos_start, pos_name = at_start, at_name end
      local finished = false
      while not finished do
        if read >= bulk_budget then return bulk_cursor(number, pos_start, pos_name), read end
        local page = bulk_page(key, span, pos_start, pos_name)
        finished = #page < 2 * BULK_CHUNK
        for i = 1, #page, 2 do
          local name, start = page[i], tonumber(page[i + 1])
          -- past the window's end (ascending) or before its start (descending): the set is done
          if (bulk_desc and start + span <= bulk_lo) or (not bulk_desc and start >= bulk_hi) then
            finished = true
            break
          end
          if read >= bulk_budget then return bulk_cursor(number, pos_start, pos_name), read end
          local _, attempt, coarse, level, group = parse_name(name)
          local flat = redis.call('HGETALL', BULK_P .. 'b:' .. name)
          read = read + #flat / 2
          if (bulk_level == nil or level == bulk_level) and (bulk_group == nil or group == bulk_group) then
            for j = 1, #flat, 2 do
              local id = flat[j]
              local due, record = decode(name, flat[j + 1])
              if due >= bulk_lo and due < bulk_hi and (bulk_plen == 0 or string.sub(id, 1, bulk_plen) == bulk_prefix) then
                local task = { id = id, due = due, record = record, name = name, level = level, attempt = attempt, coarse = coarse,
                               group = group }
                if visit(task) == false then return bulk_cursor(number, pos_start, pos_name), read end
              end
            end
          end
          pos_start, pos_name = start, name
        end
      end
    end
  end
  return 'end', read
end
