-- The wake-up marker of an enqueue (P..'marker', as protocol 2's): a task placed in a bucket whose window (or minute)
-- is now the earliest of its index wakes a sleeping worker. A call that listed no new bucket in an index placed its
-- tasks in buckets already listed there, and whoever listed those decided whether to wake: so an index's head is read
-- only when this call listed a new bucket in it (needs buckets.lua; wake after write_placed).
local placed_starts = {}  -- index -> { window or minute start -> the earliest due time placed there }
local function consider_wake(due, now, level)
  local coarse = due - now >= HORIZON  -- as place decides
  local start = due - due % (coarse and COARSE or W)
  local ix = index_of(coarse, level)
  local starts = placed_starts[ix]
  if starts == nil then starts = {}; placed_starts[ix] = starts end
  if starts[start] == nil or due < starts[start] then starts[start] = due end
end

local function wake(P)
  local soonest
  for ix, starts in pairs(placed_starts) do
    if (newly_listed[ix] or 0) > 0 then
      local head = redis.call('ZRANGE', P .. ix, 0, 0, 'WITHSCORES')
      local due = starts[tonumber(head[2])]
      if due and (soonest == nil or due < soonest) then soonest = due end
    end
  end
  if soonest then redis.call('ZADD', P .. 'marker', 'LT', soonest, 'next') end
end
