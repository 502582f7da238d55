-- bulk_preview (protocol 3): count one shard's waiting tasks that a bulk filter matches, and answer a sample,
-- changing nothing; protocol 2's arguments and answer (bulk_preview.lua). Bounded: reads about ARGV[9] tasks (capped
-- at 500, whole buckets); the caller calls again from the answered cursor until it reads "end".
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1..9]: the filter and the walk (p3/include/bulk_walk.lua)
-- ARGV[10]: cursor ('' = from the start); ARGV[11]: most matches to answer as the sample
-- Returns: {cursor ("end" when walked through), tasks read, matches, earliest due of a match (-1: none), latest due of
--           a match (-1: none), server now, n, then per sampled match: id, due}
--  or an error "LAYOUT ..." (the caller's epoch is not the shard's) or "MIGRATING ..." (a reshard is running)
--@include buckets.lua
--@include browse_order.lua
--@include bulk_cursor.lua
--@include bulk_walk.lua
--@include layout.lua

local wrong_layout = layout_problem(ARGV[1])
if wrong_layout then return wrong_layout end
if MIGRATING then return redis.error_reply('MIGRATING the queue is being resharded: bulk actions wait until it finishes') end

local sample_size = tonumber(ARGV[11]) or 0
local matched, earliest, latest = 0, -1, -1
-- a bucket's tasks come in no order, and the levels one after another: the call's earliest matches are the sample
local matches = {}
local cursor, read = bulk_walk(ARGV[10], function(task)
  matched = matched + 1
  if earliest < 0 or task.due < earliest then earliest = task.due end
  if task.due > latest then latest = task.due end
  matches[#matches + 1] = task
  return true
end)
table.sort(matches, function(a, b) return pos_less(a.due, a.id, b.due, b.id) end)
local n = math.min(sample_size, #matches)
local out = { cursor, read, matched, earliest, latest, bulk_now, n }
for i = 1, n do
  out[#out + 1] = matches[i].id
  out[#out + 1] = matches[i].due
end
return out
