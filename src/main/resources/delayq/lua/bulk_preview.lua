-- bulk_preview: count one shard's waiting tasks that a bulk filter matches, and answer a sample, changing
-- nothing. Bounded: reads at most ARGV[9] entries (capped at 500); the caller calls again from the answered
-- cursor until it reads "end".
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- ARGV[1..9]: the filter and the walk (see include/bulk_scan.lua)
-- ARGV[10]: cursor ('' = from the start); ARGV[11]: most matches to answer as the sample
-- Returns: {cursor ("end" when walked through), entries read, matches, earliest due of a match (-1: none),
--           latest due of a match (-1: none), server now, n, then per sampled match: id, due}
--  or an error "LAYOUT ..." (the caller's epoch is not the shard's) or "MIGRATING ..." (a reshard is running)
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua
--@include layout.lua
--@include bulk_cursor.lua
--@include bulk_scan.lua

local wrong_layout = layout_problem(ARGV[1])
if wrong_layout then return wrong_layout end
if MIGRATING then return redis.error_reply('MIGRATING the queue is being resharded: bulk actions wait until it finishes') end

local sample_size = tonumber(ARGV[11]) or 0
local matched, earliest, latest = 0, -1, -1
local sample = {}
local cursor, read = bulk_walk(ARGV[10], function(_, score, id)
  matched = matched + 1
  if earliest < 0 or score < earliest then earliest = score end
  if score > latest then latest = score end
  if #sample < sample_size * 2 then
    sample[#sample + 1] = id
    sample[#sample + 1] = score
  end
  return true
end)
local out = { cursor, read, matched, earliest, latest, bulk_now, #sample / 2 }
for i = 1, #sample do out[#out + 1] = sample[i] end
return out
