-- The claim's side of groups (include/groups.lua): which tasks of the plain due set and of the due groups one
-- claim takes, and the groups' turns and token buckets afterwards. Include after common.lua and malformed.lua.
-- A group's set becomes DUE[level] for a level > 3 for the rest of the claim, so that claim.lua takes, checks,
-- removes and (on a failed claim) restores its tasks like those of a priority level.
-- All of it is made by group_claim(), called only by a claim that serves groups: a script call creates every
-- closure and table of its includes, and these cost ~0.7 µs per claim that no group needs.
local function group_claim()
  local claim_group = {}          -- level (> 3) -> group
  local group_taken = {}          -- level -> tasks taken
  local group_tokens = {}         -- level -> tokens before the claim (per-group rate limit)
  local group_unserved = {}       -- level -> true: the claim's room ran out before this group's share
  local group_blocked = {}        -- level -> true: a capped group with tasks due and no permit for them
  local wanted = {}               -- group, tasks, ...: the blocked groups and how many tasks each would have got

  local function group_level(g)
    for level = 4, #DUE do
      if claim_group[level] == g then return level end
    end
    local level = #DUE + 1
    DUE[level] = group_due(g)
    claim_group[level] = g
    group_taken[level] = 0
    return level
  end

  -- "g=3,h=2" -> {g = 3, h = 2}, and the groups in their order: weights whose value is not 1, or permits
  -- (the worker checked names and bounds)
  local function parse_counts(text)
    local counts, order = {}, {}
    for g, w in string.gmatch(text or '', '([^,=]+)=(%d+)') do
      counts[g] = tonumber(w)
      order[#order + 1] = g
    end
    return counts, order
  end

  -- "*": every group is capped; "g,h": these groups; "" or nil: none (include/group_permits.lua counts them)
  local function parse_capped(text)
    local capped = {}
    if text == '*' then return capped, true end
    for g in string.gmatch(text or '', '[^,]+') do capped[g] = true end
    return capped, false
  end

  -- Tasks of the groups the worker holds permits for, before any turn: at most one task per permit, due ones only
  -- (a permit not used here goes back at once). Their turns do not matter: the permits were taken for them.
  local function permitted_takes(room, now, rate, burst, permits, order, takes)
    for _, g in ipairs(order) do
      if room <= 0 then break end
      local level = group_level(g)
      local limit = math.min(permits[g], room)
      if rate > 0 then
        local tokens, at = string.match(redis.call('HGET', GROUP_RATE, g) or '', '^(%S+) (%S+)$')
        tokens, at = tonumber(tokens) or burst, tonumber(at) or now
        tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
        group_tokens[level] = tokens
        limit = math.min(limit, math.floor(tokens))
      end
      group_taken[level] = 0
      if limit > 0 then
        local found = redis.call('ZRANGEBYSCORE', DUE[level], '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit)
        group_taken[level] = #found / 2
        room = room - #found / 2
        if #found > 0 then takes[#takes + 1] = { level, found } end
      end
    end
    return room
  end

  -- Round robin over the plain due set (level 1: ungrouped tasks count as one more group) and the first
  -- MAX_GROUPS_PER_CLAIM groups whose turn has come, oldest turn first: each gets a share of `room` in
  -- proportion to its weight (1 unless weights_text names it; the plain due set weighs 1), at least one task,
  -- capped by its tokens; then what is left goes, in the same order, to those that filled their share.
  -- rate, burst: the per-group limit for this shard (0 = none). capped_text, permits_text: the groups capped at N
  -- running fleet-wide and the permits the worker holds for them (claim.lua ARGV[10], ARGV[11]): the permitted
  -- groups' tasks come first; a capped group without permits gets nothing, its turn moves CAPPED_RETRY_MS on and
  -- the answer says how many it wanted. Returns {level, {id, score, ...}} per take.
  local function fair_takes(room, now, rate, burst, weights_text, capped_text, permits_text)
    local takes = {}
    if room <= 0 then return takes end
    local parts, caps, weight_of = {}, {}, {}
    local weights = parse_counts(weights_text)
    local capped, all_capped = parse_capped(capped_text)
    local permits, permit_order = parse_counts(permits_text)
    room = permitted_takes(room, now, rate, burst, permits, permit_order, takes)
    if room <= 0 then return takes end
    local head = redis.call('ZRANGEBYSCORE', DUE[1], '-inf', now, 'LIMIT', 0, 1)
    if head[1] then parts[1], caps[1], weight_of[1] = 1, room, 1 end
    local due_groups = redis.call('ZRANGEBYSCORE', GROUPS, '-inf', now, 'LIMIT', 0, math.min(room, MAX_GROUPS_PER_CLAIM))
    local buckets = {}
    if rate > 0 and #due_groups > 0 then buckets = redis.call('HMGET', GROUP_RATE, unpack(due_groups)) end
    for k, g in ipairs(due_groups) do
      if not permits[g] then
        local level = group_level(g)
        local cap = room
        if rate > 0 then
          local tokens, at = string.match(buckets[k] or '', '^(%S+) (%S+)$')
          tokens, at = tonumber(tokens) or burst, tonumber(at) or now
          tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
          group_tokens[level] = tokens
          cap = math.floor(tokens)
        end
        if all_capped or capped[g] then
          group_blocked[level] = true
          cap = 0
        end
        parts[#parts + 1], caps[#parts + 1], weight_of[#parts + 1] = level, cap, weights[g] or 1
      end
    end
    if #parts == 0 then return takes end
    local total = 0
    for k = 1, #parts do total = total + weight_of[k] end
    local share = {}
    for k = 1, #parts do share[k] = math.max(1, math.floor(room * weight_of[k] / total)) end
    local got = {}
    for k, level in ipairs(parts) do
      local want = math.min(share[k], caps[k], room)
      got[k] = 0
      if want == 0 and caps[k] > 0 and level > 3 then group_unserved[level] = true end
      if group_blocked[level] and room > 0 then
        wanted[#wanted + 1] = claim_group[level]
        wanted[#wanted + 1] = math.min(share[k], room)
      end
      if want > 0 then
        local found = redis.call('ZRANGEBYSCORE', DUE[level], '-inf', now, 'WITHSCORES', 'LIMIT', 0, want)
        got[k] = #found / 2
        room = room - got[k]
        if got[k] > 0 then takes[#takes + 1] = { level, found } end
      end
    end
    for k, level in ipairs(parts) do
      if room <= 0 then break end
      local want = math.min(room, caps[k] - got[k])
      if got[k] == share[k] and want > 0 then
        local found = redis.call('ZRANGEBYSCORE', DUE[level], '-inf', now, 'WITHSCORES', 'LIMIT', got[k], want)
        room = room - #found / 2
        got[k] = got[k] + #found / 2
        if #found > 0 then takes[#takes + 1] = { level, found } end
      end
    end
    for k, level in ipairs(parts) do
      if level > 3 then group_taken[level] = got[k] end
    end
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

  -- After the claim took its tasks out of the group sets: drop them from GROUP_ALL, give each group served
  -- its next turn (its head when not due yet, else now: behind the groups still waiting; a group out of
  -- tokens when its next token is in) and store the token buckets.
  local function groups_after_claim(taken_ids, now, rate)
    if #taken_ids > 0 then redis.call('ZREM', GROUP_ALL, unpack(taken_ids)) end
    local buckets = {}
    for level = 4, #DUE do
      local g = claim_group[level]
      -- a group the claim's room ran out before keeps its turn: first in line next time
      if not group_unserved[level] then
        local head = redis.call('ZRANGE', DUE[level], 0, 0, 'WITHSCORES')
        local tokens = group_tokens[level]
        if tokens then
          tokens = tokens - group_taken[level]
          buckets[#buckets + 1] = g
          buckets[#buckets + 1] = tokens .. ' ' .. now
        end
        if not head[2] then
          redis.call('ZREM', GROUPS, g)
        else
          local turn = math.max(tonumber(head[2]), group_blocked[level] and now + CAPPED_RETRY_MS or now)
          if tokens and tokens < 1 and turn <= now then
            turn = now + math.ceil((1 - tokens) * 1000 / rate)
          end
          redis.call('ZADD', GROUPS, turn, g)
        end
      end
    end
    if #buckets > 0 then redis.call('HSET', GROUP_RATE, unpack(buckets)) end
  end

  return { fair_takes = fair_takes, far_group_takes = far_group_takes, group_problem = group_problem,
           groups_after_claim = groups_after_claim, wanted = function() return wanted end }
end
