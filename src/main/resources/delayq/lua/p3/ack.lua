-- ack (protocol 3): finish handled tasks. One HDEL per in-flight bucket; the in-flight name is the fence: a
-- bucket reclaimed after its lease expired was renamed away, so a late ack of its tasks removes nothing.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: nb (buckets); then per bucket: its in-flight name, c, then c pairs (id, the id's ix bucket h); then p
--          (absent = 0) and p ids whose handlers reported progress: their P..'progress' entries go with the ack;
--          then (absent = none) the completion records' keep ms and arguments per task, in the order above
--          (include/completion.lua: P..'done' and P..'done:at', protocol 2's keys and values); the acked ids' dedup
--          windows start (include/dedup.lua)
-- Returns: per bucket, in the order above: the number of its tasks acked (0 or c), or, where only some were (a rare
--          path: a task retried or acked before), a list of c flags (1 = acked)
--@include buckets.lua
--@include completion.lua
--@include dedup.lua

local P = KEYS[1]
local nb = tonumber(ARGV[1])
local i = 2
local out = {}
local ended, by_ix, errs = {}, {}, {}
for _ = 1, nb do
  local fname, c = ARGV[i], tonumber(ARGV[i + 1])
  local fkey = P .. 'f:' .. fname
  local ids = {}
  for k = 1, c do ids[k] = ARGV[i + 2 * k] end
  local d = redis.call('HDEL', fkey, unpack(ids))
  out[#out + 1] = d
  if d > 0 and d < c then out[#out] = {} end
  if d > 0 then
    -- a later attempt's task keeps its last error while it waits (inspect shows it); its ack forgets it
    local later = string.find(fname, '.n', 1, true) ~= nil
    for k = 1, c do
      local id, h = ids[k], ARGV[i + 1 + 2 * k]
      -- all of them were this claim's when all were deleted; otherwise (a task retried or acked before, a rare
      -- path) an id keeps its index entry while it waits somewhere else
      local mine = d == c
      if not mine then
        local due = redis.call('HGET', P .. 'ix:' .. h, id)
        mine = due ~= nil and due ~= false and due ~= '~' and find_waiting(P, id, tonumber(due, 36)) == nil
      end
      if d < c then out[#out][k] = mine and 1 or 0 end
      if mine and later then errs[#errs + 1] = id end
      if mine then
        local e = by_ix[h]
        if e == nil then e = {}; by_ix[h] = e end
        e[#e + 1] = id
      end
    end
    if redis.call('EXISTS', fkey) == 0 then ended[#ended + 1] = fname end
  end
  i = i + 2 + 2 * c
end
if #errs > 0 then redis.call('HDEL', P .. 'err', unpack(errs)) end
for h, e in pairs(by_ix) do redis.call('HDEL', P .. 'ix:' .. h, unpack(e)) end
if #ended > 0 then redis.call('ZREM', P .. 'lease', unpack(ended)) end
local p = tonumber(ARGV[i]) or 0
local keep_at = i + 1 + p
-- dedup windows of the acked tasks start now (include/dedup.lua; a queue without windows pays a ZCARD)
local windows = redis.call('ZCARD', DEDUP) > 0
if p == 0 and (tonumber(ARGV[keep_at]) or 0) <= 0 and not windows then return out end
-- the ids and whether each was acked, in the order of the arguments: only for progress, completion records or
-- dedup windows
local ids_in_order, acked_in_order, acked_ids, acked_list = {}, {}, {}, {}
local at = 2
for b = 1, nb do
  local c, answer = tonumber(ARGV[at + 1]), out[b]
  for k = 1, c do
    local id = ARGV[at + 2 * k]
    local acked = answer == c or (type(answer) == 'table' and answer[k] == 1)
    ids_in_order[#ids_in_order + 1] = id
    acked_in_order[#acked_in_order + 1] = acked
    if acked then
      acked_ids[id] = true
      acked_list[#acked_list + 1] = id
    end
  end
  at = at + 2 + 2 * c
end
if p > 0 then
  local reported = {}
  for j = 1, p do
    if acked_ids[ARGV[i + j]] then reported[#reported + 1] = ARGV[i + j] end
  end
  if #reported > 0 then redis.call('HDEL', P .. 'progress', unpack(reported)) end
end
if windows then dedup_settle(acked_list) end
keep_completions(P .. 'done', P .. 'done:at', ids_in_order, acked_in_order, keep_at)
return out
