-- Groups (fairness between tenants, docs/protocol.md "Groups"): a task may name a group (the record's JSON
-- field "group"). A grouped task waits in its group's own due set, not in the priority sets, so that a claim
-- reaches the due head of every group in a bounded number of calls however many tasks another group has due
-- (one due set would hide a quiet tenant's task behind a noisy tenant's 100,000). Keys, in the shard's slot:
--   GROUPS        dq:{q:i}:groups     ZSET group -> turn: the group may be served once its turn <= now. The turn
--                                     is the group's head due time, or, after the group was served, the claim's
--                                     now (behind every group still waiting: round robin), or when its rate
--                                     limit next has a token; a group with nothing waiting is not in it
--   group_due(g)  dq:{q:i}:group:<g>  ZSET id -> due time: the waiting tasks of group g
--   GROUP_ALL     dq:{q:i}:due:g      ZSET id -> due time of every grouped task waiting: what stats, browse, the
--                                     mover and the oldest-overdue figure read (one set, not one per group)
--   GROUP_RATE    dq:{q:i}:grate      HASH group -> "<tokens> <at ms>": token buckets of the per-group rate limit
-- Derived from TASKS like the record buckets (same hash tag: same Cluster slot), so every caller keeps passing
-- the same ten KEYS. Include after shard_keys.lua and group_name.lua (group_of), and before common.lua (whose locate and
-- requeue use these).
local GROUP_PREFIX = string.sub(TASKS, 1, -6)    -- 'dq:{q:i}:' ('tasks' cut off)
local GROUPS = GROUP_PREFIX .. 'groups'
local GROUP_ALL = GROUP_PREFIX .. 'due:g'
local GROUP_RATE = GROUP_PREFIX .. 'grate'

local group_keys = {}
local function group_due(g)
  local key = group_keys[g]
  if key == nil then
    key = GROUP_PREFIX .. 'group:' .. g
    group_keys[g] = key
  end
  return key
end

-- A task joins (or moves within) group g. A group already due keeps its place in the rotation; one not due
-- yet takes the new head as its turn when that is sooner.
local function group_add(id, g, due, now)
  redis.call('ZADD', group_due(g), due, id)
  redis.call('ZADD', GROUP_ALL, due, id)
  local turn = tonumber(redis.call('ZSCORE', GROUPS, g))
  if not turn or (due < turn and turn > now) then redis.call('ZADD', GROUPS, due, g) end
end

-- After group g's head changed other than by a claim (cancel, reschedule, the mover): its turn follows it.
local function group_settle(g, now)
  local head = redis.call('ZRANGE', group_due(g), 0, 0, 'WITHSCORES')
  if not head[2] then
    redis.call('ZREM', GROUPS, g)
    return
  end
  local h = tonumber(head[2])
  local turn = tonumber(redis.call('ZSCORE', GROUPS, g))
  if not turn or h > now or turn > now then redis.call('ZADD', GROUPS, h, g) end
end

local function group_remove(id, g, now)
  redis.call('ZREM', group_due(g), id)
  redis.call('ZREM', GROUP_ALL, id)
  group_settle(g, now)
end

-- Takes a waiting task out of the set locate() found it in (g: its group, else the due set of `level`).
local function due_remove(id, level, g, now)
  if g then group_remove(id, g, now) else redis.call('ZREM', DUE[level + 1], id) end
end
