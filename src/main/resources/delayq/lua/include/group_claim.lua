-- The claim's side of groups (include/groups.lua) on protocol 2: which tasks of the plain due set and of the due groups
-- one claim takes (the round itself is include/group_round.lua's, shared with protocol 3), and the groups' turns and
-- token buckets afterwards. Include after common.lua, malformed.lua and group_round.lua.
-- A group's set becomes DUE[level] for a level > 3 for the rest of the claim, so that claim.lua takes, checks,
-- removes and (on a failed claim) restores its tasks like those of a priority level.
-- All of it is made by group_claim(), called only by a claim that serves groups: a script call creates every
-- closure and table of its includes, and these cost ~0.7 µs per claim that no group needs.
local function group_claim()
  local claim_group = {}          -- level (> 3) -> group
  local level_of = {}             -- group -> level

  local function group_level(g)
    local level = level_of[g]
    if level then return level end
    level = #DUE + 1
    DUE[level] = group_due(g)
    claim_group[level] = g
    level_of[g] = level
    return level
  end

  -- the takes, in order: {level, {id, score, ...}}; tasks stay in their sets until the claim has read them all
  local takes
  local now
  local round = group_round(GROUPS, GROUP_RATE, {
    plain_due = function()
      return redis.call('ZRANGEBYSCORE', DUE[1], '-inf', now, 'LIMIT', 0, 1)[1] ~= nil
    end,
    take = function(g, skip, want)
      local level = g and group_level(g) or 1
      local found = redis.call('ZRANGEBYSCORE', DUE[level], '-inf', now, 'WITHSCORES', 'LIMIT', skip, want)
      if #found > 0 then takes[#takes + 1] = { level, found } end
      return #found / 2
    end,
    head = function(g)
      return tonumber(redis.call('ZRANGE', DUE[group_level(g)], 0, 0, 'WITHSCORES')[2])
    end,
  })

  -- The round (include/group_round.lua) over the plain due set and the due groups. Returns {level, {id, score, ...}}
  -- per take.
  local function fair_takes(room, at, rate, burst, weights_text, capped_text, permits_text)
    takes, now = {}, at
    round.fair(room, at, rate, burst, weights_text, capped_text, permits_text)
    return takes
  end

  -- Grouped tasks whose score is past any epoch ms never come due: with room left, find them through GROUP_ALL
  -- to dead-letter them (claim.lua does it for the priority sets). An entry of GROUP_ALL whose record names no
  -- group holding it is dropped from GROUP_ALL.
  local function far_group_takes(room, latest_text)
    local takes = {}
    if room <= 0 then return takes end
    local far = redis.call('ZRANGEBYSCORE', GROUP_ALL, '(' .. latest_text, '+inf', 'WITHSCORES', 'LIMIT', 0, room)
    for i = 1, #far, 2 do
      local id = far[i]
      local g = group_of(redis.call('HGET', record_key(id), id))
      if g and redis.call('ZSCORE', group_due(g), id) then
        round.join(g)
        takes[#takes + 1] = { group_level(g), { id, far[i + 1] } }
      else
        redis.call('ZREM', GROUP_ALL, id)
      end
    end
    return takes
  end

  -- Why a task found in a group's set cannot be handed out: its record must name that group (and so be JSON)
  -- with priority 0. A bare ZADD into a group's set has no record: it names no group.
  local function group_problem(record, level)
    local g = claim_group[level]
    if group_of(record or nil) == g then
      local ok, decoded = pcall(cjson.decode, record)
      local p = ok and type(decoded) == 'table' and decoded['priority']
      if not p or p == cjson.null or tonumber(p) == 0 then return nil end
      return 'record priority ' .. tostring(p) .. ' does not match the set the task was in (' .. DUE[level] ..
        ', group ' .. g .. ': grouped tasks have priority 0)'
    end
    return 'record does not name group ' .. g .. ' of the set the task was in (' .. DUE[level] ..
      '; a grouped task\'s JSON record has "group":"' .. g .. '")'
  end

  -- After the claim took its tasks out of the group sets: drop them from GROUP_ALL; each group served gets its next
  -- turn and token bucket (include/group_round.lua).
  local function groups_after_claim(taken_ids, at, rate)
    if #taken_ids > 0 then redis.call('ZREM', GROUP_ALL, unpack(taken_ids)) end
    now = at
    round.after(at, rate)
  end

  return { fair_takes = fair_takes, far_group_takes = far_group_takes, group_problem = group_problem,
           groups_after_claim = groups_after_claim, wanted = round.wanted }
end
