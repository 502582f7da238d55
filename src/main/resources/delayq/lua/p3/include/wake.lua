-- The wake-up marker of an enqueue (P..'marker', as protocol 2's): a task placed in a bucket whose window (or minute)
-- is now the earliest of its index wakes a sleeping worker for that window's start. The start, not the task's due
-- time: a claim takes the window whole, so a later task of the window due sooner is taken with it, never left
-- waiting for the first one's due time. A call that listed no new bucket in an index placed its tasks in buckets
-- already listed there, and whoever listed those decided whether to wake: so an index's head is read only when this
-- call listed a new bucket in it (needs buckets.lua; wake after write_placed). A group's window is weighed against the
-- rotation instead, as protocol 2's enqueue weighs a grouped task: it wakes when it starts before the earliest turn
-- the call found (another group's older window may wait behind its rate limit; `gidx`'s head says nothing then).
local placed_starts = {}  -- index -> set of the window or minute starts this call placed tasks in
local first_turn          -- the earliest turn in P..'groups' before this call placed anything (false: none)
local grouped_wake        -- the earliest grouped window this call placed that starts before it
local function consider_wake(due, now, level, group)
  local coarse = due - now >= HORIZON  -- as place decides
  if group and not coarse then
    if first_turn == nil then
      first_turn = tonumber(redis.call('ZRANGE', KEYS[1] .. 'groups', 0, 0, 'WITHSCORES')[2]) or false
    end
    local start = due - due % W
    if (not first_turn or start < first_turn) and (grouped_wake == nil or start < grouped_wake) then grouped_wake = start end
    return
  end
  local ix = index_of(coarse, level, group)
  local starts = placed_starts[ix]
  if starts == nil then starts = {}; placed_starts[ix] = starts end
  starts[due - due % (coarse and COARSE or W)] = true
end

local function wake(P)
  local soonest = grouped_wake
  for ix, starts in pairs(placed_starts) do
    if (newly_listed[ix] or 0) > 0 then
      local head = tonumber(redis.call('ZRANGE', P .. ix, 0, 0, 'WITHSCORES')[2])
      if head and starts[head] and (soonest == nil or head < soonest) then soonest = head end
    end
  end
  if soonest then redis.call('ZADD', P .. 'marker', 'LT', soonest, 'next') end
end
