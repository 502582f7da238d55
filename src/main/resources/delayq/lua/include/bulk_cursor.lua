-- A bulk walk's cursor, for protocol 2's include/bulk_scan.lua and protocol 3's p3/include/bulk_walk.lua: "<set>
-- <score> <member>" (the last entry handled in set number <set>: a task and its due time, or a bucket and its start),
-- "<set>" alone (that set from its start), "end" once the shard was walked through, '' (none yet): from the start.
local function bulk_cursor(number, score, member)
  if score == nil then return tostring(number) end
  return number .. ' ' .. string.format('%.17g', score) .. ' ' .. member
end

-- the set number, score and member a cursor names (0, nil, nil: from the start)
local function bulk_cursor_parts(cursor)
  if cursor == '' then return 0, nil, nil end
  local n, s, member = string.match(cursor, '^(%d+) (%S+) (.*)$')
  if n then return tonumber(n), tonumber(s), member end
  return tonumber(cursor) or 0, nil, nil
end
