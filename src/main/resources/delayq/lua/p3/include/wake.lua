-- The wake-up marker of an enqueue: a task earlier than everything its level held before the call wakes a sleeping
-- worker (P..'marker', as protocol 2's). Each level's head is read once, before anything is placed (needs buckets.lua).
local heads, soonest = {}, nil
local function consider_wake(P, due, level)
  local head = heads[level]
  if head == nil then
    local first = redis.call('ZRANGE', P .. index_of(false, level), 0, 0, 'WITHSCORES')
    head = tonumber(first[2]) or math.huge
    heads[level] = head
  end
  if due - due % W < head and (soonest == nil or due < soonest) then soonest = due end
end

local function wake(P)
  if soonest then redis.call('ZADD', P .. 'marker', 'LT', soonest, 'next') end
end
